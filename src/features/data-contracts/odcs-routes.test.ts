import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp, storeDump } from '../../../test/kit.ts';

const BASE = '/api/v1/dataContracts';
const MISSING = '00000000-0000-4000-8000-000000000000';

let c: TestApp;
beforeAll(async () => {
  c = await startApp({ at: T0 });
  await c.put('/api/v1/dataQuality/testDefinitions', { name: 'columnValuesToBeNotNull', entityType: 'COLUMN', testPlatforms: ['OpenMetadata'] }).expect(201);
}, SLOW_START);

const yamlPost = (path: string, text: string, method: 'post' | 'put' = 'post') => c.request(method, path).set('Content-Type', 'application/yaml').send(text);

const ODCS = (name: string) => ({
  apiVersion: 'v3.1.0',
  kind: 'DataContract',
  id: 'orders-contract',
  name,
  version: '1.0.0',
  status: 'active',
  description: { purpose: 'Orders for finance.' },
  schema: [
    {
      name: 'orders',
      logicalType: 'object',
      properties: [
        { name: 'order_id', physicalType: 'BIGINT', primaryKey: true },
        { name: 'amount', logicalType: 'number', required: true },
      ],
    },
    { name: 'refunds', logicalType: 'object', properties: [{ name: 'refund_id', physicalType: 'BIGINT' }] },
  ],
  quality: [
    { type: 'library', name: 'ids_not_null' },
    { type: 'sql', name: 'no_such_test' },
  ],
  slaProperties: [
    { property: 'frequency', value: 1, unit: 'day' },
    { property: 'latency', value: 4, unit: 'hours' },
    { property: 'timeOfAvailability', value: '09:00 UTC' },
  ],
});

describe('ODCS import and export (odcs.yaml; docs/behaviour.md "Data contracts")', () => {
  it("imports an ODCS document as the entity's contract and exports it back, as JSON and YAML", async () => {
    const t = await createTable(c);
    const tc = (
      await c
        .post('/api/v1/dataQuality/testCases', { name: 'ids_not_null', entityLink: `<#E::table::${t.fqn}::columns::order_id>`, testDefinition: 'columnValuesToBeNotNull' })
        .expect(201)
    ).body as Body;
    const created = await c.post(`${BASE}/odcs?entityId=${t.id}&entityType=table`, ODCS('orders_odcs')).expect(201);
    expect(created.body).toMatchObject({
      name: 'orders_odcs',
      fullyQualifiedName: `${t.fqn}.dataContract_orders_odcs`,
      entityStatus: 'Approved',
      description: 'Orders for finance.',
      schema: [
        { name: 'order_id', dataType: 'BIGINT', constraint: 'PRIMARY_KEY' },
        { name: 'amount', dataType: 'NUMBER', constraint: 'NOT_NULL' },
      ],
      qualityExpectations: [{ id: tc.id, type: 'testCase' }],
      sla: { refreshFrequency: { interval: 1, unit: 'day' }, maxLatency: { value: 4, unit: 'hour' }, availabilityTime: '09:00 UTC' },
    });
    const exported = await c.get(`${BASE}/${created.body.id}/odcs`).expect(200);
    expect(exported.body).toMatchObject({
      apiVersion: 'v3.1.0',
      kind: 'DataContract',
      id: created.body.id,
      name: 'orders_odcs',
      version: '0.1',
      status: 'active',
      description: { purpose: 'Orders for finance.' },
      schema: [
        {
          name: t.name,
          physicalType: 'table',
          properties: [
            { name: 'order_id', physicalType: 'BIGINT', primaryKey: true },
            { name: 'amount', physicalType: 'NUMBER', required: true },
          ],
        },
      ],
      quality: [{ type: 'library', name: 'ids_not_null' }],
      slaProperties: [
        { property: 'frequency', value: '1', unit: 'day' },
        { property: 'latency', value: '4', unit: 'hour' },
        { property: 'timeOfAvailability', value: '09:00 UTC' },
      ],
    });
    const byName = await c.get(`${BASE}/name/${encodeURIComponent(String(created.body.fullyQualifiedName))}/odcs`).expect(200);
    expect(byName.body).toEqual(exported.body);
    const yaml = await c.get(`${BASE}/${created.body.id}/odcs/yaml`).expect(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(parse(yaml.text)).toEqual(exported.body);
    // A second contract for the entity is refused as a create is.
    await c.post(`${BASE}/odcs?entityId=${t.id}&entityType=table`, ODCS('other')).expect(400);
  });

  it('YAML imports: objectName picks the schema object; PUT updates in merge or replace mode', async () => {
    const t = await createTable(c);
    const text = JSON.stringify(ODCS('from_yaml')); // JSON is YAML
    const created = await yamlPost(`${BASE}/odcs/yaml?entityId=${t.id}&entityType=table&objectName=refunds`, text).expect(201);
    expect(created.body.schema).toEqual([{ name: 'refund_id', dataType: 'BIGINT' }]);
    const merged = await yamlPost(
      `${BASE}/odcs/yaml?entityId=${t.id}&entityType=table`,
      'apiVersion: v3.1.0\nkind: DataContract\nid: x\nname: from_yaml\nversion: 1.0.1\nstatus: deprecated\n',
      'put',
    ).expect(200);
    expect(merged.body).toMatchObject({ id: created.body.id, entityStatus: 'Deprecated', schema: [{ name: 'refund_id' }] });
    const replaced = await yamlPost(
      `${BASE}/odcs/yaml?entityId=${t.id}&entityType=table&mode=replace`,
      'apiVersion: v3.1.0\nkind: DataContract\nid: x\nname: from_yaml\nversion: 1.0.2\nstatus: active\n',
      'put',
    ).expect(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, entityStatus: 'Approved', schema: [] });
    const cases: [string, string, number][] = [
      // given the query and the YAML, want the status
      [`entityId=${t.id}&entityType=table`, 'kind: [unclosed', 400],
      [`entityId=${t.id}&entityType=table`, 'kind: DataContract\n', 400],
      [`entityId=${t.id}&entityType=table&objectName=nope`, text, 400],
      [`entityId=${MISSING}&entityType=table`, text, 404],
      [`entityType=table`, text, 400],
    ];
    for (const [query, body, status] of cases) await yamlPost(`${BASE}/odcs/yaml?${query}`, body, 'put').expect(status);
  });

  it('parses and validates YAML documents without storing anything', async () => {
    const t = await createTable(c);
    const before = storeDump(c.ctx);
    const parsed = await yamlPost(`${BASE}/odcs/parse/yaml`, JSON.stringify(ODCS('p'))).expect(200);
    expect(parsed.body).toEqual({ name: 'p', version: '1.0.0', status: 'active', schemaObjects: ['orders', 'refunds'], hasMultipleObjects: true });
    const odcs = await yamlPost(`${BASE}/odcs/validate/yaml?entityId=${t.id}&entityType=table&objectName=refunds`, JSON.stringify(ODCS('v'))).expect(200);
    expect(odcs.body).toEqual({ valid: false, entityErrors: [], constraintErrors: [], schemaValidation: { passed: 0, failed: 1, total: 1, failedFields: ['refund_id'] } });
    const unknown = await yamlPost(`${BASE}/odcs/validate/yaml?entityId=${MISSING}&entityType=table`, JSON.stringify(ODCS('v'))).expect(200);
    expect(unknown.body).toMatchObject({ valid: false, entityErrors: [`table instance for ${MISSING} not found`] });
    const om = await yamlPost(`${BASE}/validate/yaml`, `name: c\nentity:\n  id: ${t.id}\n  type: table\nschema:\n  - name: order_id\n    dataType: BIGINT\n`).expect(200);
    expect(om.body).toEqual({ valid: true, entityErrors: [], constraintErrors: [], schemaValidation: { passed: 1, failed: 0, total: 1, failedFields: [] } });
    await yamlPost(`${BASE}/validate/yaml`, 'name: c\n').expect(400);
    await c.post(`${BASE}/odcs/parse/yaml`, { a: 1 }).expect(415);
    expect(storeDump(c.ctx)).toBe(before);
    await c.get(`${BASE}/${MISSING}/odcs`).expect(404);
  });
});
