import { beforeAll, describe, expect, it } from 'vitest';
import type { TableFixture, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';
import type { components } from '../../../openapi/generated/schema.d.ts';

type DataContract = components['schemas']['DataContract'];

const MISSING = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;

let c: TestApp;
let om: TestApp;
beforeAll(async () => {
  [c, om] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
  for (const cat of [c, om]) {
    cat.clock.now = T0 + 12 * HOUR; // 12:00 UTC
    await cat
      .put('/api/v1/dataQuality/testDefinitions', { name: 'columnValuesToBeBetween', entityType: 'COLUMN', testPlatforms: ['OpenMetadata'] })
      .expect((r) => expect([200, 201]).toContain(r.status));
  }
}, SLOW_START);

async function testCase(cat: TestApp, t: TableFixture, name: string): Promise<{ id: string; fqn: string }> {
  const res = await cat
    .post('/api/v1/dataQuality/testCases', { name, entityLink: `<#E::table::${t.fqn}::columns::amount>`, testDefinition: 'columnValuesToBeBetween' })
    .expect(201);
  return { id: res.body.id, fqn: res.body.fullyQualifiedName };
}

async function contract(cat: TestApp, t: TableFixture, extra: Record<string, unknown> = {}): Promise<DataContract> {
  const res = await cat.post('/api/v1/dataContracts', { name: 'c', entity: { id: t.id, type: 'table' }, ...extra });
  if (res.status !== 201) throw new Error(`contract: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('one contract per entity (docs/behaviour.md "Data contracts")', () => {
  it('the FQN is <entityFQN>.dataContract_<name>, version 0.1; a second contract on the entity is 400', async () => {
    const t = await createTable(c);
    const first = await contract(c, t);
    expect(first.fullyQualifiedName).toBe(`${t.fqn}.dataContract_c`);
    expect(first.version).toBe(0.1);
    const second = await c.post('/api/v1/dataContracts', { name: 'other', entity: { id: t.id, type: 'table' } }).expect(400);
    expect(second.body.message).toBe(`A data contract already exists for entity 'table' with ID ${t.id}`);
  });
});

describe('GET /v1/dataContracts/entity (docs/behaviour.md "Data contracts")', () => {
  it('returns the contract of the entity; 404 for an entity without one and for an unknown entity', async () => {
    const t = await createTable(c);
    const bare = await createTable(c);
    const made = await contract(c, t);
    const got = await c.get(`/api/v1/dataContracts/entity?entityId=${t.id}&entityType=table`).expect(200);
    expect(got.body.id).toBe(made.id);
    expect(got.body.inherited).toBeUndefined();
    await c.get(`/api/v1/dataContracts/entity?entityId=${bare.id}&entityType=table`).expect(404);
    await c.get(`/api/v1/dataContracts/entity?entityId=${MISSING}&entityType=table`).expect(404);
    await c.get(`/api/v1/dataContracts/entity?entityId=${t.id}&entityType=topic`).expect(404);
    await c.get(`/api/v1/dataContracts/entity?entityId=${t.id}`).expect(400);
  });
});

describe('POST /v1/dataContracts/{id}/validate (contract "Data contracts")', () => {
  it('checks schema, semantics, quality and SLA; stores the result as latestResult with a minor version bump', async () => {
    const t = await createTable(c);
    const test = await testCase(c, t, 'amount_range');
    const made = await contract(c, t, {
      schema: [
        { name: 'order_id', dataType: 'BIGINT' },
        { name: 'amount', dataType: 'decimal' },
      ],
      semantics: [
        { name: 'two_columns', rule: '{"==": [{"var": "columns.length"}, 2]}' },
        { name: 'has_description', rule: '{"!!": {"var": "description"}}' },
        { name: 'disabled', rule: '{"!!": false}', enabled: false },
      ],
      qualityExpectations: [{ id: test.id, type: 'testCase' }],
      sla: { refreshFrequency: { interval: 1, unit: 'day' }, maxLatency: { value: 6, unit: 'hour' } },
    });

    const first = await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200);
    expect(first.body).toMatchObject({
      dataContractFQN: made.fullyQualifiedName,
      timestamp: T0 + 12 * HOUR,
      contractExecutionStatus: 'PartialSuccess',
      schemaValidation: { passed: 2, failed: 0, total: 2, failedFields: [] },
      semanticsValidation: { passed: 1, failed: 1, total: 2 },
      qualityValidation: { passed: 0, failed: 1, total: 1, qualityScore: 0 },
      slaValidation: { refreshFrequencyMet: false, latencyMet: false },
    });
    expect(first.body.semanticsValidation.failedRules[0].ruleName).toBe('has_description');
    const after1 = await c.get(`/api/v1/dataContracts/${made.id}`).expect(200);
    expect(after1.body.version).toBe(0.2);
    expect(after1.body.latestResult).toEqual({ timestamp: T0 + 12 * HOUR, status: 'PartialSuccess', message: first.body.result, resultId: first.body.id });

    // Make every check pass: a description, a successful run, a refresh 30 minutes ago.
    await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/description', value: 'Orders.' }]).expect(200);
    await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${encodeURIComponent(test.fqn)}`, { timestamp: T0 + 11 * HOUR, testCaseStatus: 'Success' }).expect(200);
    await c.put(`/api/v1/tables/${t.id}/tableProfile`, { tableProfile: { timestamp: T0 + 11.5 * HOUR, rowCount: 3 } }).expect(200);
    c.clock.now += 1000;
    const second = await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200);
    expect(second.body).toMatchObject({
      contractExecutionStatus: 'Success',
      result: 'All checks passed.',
      semanticsValidation: { passed: 2, failed: 0, total: 2, failedRules: [] },
      qualityValidation: { passed: 1, failed: 0, total: 1, qualityScore: 100 },
      slaValidation: { refreshFrequencyMet: true, latencyMet: true, actualLatency: 1801 },
    });
    const after2 = await c.get(`/api/v1/dataContracts/${made.id}`).expect(200);
    expect(after2.body.version).toBe(0.3);
    expect(after2.body.latestResult.status).toBe('Success');
    const list = await c.get(`/api/v1/dataContracts/${made.id}/results`).expect(200);
    expect(list.body.data.map((r: { contractExecutionStatus: string }) => r.contractExecutionStatus)).toEqual(['Success', 'PartialSuccess']);
  });

  it('a schema whose columns are missing or of another type fails with failedFields; nothing else checked → Failed', async () => {
    const t = await createTable(c);
    const made = await contract(c, t, {
      schema: [
        { name: 'amount', dataType: 'INT' },
        { name: 'gone', dataType: 'INT' },
        { name: 'order_id', dataType: 'BIGINT' },
      ],
    });
    const res = await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200);
    expect(res.body.contractExecutionStatus).toBe('Failed');
    expect(res.body.schemaValidation).toEqual({ passed: 1, failed: 2, total: 3, failedFields: ['amount', 'gone'] });
    expect(res.body.result).toBe('Schema: 2 of 3 fields failed (amount, gone).');
  });

  it('availabilityTime: met before the deadline, or when a refresh happened today before it', async () => {
    const t = await createTable(c);
    const made = await contract(c, t, { sla: { availabilityTime: '09:00 UTC' } });
    const validateAt = async (now: number) => {
      c.clock.now = now;
      return (await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200)).body;
    };
    const day = T0 + 24 * HOUR;
    expect((await validateAt(day + 8 * HOUR)).slaValidation).toEqual({ availabilityMet: true });
    const late = await validateAt(day + 10 * HOUR);
    expect(late).toMatchObject({ slaValidation: { availabilityMet: false }, contractExecutionStatus: 'Failed', result: 'SLA: 1 of 1 targets missed.' });
    await c.put(`/api/v1/tables/${t.id}/tableProfile`, { tableProfile: { timestamp: day + 7 * HOUR } }).expect(200);
    expect((await validateAt(day + 11 * HOUR)).slaValidation).toEqual({ availabilityMet: true });
    await c.put(`/api/v1/tables/${t.id}/tableProfile`, { tableProfile: { timestamp: day + 9.5 * HOUR } }).expect(200);
    expect((await validateAt(day + 12 * HOUR)).slaValidation).toEqual({ availabilityMet: false });
    c.clock.now = T0 + 12 * HOUR;
  });

  it('a malformed rule or an unknown operator is a failed rule with its reason, not an error', async () => {
    const t = await createTable(c);
    const made = await contract(c, t, {
      semantics: [
        { name: 'broken', rule: '{not json' },
        { name: 'unknown', rule: '{"regex": ["a", "b"]}' },
      ],
    });
    const res = await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200);
    expect(res.body.contractExecutionStatus).toBe('Failed');
    expect(res.body.semanticsValidation.failedRules.map((r: { ruleName: string }) => r.ruleName)).toEqual(['broken', 'unknown']);
    expect(res.body.semanticsValidation.failedRules[1].reason).toBe('Unknown operator regex');
  });

  it('an unknown or soft-deleted contract is 404', async () => {
    await c.post(`/api/v1/dataContracts/${MISSING}/validate`).expect(404);
    const t = await createTable(c);
    const made = await contract(c, t);
    await c.delete(`/api/v1/dataContracts/${made.id}`).expect(200);
    await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(404);
  });
});

describe('POST /v1/dataContracts/entity/validate (contract "Data contracts")', () => {
  it('validates the entity contract; 404 when the entity has none', async () => {
    const t = await createTable(c);
    const bare = await createTable(c);
    const made = await contract(c, t);
    const res = await c.post(`/api/v1/dataContracts/entity/validate?entityId=${t.id}&entityType=table`).expect(200);
    expect(res.body).toMatchObject({ dataContractFQN: made.fullyQualifiedName, contractExecutionStatus: 'Success' });
    await c.post(`/api/v1/dataContracts/entity/validate?entityId=${bare.id}&entityType=table`).expect(404);
    await c.post(`/api/v1/dataContracts/entity/validate?entityId=${MISSING}&entityType=table`).expect(404);
  });

  it('a contract inherited from a data product is shown with inherited true; validating creates a local contract', async () => {
    await c.put('/api/v1/domains', { name: 'Sales' }).expect((r) => expect([200, 201]).toContain(r.status));
    const product = await c.put('/api/v1/dataProducts', { name: 'orders_product', domains: ['Sales'] });
    expect([200, 201]).toContain(product.status);
    const productContract = await c
      .put('/api/v1/dataContracts', {
        name: 'product_terms',
        entity: { id: product.body.id, type: 'dataProduct' },
        semantics: [{ name: 'named', rule: '{"!!": {"var": "name"}}' }],
      })
      .expect((r) => expect([200, 201]).toContain(r.status));
    const t = await createTable(c, undefined, undefined, { dataProducts: ['orders_product'] });

    const shown = await c.get(`/api/v1/dataContracts/entity?entityId=${t.id}&entityType=table`).expect(200);
    expect(shown.body).toMatchObject({ id: productContract.body.id, inherited: true });

    const res = await c.post(`/api/v1/dataContracts/entity/validate?entityId=${t.id}&entityType=table`).expect(200);
    expect(res.body).toMatchObject({ dataContractFQN: `${t.fqn}.dataContract_product_terms`, contractExecutionStatus: 'Success', semanticsValidation: { passed: 1, total: 1 } });
    const local = await c.get(`/api/v1/dataContracts/entity?entityId=${t.id}&entityType=table`).expect(200);
    expect(local.body.id).not.toBe(productContract.body.id);
    expect(local.body.inherited).toBeUndefined();
    expect(local.body).toMatchObject({
      fullyQualifiedName: `${t.fqn}.dataContract_product_terms`,
      entity: { id: t.id },
      version: 0.2,
      latestResult: { status: 'Success', resultId: res.body.id },
    });
    // The data product's contract holds no result.
    expect((await c.get(`/api/v1/dataContracts/${productContract.body.id}/results`)).body.data).toEqual([]);
  });
});

describe('validation results (contract "Data contracts", "Limits"; docs/behaviour.md "Data contracts")', () => {
  const result = (timestamp: number, status = 'Success') => ({ timestamp, contractExecutionStatus: status, dataContractFQN: 'ignored' });

  it('PUT: 200 and a new latestResult (+0.1) when newest; 201 and no version change when older', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    const newest = await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0 + 2000, 'Failed')).expect(200);
    expect(newest.body).toMatchObject({ timestamp: T0 + 2000, contractExecutionStatus: 'Failed', dataContractFQN: made.fullyQualifiedName });
    expect(newest.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const older = await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0 + 1000)).expect(201);
    expect(older.body.timestamp).toBe(T0 + 1000);
    const got = await c.get(`/api/v1/dataContracts/${made.id}`).expect(200);
    expect(got.body.version).toBe(0.2);
    expect(got.body.latestResult).toEqual({ timestamp: T0 + 2000, status: 'Failed', resultId: newest.body.id });
  });

  it('PUT checks required fields and the status enum (400)', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    await c.put(`/api/v1/dataContracts/${made.id}/results`, { timestamp: T0 }).expect(400);
    await c.put(`/api/v1/dataContracts/${made.id}/results`, { contractExecutionStatus: 'Success' }).expect(400);
    await c.put(`/api/v1/dataContracts/${made.id}/results`, { timestamp: T0, contractExecutionStatus: 'Done' }).expect(400);
    expect((await c.get(`/api/v1/dataContracts/${made.id}/results`)).body.data).toEqual([]);
  });

  it('GET lists newest first within [startTs, endTs], at most limit (default 10, 0 = all, out of range 400)', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    for (let i = 1; i <= 12; i++) await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0 + i * 1000)).expect(200);
    const page = await c.get(`/api/v1/dataContracts/${made.id}/results`).expect(200);
    expect(page.body.data).toHaveLength(10);
    expect(page.body.data[0].timestamp).toBe(T0 + 12_000);
    expect(page.body.paging.total).toBe(10);
    expect((await c.get(`/api/v1/dataContracts/${made.id}/results?limit=0`)).body.data).toHaveLength(12);
    expect((await c.get(`/api/v1/dataContracts/${made.id}/results?limit=3`)).body.data.map((r: { timestamp: number }) => r.timestamp - T0)).toEqual([12_000, 11_000, 10_000]);
    const window = await c.get(`/api/v1/dataContracts/${made.id}/results?startTs=${T0 + 3000}&endTs=${T0 + 5000}`).expect(200);
    expect(window.body.data.map((r: { timestamp: number }) => r.timestamp - T0)).toEqual([5000, 4000, 3000]);
    await c.get(`/api/v1/dataContracts/${made.id}/results?limit=10001`).expect(400);
    await c.get(`/api/v1/dataContracts/${made.id}/results?limit=-1`).expect(400);
  });

  it('latest, delete one by timestamp, delete all before a timestamp', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    await c.get(`/api/v1/dataContracts/${made.id}/results/latest`).expect(404);
    for (let i = 1; i <= 4; i++) await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0 + i * 1000, i === 3 ? 'Failed' : 'Success')).expect(200);
    expect((await c.get(`/api/v1/dataContracts/${made.id}/results/latest`).expect(200)).body.timestamp).toBe(T0 + 4000);
    const del = await c.delete(`/api/v1/dataContracts/${made.id}/results/${T0 + 4000}`).expect(200);
    expect(del.text).toBe('');
    const latest = await c.get(`/api/v1/dataContracts/${made.id}/results/latest`).expect(200);
    expect(latest.body).toMatchObject({ timestamp: T0 + 3000, contractExecutionStatus: 'Failed' });
    expect((await c.get(`/api/v1/dataContracts/${made.id}`)).body.latestResult).toMatchObject({ timestamp: T0 + 3000, status: 'Failed' });
    await c.delete(`/api/v1/dataContracts/${made.id}/results/before/${T0 + 3000}`).expect(200);
    expect((await c.get(`/api/v1/dataContracts/${made.id}/results`)).body.data.map((r: { timestamp: number }) => r.timestamp)).toEqual([T0 + 3000]);
  });

  it('one result by its id (GET .../results/{resultId} of the web UI); an unknown id or contract is 404, a malformed id 400', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    const stored = (await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0 + 1000, 'Failed')).expect(200)).body as { id: string };
    await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0 + 2000)).expect(200);
    const got = await c.get(`/api/v1/dataContracts/${made.id}/results/${stored.id}`).expect(200);
    expect(got.body).toMatchObject({ id: stored.id, timestamp: T0 + 1000, contractExecutionStatus: 'Failed' });
    await c.get(`/api/v1/dataContracts/${made.id}/results/${MISSING}`).expect(404);
    await c.get(`/api/v1/dataContracts/${MISSING}/results/${stored.id}`).expect(404);
    await c.get(`/api/v1/dataContracts/${made.id}/results/not-a-uuid`).expect(400);
  });

  it('every results operation on an unknown contract is 404', async () => {
    await c.get(`/api/v1/dataContracts/${MISSING}/results`).expect(404);
    await c.put(`/api/v1/dataContracts/${MISSING}/results`, result(T0)).expect(404);
    await c.get(`/api/v1/dataContracts/${MISSING}/results/latest`).expect(404);
    await c.delete(`/api/v1/dataContracts/${MISSING}/results/${T0}`).expect(404);
    await c.delete(`/api/v1/dataContracts/${MISSING}/results/before/${T0}`).expect(404);
  });

  it('a hard-deleted contract takes its results with it', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    await c.put(`/api/v1/dataContracts/${made.id}/results`, result(T0)).expect(200);
    await c.delete(`/api/v1/dataContracts/${made.id}?hardDelete=true`).expect(204);
    const again = await contract(c, t);
    expect(again.fullyQualifiedName).toBe(made.fullyQualifiedName);
    expect((await c.get(`/api/v1/dataContracts/${again.id}/results`)).body.data).toEqual([]);
    expect(again.latestResult).toBeUndefined();
  });

  it('profile openmetadata: latest with no result is 204 with no body', async () => {
    const t = await createTable(om);
    const made = await contract(om, t);
    const res = await om.get(`/api/v1/dataContracts/${made.id}/results/latest`).expect(204);
    expect(res.text).toBe('');
  });
});

describe('roles (docs/behaviour.md "Authentication"; contract "Errors" 401, 403)', () => {
  it('401 without a token, 403 for a DataConsumer on writes and a DataSteward on deletes', async () => {
    const t = await createTable(c);
    const made = await contract(c, t);
    const id = made.id as string;
    const q = `entityId=${t.id}&entityType=table`;
    for (const token of ['', c.tokens.consumer]) {
      const status = token === '' ? 401 : 403;
      await c.post(`/api/v1/dataContracts/${id}/validate`, undefined, token).expect(status);
      await c.post(`/api/v1/dataContracts/entity/validate?${q}`, undefined, token).expect(status);
      await c.put(`/api/v1/dataContracts/${id}/results`, result(T0), token).expect(status);
      await c.delete(`/api/v1/dataContracts/${id}/results/${T0}`, token).expect(status);
      await c.delete(`/api/v1/dataContracts/${id}/results/before/${T0}`, token).expect(status);
    }
    await c.delete(`/api/v1/dataContracts/${id}/results/${T0}`, c.tokens.steward).expect(403);
    await c.put(`/api/v1/dataContracts/${id}/results`, result(T0), c.tokens.steward).expect(200);
    for (const path of [`/api/v1/dataContracts/${id}/results`, `/api/v1/dataContracts/${id}/results/latest`, `/api/v1/dataContracts/entity?${q}`]) {
      await c.get(path, '').expect(401);
      await c.get(path, c.tokens.consumer).expect(200);
    }
  });
});

function result(timestamp: number, status = 'Success') {
  return { timestamp, contractExecutionStatus: status };
}

/** `depth` nested `map`s over a literal array of `width` items (docs/behaviour.md "Limits of one request"). */
function nestedMaps(depth: number, width: number): string {
  let rule: unknown = { var: '' };
  for (let d = 0; d < depth; d++) rule = { map: [Array.from({ length: width }, (_, i) => i), rule] };
  return JSON.stringify(rule);
}

describe('semantics rules within their limits (docs/behaviour.md "Limits of one request")', () => {
  it.each([
    { given: 'a rule longer than 10,000 characters', rule: `{"cat": ["${'x'.repeat(10_000)}"]}`, want: 'Semantics rule r: The rule is longer than 10000 characters (the limit)' },
    {
      given: 'a rule nested 100 levels deep',
      rule: `${'{"!": ['.repeat(50)}true${']}'.repeat(50)}`,
      want: 'Semantics rule r: The rule is nested deeper than 32 levels (the limit)',
    },
  ])('$given: 400 on create, upsert and PATCH, and nothing stored', async ({ rule, want }) => {
    const t = await createTable(c);
    const body = { name: 'c', entity: { id: t.id, type: 'table' }, semantics: [{ name: 'r', rule }] };
    const created = await c.post('/api/v1/dataContracts', body).expect(400);
    expect(created.body).toMatchObject({ code: 400, message: want, details: [{ path: 'semantics.0.rule' }] });
    expect((await c.put('/api/v1/dataContracts', body).expect(400)).body.message).toBe(want);
    await c.get(`/api/v1/dataContracts/entity?entityId=${t.id}&entityType=table`).expect(404);
    const made = await contract(c, t);
    const patched = await c.patch(`/api/v1/dataContracts/${made.id}`, [{ op: 'add', path: '/semantics', value: [{ name: 'r', rule }] }]).expect(400);
    expect(patched.body.message).toBe(want);
    expect((await c.get(`/api/v1/dataContracts/${made.id}?fields=*`).expect(200)).body).toMatchObject({ version: 0.1 });
  });

  it('a rule whose evaluation would not end (nested maps, 40^6 items) is a failed rule with its reason; the others are evaluated', async () => {
    const t = await createTable(c);
    const rule = nestedMaps(6, 40);
    expect(rule.length).toBeLessThan(2_000);
    const made = await contract(c, t, {
      semantics: [
        { name: 'bomb', rule },
        { name: 'named', rule: '{"!!": {"var": "name"}}' },
      ],
    });
    const res = await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200);
    expect(res.body.semanticsValidation).toEqual({
      passed: 1,
      failed: 1,
      total: 2,
      failedRules: [{ ruleName: 'bomb', reason: 'The rule needs more than 100000 evaluation steps (the limit)' }],
    });
  });

  it('the rules of one validation share 1,000,000 steps: past them, a rule is stopped with that reason', async () => {
    const t = await createTable(c);
    // Each of these takes most of its own 100,000 steps (over 90,000) without crossing them.
    const heavy = JSON.stringify({ map: [Array.from({ length: 150 }, (_, i) => i), { map: [Array.from({ length: 150 }, (_, i) => i), 1] }] });
    const semantics = Array.from({ length: 12 }, (_, i) => ({ name: `heavy${i}`, rule: heavy }));
    const made = await contract(c, t, { semantics });
    const res = await c.post(`/api/v1/dataContracts/${made.id}/validate`).expect(200);
    const failed = res.body.semanticsValidation.failedRules as { ruleName: string; reason: string }[];
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(12);
    for (const rule of failed) expect(rule.reason).toBe("The contract's rules need more than 1000000 evaluation steps together (the limit): this one was stopped");
    expect(failed.map((r) => r.ruleName)).toEqual(semantics.slice(12 - failed.length).map((r) => r.name));
  });
});
