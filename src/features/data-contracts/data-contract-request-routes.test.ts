import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp, storeDump } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const VALIDATE = '/api/v1/dataContracts/validate';

let c: TestApp;
beforeAll(async () => {
  c = await startApp({ at: T0 });
}, SLOW_START);

describe('POST /v1/dataContracts/validate (openapi.yaml validateDataContractRequest)', () => {
  it('reports what a create would refuse and the schema check, and stores nothing', async () => {
    const t = await createTable(c);
    const taken = await createTable(c);
    await c.post('/api/v1/dataContracts', { name: 'existing', entity: { id: taken.id, type: 'table' } }).expect(201);
    const entity = { id: t.id, type: 'table' };
    const cases: [string, Body, Body][] = [
      // given the request, want the answer
      [
        'a good request',
        { name: 'c', entity, schema: [{ name: 'order_id', dataType: 'BIGINT' }] },
        { valid: true, entityErrors: [], constraintErrors: [], schemaValidation: { passed: 1, failed: 0, total: 1, failedFields: [] } },
      ],
      [
        'a column the table lacks',
        {
          name: 'c',
          entity,
          schema: [
            { name: 'order_id', dataType: 'BIGINT' },
            { name: 'phone', dataType: 'VARCHAR' },
          ],
        },
        { valid: false, entityErrors: [], constraintErrors: [], schemaValidation: { passed: 1, failed: 1, total: 2, failedFields: ['phone'] } },
      ],
      [
        'an unknown entity',
        { name: 'c', entity: { id: MISSING, type: 'table' } },
        { valid: false, entityErrors: [`table instance for ${MISSING} not found`], constraintErrors: [] },
      ],
      [
        'an unknown quality expectation',
        { name: 'c', entity, qualityExpectations: [{ id: MISSING, type: 'testCase' }] },
        {
          valid: false,
          entityErrors: [`testCase instance for ${MISSING} not found`],
          constraintErrors: [],
          schemaValidation: { passed: 0, failed: 0, total: 0, failedFields: [] },
        },
      ],
      [
        'a second contract for the entity',
        { name: 'other', entity: { id: taken.id, type: 'table' } },
        {
          valid: false,
          entityErrors: [],
          constraintErrors: [`A data contract already exists for entity 'table' with ID ${taken.id}`],
          schemaValidation: { passed: 0, failed: 0, total: 0, failedFields: [] },
        },
      ],
      [
        'the existing contract itself',
        { name: 'existing', entity: { id: taken.id, type: 'table' } },
        { valid: true, entityErrors: [], constraintErrors: [], schemaValidation: { passed: 0, failed: 0, total: 0, failedFields: [] } },
      ],
    ];
    for (const [label, request, want] of cases) {
      const before = storeDump(c.ctx);
      const res = await c.post(VALIDATE, request).expect(200);
      expect(res.body, label).toEqual(want);
      expect(storeDump(c.ctx), label).toBe(before);
    }
    await c.get(`/api/v1/dataContracts/name/${encodeURIComponent(`${t.fqn}.dataContract_c`)}`).expect(404);
  });

  it('bad input and roles: not a create request 400, no token 401, a DataConsumer 403', async () => {
    const t = await createTable(c);
    await c.post(VALIDATE, { name: 'c' }).expect(400);
    await c.post(VALIDATE, { name: 'c', entity: { id: t.id, type: 'table' } }, '').expect(401);
    await c.post(VALIDATE, { name: 'c', entity: { id: t.id, type: 'table' } }, c.tokens.consumer).expect(403);
  });
});
