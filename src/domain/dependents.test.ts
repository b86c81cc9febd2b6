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

describe('a hard-deleted tag leaves the entities that carried it', () => {
  it('removes its labels from the table and its columns, keeps the other labels and the version', async () => {
    await c.put('/v1/classifications', { name: 'Sensitivity' }).expect((r) => expect([200, 201]).toContain(r.status));
    const tag = await c.post('/v1/tags', { name: 'Secret', classification: 'Sensitivity' }).expect(201);
    await c.put('/v1/tags', { name: 'Public', classification: 'Sensitivity' }).expect((r) => expect([200, 201]).toContain(r.status));
    const label = (tagFQN: string) => ({ tagFQN, source: 'Classification', labelType: 'Manual', state: 'Confirmed' });
    const table = await createTable(c, undefined, [{ name: 'ssn', dataType: 'STRING', tags: [label('Sensitivity.Secret')] } as never], {
      tags: [label('Sensitivity.Secret'), label('Sensitivity.Public')],
    });
    await c.del(`/v1/tags/${tag.body.id}?hardDelete=true`).expect(204);
    const after = await c.get(`/v1/tables/${table.id}`).expect(200);
    expect(after.body.tags.map((t: { tagFQN: string }) => t.tagFQN)).toEqual(['Sensitivity.Public']);
    expect(after.body.columns[0].tags).toEqual([]);
    expect(after.body.version).toBe(table.body.version);
  });
});
