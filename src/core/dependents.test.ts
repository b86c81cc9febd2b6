/**
 * What goes with an entity removed for good (src/core/dependents.ts), through the domain API:
 * the test cases and the data contract of a table, and the labels of a tag.
 */
import { describe, expect, it } from 'vitest';
import { domainContext } from '../../test/kit.ts';
import type { CatalogContext } from './context.ts';
import type { CreateRequest, TagLabel } from './entity.ts';
import { createEntity, hardDelete, softDelete } from './lifecycle.ts';

const USER = 'admin';
/** A fresh catalog with a database service → database → schema to hang tables on. */
async function catalog(): Promise<CatalogContext> {
  const ctx = await domainContext();
  create(ctx, 'databaseService', { name: 'svc', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } });
  create(ctx, 'database', { name: 'db', service: 'svc' });
  create(ctx, 'databaseSchema', { name: 'sch', database: 'svc.db' });
  create(ctx, 'testDefinition', { name: 'columnValuesToBeNotNull', entityType: 'COLUMN', testPlatforms: ['OpenMetadata'] });
  return ctx;
}

function create(ctx: CatalogContext, type: string, request: Record<string, unknown>): string {
  return createEntity(ctx, ctx.kinds.of(type), request as CreateRequest, USER).entity.id;
}

/** Table `svc.db.sch.<name>` with a table-level and a column-level test case and a data contract. */
function tableWithDependents(ctx: CatalogContext, name: string) {
  const table = create(ctx, 'table', { name, databaseSchema: 'svc.db.sch', columns: [{ name: 'order_id', dataType: 'BIGINT' }] });
  const fqn = `svc.db.sch.${name}`;
  const tests = [
    create(ctx, 'testCase', { name: 'rows', entityLink: `<#E::table::${fqn}>`, testDefinition: 'columnValuesToBeNotNull' }),
    create(ctx, 'testCase', { name: 'ids', entityLink: `<#E::table::${fqn}::columns::order_id>`, testDefinition: 'columnValuesToBeNotNull' }),
  ];
  const contract = create(ctx, 'dataContract', { name, entity: { id: table, type: 'table' } });
  return { table, dependents: [...tests, contract] };
}

const present = (ctx: CatalogContext, ids: string[]) => ids.map((id) => ctx.store.get(id) !== undefined);

describe('a table removed for good takes its test cases and data contract with it', () => {
  it.each([
    { given: 'hard delete of the table', hard: true, want: [false, false, false] },
    { given: 'soft delete of the table (a restore finds them again)', hard: false, want: [true, true, true] },
  ])('$given → test cases and contract present: $want', async ({ hard, want }) => {
    const ctx = await catalog();
    const { table, dependents } = tableWithDependents(ctx, 'orders');
    const kept = tableWithDependents(ctx, 'customers');
    const stored = ctx.store.get(table)!;
    if (hard) hardDelete(ctx, ctx.kinds.of('table'), stored, false);
    else softDelete(ctx, ctx.kinds.of('table'), stored, false, USER);
    expect(present(ctx, dependents)).toEqual(want);
    expect(present(ctx, [kept.table, ...kept.dependents])).toEqual([true, true, true, true]);
  });

  it('a recursive hard delete of the service takes the tables and, with each, its test cases and contract', async () => {
    const ctx = await catalog();
    const { table, dependents } = tableWithDependents(ctx, 'orders');
    hardDelete(ctx, ctx.kinds.of('databaseService'), ctx.store.getByFqn('databaseService', 'svc')!, true);
    expect(present(ctx, [table, ...dependents])).toEqual([false, false, false, false]);
    expect(ctx.store.count('testDefinition')).toBe(1);
  });
});

describe('a tag removed for good leaves the entities that carried it', () => {
  it('its labels leave the table and its columns; the other labels and the version stay', async () => {
    const ctx = await catalog();
    create(ctx, 'classification', { name: 'Sensitivity' });
    const secret = create(ctx, 'tag', { name: 'Secret', classification: 'Sensitivity' });
    create(ctx, 'tag', { name: 'Public', classification: 'Sensitivity' });
    const label = (tagFQN: string) => ({ tagFQN, source: 'Classification', labelType: 'Manual', state: 'Confirmed' });
    const table = create(ctx, 'table', {
      name: 'people',
      databaseSchema: 'svc.db.sch',
      columns: [{ name: 'ssn', dataType: 'STRING', tags: [label('Sensitivity.Secret')] }],
      tags: [label('Sensitivity.Secret'), label('Sensitivity.Public')],
    });
    const version = ctx.store.get(table)!.entity.version;

    hardDelete(ctx, ctx.kinds.of('tag'), ctx.store.get(secret)!, false);

    const after = ctx.store.get(table)!.entity;
    expect((after.tags as TagLabel[]).map((t) => t.tagFQN)).toEqual(['Sensitivity.Public']);
    expect((after.columns as { tags: TagLabel[] }[])[0]!.tags).toEqual([]);
    expect(after.version).toBe(version);
  });
});
