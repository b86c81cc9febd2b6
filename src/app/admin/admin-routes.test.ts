import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Method, TestApp } from '../../../test/kit.ts';
import { startApp } from '../../../test/kit.ts';
import { compiledValidators, operationsOf, responsesOf } from '../../openapi/compiled.ts';

let catalog: TestApp;

beforeAll(async () => {
  catalog = await startApp({ fixtures: 'default', random: () => 0.5 });
});

// Each test starts from the demo catalog with no fault rules (the Admin API itself resets it).
beforeEach(async () => {
  await adminApi('post', '/__admin/reset');
  await adminApi('delete', '/__admin/errors');
  await adminApi('delete', '/__admin/latency');
});

/** A call of the Admin API, which takes no token. */
const adminApi = (method: Method, path: string) => catalog.request(method, path, '');
const count = () => [...catalog.ctx.store.all()].length;
const createService = (name: string) => catalog.post('/api/v1/services/databaseServices').send({ name, serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } });

describe('admin reset: back to the fixtures', () => {
  it('reset drops API writes and restores the demo catalog', async () => {
    const before = count();
    expect((await createService('scratch')).status).toBe(201);
    const res = await adminApi('post', '/__admin/reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ entities: before });
    expect(catalog.ctx.store.getByFqn('databaseService', 'scratch')).toBeUndefined();
  });

  it("reset clears the latency and error rules and the journal too, as WireMock's reset does: the server as it started", async () => {
    await adminApi('put', '/__admin/latency').send({ rules: [{ route: '/api/v1/charts*', ms: 5 }] });
    await adminApi('put', '/__admin/errors').send({ rules: [{ route: '/api/v1/dashboards*', status: 503 }] });
    await catalog.get('/api/v1/dashboards');
    expect((await adminApi('get', '/__admin/journal')).body.data).toHaveLength(1);
    expect((await adminApi('post', '/__admin/reset')).status).toBe(200);
    expect((await adminApi('get', '/__admin/latency')).body).toEqual({ rules: [] });
    expect((await adminApi('get', '/__admin/errors')).body).toEqual({ rules: [] });
    expect((await adminApi('get', '/__admin/journal')).body).toEqual({ data: [] });
    expect((await catalog.get('/api/v1/dashboards')).status).toBe(200);
  });

  it('the start state comes back as it was: the same ids and versions; ?to=fixtures replays the fixtures, with new ids', async () => {
    const fqn = 'acme_snowflake.ecommerce_dw.sales.fact_orders';
    const table = catalog.ctx.store.getByFqn('table', fqn)!.entity;
    const patched = await catalog
      .request('patch', `/api/v1/tables/${table.id}`)
      .set('Content-Type', 'application/json-patch+json')
      .send([{ op: 'add', path: '/description', value: 'changed before the reset' }]);
    expect(patched.status).toBe(200);
    await adminApi('post', '/__admin/reset');
    const back = catalog.ctx.store.getByFqn('table', fqn)!.entity;
    expect([back.id, back.version, back.description]).toEqual([table.id, table.version, table.description]);
    await adminApi('post', '/__admin/reset?to=fixtures');
    expect(catalog.ctx.store.getByFqn('table', fqn)!.entity.id).not.toBe(table.id);
  });
});

describe('admin state: export and import', () => {
  it('an exported state imported after a reset restores ids, versions and histories', async () => {
    await createService('kept');
    const exported = (await adminApi('get', '/__admin/state')).body;
    expect(exported.format).toBe('catalog-kit-state/1');
    const kept = catalog.ctx.store.getByFqn('databaseService', 'kept')!.entity;
    await adminApi('post', '/__admin/reset');
    const res = await adminApi('put', '/__admin/state').send(exported);
    expect(res.body).toEqual({ entities: exported.entities.length });
    const back = await catalog.get(`/api/v1/services/databaseServices/${kept.id}`);
    expect(back.body).toMatchObject({ id: kept.id, version: 0.1, fullyQualifiedName: 'kept' });
    expect(catalog.ctx.store.getByFqn('table', 'acme_snowflake.ecommerce_dw.sales.fact_orders')!.history).toHaveLength(1);
  });

  it('a body that is not an export is 400 and changes nothing', async () => {
    const before = count();
    const res = await adminApi('put', '/__admin/state').send({ entities: 3 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(count()).toBe(before);
  });
});

describe('admin error injection: status and probability per route', () => {
  it('a matching route fails with the rule status in the error shape; others pass', async () => {
    const rules = [{ route: '/api/v1/tables*', method: 'GET', status: 503, probability: 1 }];
    expect((await adminApi('put', '/__admin/errors').send({ rules })).body).toEqual({ rules });
    const failed = await catalog.get('/api/v1/tables');
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 503, message: 'Injected fault: 503 for GET /api/v1/tables' });
    expect((await catalog.get('/api/v1/dashboards')).status).toBe(200);
  });

  it('a probability below the random draw lets the request through', async () => {
    await adminApi('put', '/__admin/errors').send({ rules: [{ status: 500, probability: 0.4 }] });
    expect((await catalog.get('/api/v1/tables')).status).toBe(200);
    await adminApi('delete', '/__admin/errors');
    expect((await adminApi('get', '/__admin/errors')).body).toEqual({ rules: [] });
  });

  it('an invalid rule is 400', async () => {
    const res = await adminApi('put', '/__admin/errors').send({ rules: [{ status: 200 }] });
    expect(res.status).toBe(400);
  });
});

describe('admin latency: fixed or random, global or per route', () => {
  it('rules are stored and the random delay stays in its range', async () => {
    const rules = [{ route: '/api/v1/tables*', ms: 100, maxMs: 300 }, { ms: 1 }];
    expect((await adminApi('put', '/__admin/latency').send({ rules })).body).toEqual({ rules });
    expect(catalog.dev.faults.delayFor('GET', '/api/v1/tables/x')).toBe(200);
    expect(catalog.dev.faults.delayFor('GET', '/api/v1/charts')).toBe(1);
    expect((await catalog.get('/api/v1/charts')).status).toBe(200);
    await adminApi('delete', '/__admin/latency');
    expect(catalog.dev.faults.delayFor('GET', '/api/v1/charts')).toBe(0);
  });
});

describe('admin journal: the last /api requests', () => {
  it('records method, path, status and duration, newest first', async () => {
    await catalog.get('/api/v1/tables?limit=1');
    await catalog.get('/api/v1/tables/not-a-uuid');
    const res = await adminApi('get', '/__admin/journal?limit=2');
    expect(res.body.data.map((e: { method: string; path: string; status: number }) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/v1/tables/not-a-uuid', 400],
      ['GET', '/api/v1/tables', 200],
    ]);
    expect(typeof res.body.data[0].durationMs).toBe('number');
    expect((await adminApi('delete', '/__admin/journal')).status).toBe(204);
    expect((await adminApi('get', '/__admin/journal')).body).toEqual({ data: [] });
  });
});

describe('Prefer: code=<status> forces one documented error', () => {
  it('a documented status is answered in the error shape without a write', async () => {
    const before = count();
    const res = await createService('forced').set('Prefer', 'code=409');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 409, errorType: 'ENTITY_ALREADY_EXISTS', message: 'Forced by the Prefer header: code=409' });
    expect(count()).toBe(before);
  });

  it.each([
    { status: 503, errorType: 'SERVICE_UNAVAILABLE' },
    { status: 429, errorType: 'TOO_MANY_REQUESTS' },
    { status: 504, errorType: 'GATEWAY_TIMEOUT' },
  ])('$status ($errorType) is forced on a list, a read by name, a create, a search and a lineage call alike', async ({ status, errorType }) => {
    const before = count();
    const calls = [
      catalog.get('/api/v1/tables?fields=owners,tags,followers'),
      catalog.get('/api/v1/tables/name/acme_snowflake.ecommerce_dw.sales.fact_orders'),
      createService(`forced-${status}`),
      catalog.get('/api/v1/search/query?q=orders&index=dataAsset'),
      catalog.get('/api/v1/lineage/getLineage?fqn=acme_s3.raw.orders&type=container&upstreamDepth=0&downstreamDepth=3'),
    ];
    for (const res of await Promise.all(calls.map((call) => call.set('Prefer', `code=${status}`)))) {
      expect(res.status, res.text).toBe(status);
      expect(res.body).toEqual({ code: status, errorType, message: `Forced by the Prefer header: code=${status}` });
    }
    expect(count()).toBe(before);
  });

  it.each(['contract', 'openmetadata'] as const)(
    'every operation of the API documents 429, 503 and 504 (profile %s), so both injection and Prefer can give them anywhere',
    (profile) => {
      const operations = operationsOf(compiledValidators().tables.api, profile);
      expect(operations.length).toBeGreaterThan(500);
      expect(operations.filter((op) => !['429', '503', '504'].every((status) => status in responsesOf(op))).map((op) => op.operationId)).toEqual([]);
    },
  );

  it('an undocumented status is 400 naming the documented ones', async () => {
    const res = await catalog.get('/api/v1/tables').set('Prefer', 'code=418');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/code=418 is not a documented error status .* documented: .*401/);
  });
});
