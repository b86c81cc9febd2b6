import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCatalog } from '../handlers/test-catalog.ts';
import { SLOW_START, createTable, testCatalog } from '../handlers/test-catalog.ts';

let c: TestCatalog;
beforeAll(async () => {
  c = await testCatalog();
  await c.post('/v1/dataQuality/testDefinitions', { name: 'columnValuesToBeNotNull', entityType: 'COLUMN', testPlatforms: ['OpenMetadata'] }).expect(201);
}, SLOW_START);

async function tableWithDependents() {
  const table = await createTable(c);
  const tableTest = await c.post('/v1/dataQuality/testCases', { name: 'rows', entityLink: `<#E::table::${table.fqn}>`, testDefinition: 'columnValuesToBeNotNull' }).expect(201);
  const columnTest = await c
    .post('/v1/dataQuality/testCases', { name: 'ids', entityLink: `<#E::table::${table.fqn}::columns::order_id>`, testDefinition: 'columnValuesToBeNotNull' })
    .expect(201);
  const contract = await c.post('/v1/dataContracts', { name: 'orders', entity: { id: table.id, type: 'table' } }).expect(201);
  return { table, ids: [tableTest.body.id as string, columnTest.body.id as string], contractId: contract.body.id as string };
}

describe('a hard-deleted table takes its test cases and data contract with it', () => {
  it('removes the table-level and column-level test cases and the contract for good', async () => {
    const { table, ids, contractId } = await tableWithDependents();
    await c.del(`/v1/tables/${table.id}?hardDelete=true`).expect(204);
    for (const id of ids) await c.get(`/v1/dataQuality/testCases/${id}?include=all`).expect(404);
    await c.get(`/v1/dataContracts/${contractId}?include=all`).expect(404);
  });

  it('leaves them in place on a soft delete, so a restore finds them again', async () => {
    const { table, ids, contractId } = await tableWithDependents();
    await c.del(`/v1/tables/${table.id}`).expect(200);
    for (const id of ids) await c.get(`/v1/dataQuality/testCases/${id}`).expect(200);
    await c.get(`/v1/dataContracts/${contractId}`).expect(200);
  });

  it('leaves the tests and contract of another table alone', async () => {
    const kept = await tableWithDependents();
    const gone = await createTable(c);
    await c.del(`/v1/tables/${gone.id}?hardDelete=true`).expect(204);
    for (const id of kept.ids) await c.get(`/v1/dataQuality/testCases/${id}`).expect(200);
    await c.get(`/v1/dataContracts/${kept.contractId}`).expect(200);
  });
});
