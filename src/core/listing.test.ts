/**
 * Lists as requirements, through the domain API (src/core/listing.ts), no HTTP: given a small
 * catalog and a list query (limit, a cursor, include, the kind's filters), want the entities of
 * the page in FQN order, the total and the cursors, or the CatalogError the query raises
 * (docs/behaviour.md "Listing"). Every list filter a kind declares has a case here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { domainContext } from '../../test/kit.ts';
import type { CatalogContext, ListFilter } from './context.ts';
import type { CreateRequest } from './entity.ts';
import { CatalogError } from './errors.ts';
import { createEntity, patchEntity, softDelete } from './lifecycle.ts';
import type { ListQuery } from './listing.ts';
import { cursorKey, encodeCursor, listEntities } from './listing.ts';
import { addTestCaseResult } from '../features/data-quality/test-case-results.ts';

const USER = 'admin';
const ZERO_ID = '00000000-0000-4000-8000-000000000000';
let ctx: CatalogContext;

const idOf = (type: string, fqn: string): string => ctx.store.getByFqn(type, fqn)!.entity.id;
const create = (type: string, request: Record<string, unknown>) => createEntity(ctx, ctx.kinds.of(type), request as CreateRequest, USER);
const service = (type: string, name: string, serviceType: string) => create(type, { name, serviceType, connection: { config: { type: serviceType } } });

/**
 * Storage services `lake` (containers c1…c5, created last to first), `lake2` (`d1` with `n` inside
 * it, and `d2`, soft-deleted) and `lakex` (`x1`); `svc` → `db` (schemas `s1` with tables t1 and t2,
 * t2 in domain Sales, and `s2` with t3) and `db2`; classifications `pii` (tags email, email.work,
 * phone — disabled) and `old` (disabled); API collections `api.orders` (get, list) and `api.users`
 * (me); data contracts on t1 (Approved) and t3 (Draft).
 */
beforeAll(async () => {
  ctx = await domainContext();
  service('storageService', 'lake', 'S3');
  for (const name of ['c5', 'c4', 'c3', 'c2', 'c1']) create('container', { name, service: 'lake' });
  service('storageService', 'lake2', 'S3');
  const d1 = create('container', { name: 'd1', service: 'lake2' });
  create('container', { name: 'n', service: 'lake2', parent: { id: d1.entity.id, type: 'container' } });
  softDelete(ctx, ctx.kinds.of('container'), create('container', { name: 'd2', service: 'lake2' }), false, USER);
  service('storageService', 'lakex', 'S3');
  create('container', { name: 'x1', service: 'lakex' });

  create('domain', { name: 'Sales', domainType: 'Aggregate', description: 'Sales' });
  service('databaseService', 'svc', 'Mysql');
  create('database', { name: 'db', service: 'svc' });
  create('database', { name: 'db2', service: 'svc' });
  create('databaseSchema', { name: 's1', database: 'svc.db' });
  create('databaseSchema', { name: 's2', database: 'svc.db' });
  const columns = [{ name: 'id', dataType: 'INT' }];
  const t1 = create('table', { name: 't1', databaseSchema: 'svc.db.s1', columns });
  create('table', { name: 't2', databaseSchema: 'svc.db.s1', columns, domain: 'Sales' });
  const t3 = create('table', { name: 't3', databaseSchema: 'svc.db.s2', columns });
  create('dataContract', { name: 'c1', entity: { id: t1.entity.id, type: 'table' }, entityStatus: 'Approved' });
  create('dataContract', { name: 'c3', entity: { id: t3.entity.id, type: 'table' }, entityStatus: 'Draft' });

  create('classification', { name: 'pii', description: 'p' });
  create('classification', { name: 'old', description: 'o', disabled: true });
  create('tag', { name: 'email', classification: 'pii', description: 'e' });
  create('tag', { name: 'work', parent: 'pii.email', description: 'w' });
  create('tag', { name: 'phone', classification: 'pii', description: 'p', disabled: true });

  service('apiService', 'api', 'Rest');
  for (const name of ['orders', 'users']) create('apiCollection', { name, service: 'api' });
  for (const [name, collection] of [
    ['list', 'api.orders'],
    ['get', 'api.orders'],
    ['me', 'api.users'],
  ]) {
    create('apiEndpoint', { name, apiCollection: collection, endpointURL: `https://example.com/${name}` });
  }

  create('testDefinition', { name: 'rowCount', description: 'r', entityType: 'TABLE', testPlatforms: ['OpenMetadata'] });
  for (const [name, status] of [
    ['ok', 'Success'],
    ['bad', 'Failed'],
    ['stopped', 'Aborted'],
    ['never', undefined],
  ] as const) {
    const testCase = create('testCase', { name, entityLink: '<#E::table::svc.db.s1.t1>', testDefinition: 'rowCount' });
    if (status) addTestCaseResult(ctx, testCase, { timestamp: 1_700_000_000_000, testCaseStatus: status });
  }

  // Tasks: TASK-00001 about t1 (owned by bob), assigned to bob; TASK-00002 about t2, completed.
  for (const name of [USER, 'bob']) create('user', { name, email: `${name}@example.com` });
  patchEntity(ctx, ctx.kinds.of('table'), ctx.store.getByFqn('table', 'svc.db.s1.t1')!, [{ op: 'add', path: '/owners', value: [{ id: idOf('user', 'bob'), type: 'user' }] }], USER);
  create('task', { name: 'describe', category: 'MetadataUpdate', type: 'DescriptionUpdate', priority: 'High', about: 'svc.db.s1.t1', assignees: ['bob'] });
  const done = create('task', { name: 'review', category: 'Review', type: 'CustomTask', about: 'svc.db.s1.t2' });
  patchEntity(ctx, ctx.kinds.of('task'), done, [{ op: 'replace', path: '/status', value: 'Completed' }], USER);

  // Announcements: one about t1 whose window holds now, one long past.
  const now = Date.now();
  create('announcement', { name: 'now', description: 'n', startTime: now - 60_000, endTime: now + 3_600_000, entityLink: '<#E::table::svc.db.s1.t1>' });
  create('announcement', { name: 'past', description: 'p', startTime: 1_000, endTime: 2_000 });
});

/** The cursor at the container with this FQN (a cursor is its sort key, `<fqn>\0<id>`). */
const cursorAt = (fqn: string, id = idOf('container', fqn)) => encodeCursor(cursorKey(fqn, id));
/** The FQN a cursor points at. */
const fqnAt = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8').split('\u0000')[0];

/** Lists `type` with the query given; the cursors of the answer are shown as the FQNs they point at. */
function list(type: string, query: Partial<ListQuery>) {
  const { items, paging } = listEntities(ctx, ctx.kinds.of(type), { include: 'non-deleted', limit: 10, filters: {}, ...query });
  return {
    fqns: items.map((s) => s.entity.fullyQualifiedName),
    paging: { ...paging, ...(paging.before ? { before: fqnAt(paging.before) } : {}), ...(paging.after ? { after: fqnAt(paging.after) } : {}) },
  };
}

describe('paging: limit, and before / after cursors both ways, with the total of the whole list', () => {
  const lake = (...names: string[]) => names.map((n) => `lake.${n}`);
  it.each<{ given: string; query: () => Partial<ListQuery>; want: { fqns: string[]; paging: { total: number; before?: string; after?: string } } }>([
    { given: 'limit 2: the first page', query: () => ({ limit: 2 }), want: { fqns: lake('c1', 'c2'), paging: { total: 5, after: 'lake.c2' } } },
    {
      given: 'limit 2 after c2: a middle page',
      query: () => ({ limit: 2, after: cursorAt('lake.c2') }),
      want: { fqns: lake('c3', 'c4'), paging: { total: 5, before: 'lake.c3', after: 'lake.c4' } },
    },
    { given: 'limit 2 after c4: the last page', query: () => ({ limit: 2, after: cursorAt('lake.c4') }), want: { fqns: lake('c5'), paging: { total: 5, before: 'lake.c5' } } },
    {
      given: 'limit 2 before c5: back to the middle',
      query: () => ({ limit: 2, before: cursorAt('lake.c5') }),
      want: { fqns: lake('c3', 'c4'), paging: { total: 5, before: 'lake.c3', after: 'lake.c4' } },
    },
    {
      given: 'limit 2 before c3: back to the first page',
      query: () => ({ limit: 2, before: cursorAt('lake.c3') }),
      want: { fqns: lake('c1', 'c2'), paging: { total: 5, after: 'lake.c2' } },
    },
    { given: 'limit 0: the count only', query: () => ({ limit: 0 }), want: { fqns: [], paging: { total: 5 } } },
    { given: 'a limit above the total: one page', query: () => ({ limit: 100 }), want: { fqns: lake('c1', 'c2', 'c3', 'c4', 'c5'), paging: { total: 5 } } },
    {
      given: 'after a well-formed cursor of no stored entity: from where it would sort',
      query: () => ({ limit: 2, after: cursorAt('lake.c2z', ZERO_ID) }),
      want: { fqns: lake('c3', 'c4'), paging: { total: 5, before: 'lake.c3', after: 'lake.c4' } },
    },
  ])('$given', ({ query, want }) => {
    expect(list('container', { filters: { service: 'lake' }, ...query() })).toEqual(want);
  });
});

describe('include: the live entities by default, the soft-deleted ones, or all', () => {
  it.each<{ given: string; include: ListQuery['include']; filters: Record<string, string>; want: { fqns?: string[]; total: number } }>([
    { given: 'a service, non-deleted', include: 'non-deleted', filters: { service: 'lake2' }, want: { fqns: ['lake2.d1', 'lake2.d1.n'], total: 2 } },
    { given: 'a service, deleted', include: 'deleted', filters: { service: 'lake2' }, want: { fqns: ['lake2.d2'], total: 1 } },
    { given: 'a service, all', include: 'all', filters: { service: 'lake2' }, want: { fqns: ['lake2.d1', 'lake2.d1.n', 'lake2.d2'], total: 3 } },
    { given: 'no filter, non-deleted (a total kept by the store)', include: 'non-deleted', filters: {}, want: { total: 8 } },
    { given: 'no filter, deleted', include: 'deleted', filters: {}, want: { fqns: ['lake2.d2'], total: 1 } },
    { given: 'no filter, all', include: 'all', filters: {}, want: { total: 9 } },
  ])('$given → $want.total', ({ include, filters, want }) => {
    const { fqns, paging } = list('container', { include, filters, limit: 100 });
    expect(paging.total).toBe(want.total);
    expect(fqns).toHaveLength(want.total);
    if (want.fqns) expect(fqns).toEqual(want.fqns);
    expect(fqns.every((fqn) => ctx.store.getByFqn('container', fqn)!.entity.deleted === (include === 'deleted') || include === 'all')).toBe(true);
  });
});

/** The list filters, each as a kind lists with it: FQN-prefix filters and the kinds' own (`listFilters`). */
const FILTER_CASES: { given: string; kind: string; filters: () => Record<string, string>; want: string[] }[] = [
  { given: 'the service', kind: 'container', filters: () => ({ service: 'lake' }), want: ['lake.c1', 'lake.c2', 'lake.c3', 'lake.c4', 'lake.c5'] },
  { given: 'the service, nested containers included', kind: 'container', filters: () => ({ service: 'lake2' }), want: ['lake2.d1', 'lake2.d1.n'] },
  { given: 'another service whose name starts the same', kind: 'container', filters: () => ({ service: 'lakex' }), want: ['lakex.x1'] },
  { given: 'root=true: only those directly in the service', kind: 'container', filters: () => ({ service: 'lake2', root: 'true' }), want: ['lake2.d1'] },
  { given: 'root=false: no filter', kind: 'container', filters: () => ({ service: 'lake2', root: 'false' }), want: ['lake2.d1', 'lake2.d1.n'] },
  { given: 'the schema', kind: 'table', filters: () => ({ databaseSchema: 'svc.db.s1' }), want: ['svc.db.s1.t1', 'svc.db.s1.t2'] },
  { given: 'the database', kind: 'table', filters: () => ({ database: 'svc.db' }), want: ['svc.db.s1.t1', 'svc.db.s1.t2', 'svc.db.s2.t3'] },
  { given: 'the database', kind: 'databaseSchema', filters: () => ({ database: 'svc.db' }), want: ['svc.db.s1', 'svc.db.s2'] },
  { given: 'the service', kind: 'database', filters: () => ({ service: 'svc' }), want: ['svc.db', 'svc.db2'] },
  { given: 'the API collection', kind: 'apiEndpoint', filters: () => ({ apiCollection: 'api.orders' }), want: ['api.orders.get', 'api.orders.list'] },
  { given: 'the parent (a classification): nested tags included', kind: 'tag', filters: () => ({ parent: 'pii' }), want: ['pii.email', 'pii.email.work', 'pii.phone'] },
  { given: 'the parent (a tag)', kind: 'tag', filters: () => ({ parent: 'pii.email' }), want: ['pii.email.work'] },
  { given: 'disabled=true within a parent', kind: 'tag', filters: () => ({ parent: 'pii', disabled: 'true' }), want: ['pii.phone'] },
  { given: 'disabled=false', kind: 'tag', filters: () => ({ disabled: 'false' }), want: ['pii.email', 'pii.email.work'] },
  { given: 'disabled=true', kind: 'classification', filters: () => ({ disabled: 'true' }), want: ['old'] },
  { given: 'the domain', kind: 'table', filters: () => ({ domain: 'Sales' }), want: ['svc.db.s1.t2'] },
  { given: 'the status', kind: 'dataContract', filters: () => ({ entityStatus: 'Approved' }), want: ['svc.db.s1.t1.dataContract_c1'] },
  { given: 'the entity', kind: 'dataContract', filters: () => ({ entity: idOf('table', 'svc.db.s2.t3') }), want: ['svc.db.s2.t3.dataContract_c3'] },
  { given: 'one status of the newest result', kind: 'testCase', filters: () => ({ testCaseStatus: 'Failed' }), want: ['svc.db.s1.t1.bad'] },
  {
    given: 'several statuses (the parameter repeated)',
    kind: 'testCase',
    filters: () => ({ testCaseStatus: ['Failed', 'Aborted'] as unknown as string }),
    want: ['svc.db.s1.t1.bad', 'svc.db.s1.t1.stopped'],
  },
  { given: 'the status', kind: 'task', filters: () => ({ status: 'Open' }), want: ['TASK-00001'] },
  { given: 'the status group', kind: 'task', filters: () => ({ statusGroup: 'closed' }), want: ['TASK-00002'] },
  { given: 'the category', kind: 'task', filters: () => ({ category: 'MetadataUpdate' }), want: ['TASK-00001'] },
  { given: 'the type', kind: 'task', filters: () => ({ type: 'CustomTask' }), want: ['TASK-00002'] },
  { given: 'the priority', kind: 'task', filters: () => ({ priority: 'High' }), want: ['TASK-00001'] },
  { given: 'the assignee', kind: 'task', filters: () => ({ assignee: 'bob' }), want: ['TASK-00001'] },
  { given: 'the creator', kind: 'task', filters: () => ({ createdBy: USER }), want: ['TASK-00001', 'TASK-00002'] },
  { given: 'the owner of what it is about', kind: 'task', filters: () => ({ ownedBy: 'bob' }), want: ['TASK-00001'] },
  { given: 'visible to a user', kind: 'task', filters: () => ({ visibleTo: 'bob' }), want: ['TASK-00001'] },
  { given: 'the entity it is about', kind: 'task', filters: () => ({ aboutEntity: 'svc.db.s1.t2' }), want: ['TASK-00002'] },
  { given: 'the entity link', kind: 'announcement', filters: () => ({ entityLink: '<#E::table::svc.db.s1.t1>' }), want: ['now'] },
  { given: 'the state now', kind: 'announcement', filters: () => ({ status: 'Expired' }), want: ['past'] },
  { given: 'active', kind: 'announcement', filters: () => ({ active: 'true' }), want: ['now'] },
  {
    given: 'parameters that are no filter of the kind (own keys only)',
    kind: 'container',
    filters: () => ({ service: 'lake', colour: 'red', hasOwnProperty: 'x', ['__proto__']: 'x', toString: 'x' }),
    want: ['lake.c1', 'lake.c2', 'lake.c3', 'lake.c4', 'lake.c5'],
  },
];

describe('filters: each kind lists what its filters select, with the exact total', () => {
  it.each(FILTER_CASES)('$kind ?$given', ({ kind, filters, want }) => {
    const { fqns, paging } = list(kind, { filters: filters(), limit: 100 });
    expect({ fqns, total: paging.total }).toEqual({ fqns: want, total: want.length });
    const firstPage = list(kind, { filters: filters(), limit: 1 });
    expect(firstPage.paging.total).toBe(want.length);
  });

  it('every list filter the kinds declare (prefixFilters, listFilters) has a case above', () => {
    const covered = new Set<ListFilter | string>();
    for (const c of FILTER_CASES) {
      const kind = ctx.kinds.of(c.kind);
      for (const param of Object.keys(c.filters())) {
        if (kind.prefixFilters?.includes(param)) covered.add(`prefix ${param}`);
        const filter = Object.hasOwn(kind.listFilters ?? {}, param) ? kind.listFilters![param] : undefined;
        if (filter) covered.add(filter);
      }
    }
    const declared = ctx.kinds.all.flatMap((kind) => [
      ...(kind.prefixFilters ?? []).map((param) => ({ name: `${kind.type} ?${param}`, key: `prefix ${param}` as ListFilter | string })),
      ...Object.entries(kind.listFilters ?? {}).map(([param, filter]) => ({ name: `${kind.type} ?${param}`, key: filter as ListFilter | string })),
    ]);
    expect(declared.filter((d) => !covered.has(d.key)).map((d) => d.name)).toEqual([]);
  });
});

describe('a query the list cannot answer is a CatalogError (bad request)', () => {
  it.each<{ given: string; query: () => Partial<ListQuery>; want: string }>([
    { given: 'both before and after', query: () => ({ before: cursorAt('lake.c2'), after: cursorAt('lake.c2') }), want: 'Only one of before or after query parameter allowed' },
    { given: 'a cursor that is not base64 of a sort key', query: () => ({ after: 'garbage' }), want: 'Invalid cursor garbage' },
    { given: 'a base64 cursor of something else', query: () => ({ before: 'AAAA' }), want: 'Invalid cursor AAAA' },
    {
      given: 'a cursor whose id is not a UUID',
      query: () => ({ after: encodeCursor(cursorKey('lake.c1', 'x')) }),
      want: `Invalid cursor ${encodeCursor(cursorKey('lake.c1', 'x'))}`,
    },
    { given: 'a negative limit', query: () => ({ limit: -1 }), want: 'limit must be an integer >= 0, got -1' },
    { given: 'a limit that is not an integer', query: () => ({ limit: 1.5 }), want: 'limit must be an integer >= 0, got 1.5' },
  ])('$given → "$want"', ({ query, want }) => {
    let thrown: unknown;
    try {
      list('container', { filters: { service: 'lake' }, ...query() });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CatalogError);
    expect({ kind: (thrown as CatalogError).kind, message: (thrown as CatalogError).message }).toEqual({ kind: 'badRequest', message: want });
  });
});
