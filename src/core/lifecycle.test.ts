/**
 * The entity lifecycle as requirements, through the domain API (src/core/lifecycle.ts), no
 * HTTP: given a small catalog and an operation, want the entities as they end up (FQN, version,
 * fields) or the CatalogError the operation raises, for create, upsert, patch, soft delete,
 * restore, hard delete and recursive delete (docs/behaviour.md "Create", "Upsert", "Patch",
 * "Delete and restore", "Versions").
 */
import type { Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { T0, domainContext } from '../../test/kit.ts';
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { CreateRequest, Entity } from './entity.ts';
import { CatalogError } from './errors.ts';
import { createEntity, hardDelete, patchEntity, restoreEntity, softDelete, upsertEntity } from './lifecycle.ts';

const USER = 'admin';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_ID = '0b9a5d2e-7c1f-4e3a-9b8d-6f5e4d3c2b1a';
const COLUMNS = [
  { name: 'id', dataType: 'BIGINT' },
  { name: 'amount', dataType: 'DECIMAL' },
];
const LABEL = { tagFQN: 'pii.email', source: 'Classification', labelType: 'Manual', state: 'Confirmed' } as const;

/** The create request of each entity of the catalog below, by `<type>:<FQN>`. */
const REQUESTS: Record<string, CreateRequest> = {
  'storageService:lake': { name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3' } } },
  'storageService:other': { name: 'other', serviceType: 'S3', connection: { config: { type: 'S3' } } },
  'container:lake.raw': { name: 'raw', service: 'lake' },
  'container:lake.logs': { name: 'logs', service: 'lake' },
  'databaseService:svc': { name: 'svc', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } },
  'database:svc.db': { name: 'db', service: 'svc' },
  'databaseSchema:svc.db.sch': { name: 'sch', database: 'svc.db' },
  'table:svc.db.sch.orders': { name: 'orders', databaseSchema: 'svc.db.sch', columns: COLUMNS },
  'mlmodelService:ml': { name: 'ml', serviceType: 'Mlflow', connection: { config: { type: 'Mlflow' } } },
  'mlmodel:ml.churn': { name: 'churn', service: 'ml', algorithm: 'xgboost' },
  'classification:pii': { name: 'pii', description: 'Personal data' },
  'tag:pii.email': { name: 'email', classification: 'pii', description: 'An email address' },
};

interface Catalog {
  ctx: CatalogContext;
  /** The catalog's clock: each test moves it to see which writes stamp `updatedAt`. */
  clock: { now: number };
  /** The stored entity `<type>:<FQN>` (soft-deleted ones included), or undefined when gone. */
  find(key: string): StoredEntity | undefined;
  get(key: string): StoredEntity;
}

/**
 * A fresh catalog at T0: storage services `lake` (containers `raw`, with `raw.part` inside, and
 * `logs`) and `other`; `svc` → `db` → `sch` → table `orders`; ML model `ml.churn`; tag `pii.email`.
 */
async function catalog(): Promise<Catalog> {
  const clock = { now: T0 };
  const ctx = await domainContext({ now: () => clock.now });
  const find = (key: string) => {
    const [type, fqn] = key.split(/:(.*)/s) as [string, string];
    return ctx.store.getByFqn(type, fqn);
  };
  const get = (key: string) => find(key) ?? expect.unreachable(`no ${key}`);
  for (const [key, request] of Object.entries(REQUESTS)) createEntity(ctx, ctx.kinds.of(key.split(':')[0]!), request, USER);
  createEntity(ctx, ctx.kinds.of('container'), { name: 'part', service: 'lake', parent: { id: get('container:lake.raw').entity.id, type: 'container' } }, USER);
  clock.now += 1000;
  return { ctx, clock, find, get };
}

/** What an operation raised: the CatalogError's kind and message, or nothing. */
function raised(operation: () => unknown): { kind: string; message: string } | 'nothing' {
  try {
    operation();
    return 'nothing';
  } catch (error) {
    if (error instanceof CatalogError) return { kind: error.kind, message: error.message };
    throw error;
  }
}

/** The state of each entity named: its version and deleted flag, or `gone`. */
function states(c: Catalog, keys: readonly string[]): Record<string, { version: number; deleted: boolean } | 'gone'> {
  return Object.fromEntries(
    keys.map((key) => {
      const stored = c.find(key);
      return [key, stored ? { version: stored.entity.version, deleted: stored.entity.deleted } : 'gone'];
    }),
  );
}

const kindOf = (c: Catalog, key: string) => c.ctx.kinds.of(key.split(':')[0]!);

describe('create: a new entity at version 0.1 with its FQN, references, defaults and empty arrays', () => {
  it.each<{ given: string; type: string; request: (c: Catalog) => CreateRequest; want: Partial<Entity> }>([
    {
      given: 'a storage service (a root: its FQN is its name)',
      type: 'storageService',
      request: () => ({ name: 'lake2', serviceType: 'S3', connection: { config: { type: 'S3' } } }),
      want: { fullyQualifiedName: 'lake2', serviceType: 'S3' },
    },
    {
      given: 'a container in a service: <service>.<name>, the service referenced and its type copied',
      type: 'container',
      request: () => ({ name: 'new', service: 'lake' }),
      want: {
        fullyQualifiedName: 'lake.new',
        serviceType: 'S3',
        service: expect.objectContaining({ type: 'storageService', fullyQualifiedName: 'lake' }),
        votes: { upVotes: 0, downVotes: 0, upVoters: [], downVoters: [] },
      },
    },
    {
      given: 'a container in a container: <parent FQN>.<name>',
      type: 'container',
      request: (c) => ({ name: 'inner', service: 'lake', parent: { id: c.get('container:lake.raw').entity.id, type: 'container' } }),
      want: { fullyQualifiedName: 'lake.raw.inner', parent: expect.objectContaining({ type: 'container', fullyQualifiedName: 'lake.raw' }) },
    },
    {
      given: 'a name with a dot: quoted in the FQN',
      type: 'container',
      request: () => ({ name: 'v1.2', service: 'lake' }),
      want: { name: 'v1.2', fullyQualifiedName: 'lake."v1.2"' },
    },
    {
      given: 'a table: service, service type and database inherited from its schema',
      type: 'table',
      request: () => ({ name: 'items', databaseSchema: 'svc.db.sch', columns: COLUMNS }),
      want: {
        fullyQualifiedName: 'svc.db.sch.items',
        serviceType: 'Mysql',
        service: expect.objectContaining({ fullyQualifiedName: 'svc' }),
        database: expect.objectContaining({ fullyQualifiedName: 'svc.db' }),
        columns: COLUMNS,
      },
    },
    {
      given: "a container data model column's tag label: resolved as an entity's (name, source, label type, state)",
      type: 'container',
      request: () => ({
        name: 'modelled',
        service: 'lake',
        dataModel: { isPartitioned: false, columns: [{ name: 'email', dataType: 'VARCHAR', tags: [{ tagFQN: 'pii.email' }] }] },
      }),
      want: { dataModel: { isPartitioned: false, columns: [expect.objectContaining({ tags: [expect.objectContaining({ ...LABEL, name: 'email' })] })] } },
    },
    {
      given: 'a tag: the defaults of its kind fill what the request leaves out',
      type: 'tag',
      request: () => ({ name: 'phone', classification: 'pii', description: 'A phone number' }),
      want: { fullyQualifiedName: 'pii.phone', mutuallyExclusive: false, provider: 'user', disabled: false },
    },
    {
      given: 'a database: a default the request sets is kept',
      type: 'database',
      request: () => ({ name: 'db2', service: 'svc', default: true }),
      want: { fullyQualifiedName: 'svc.db2', default: true, entityStatus: 'Unprocessed' },
    },
  ])('$given', async ({ type, request, want }) => {
    const c = await catalog();
    const def = c.ctx.kinds.of(type);
    const given = request(c);
    const { entity } = createEntity(c.ctx, def, given, USER);
    expect(entity).toMatchObject({ ...want, version: 0.1, deleted: false, updatedBy: USER, updatedAt: c.clock.now });
    expect(entity.id).toMatch(UUID);
    expect(entity.changeDescription).toBeUndefined();
    for (const field of def.emptyArrays) if (given[field] === undefined) expect(entity[field], field).toEqual([]);
    expect(c.ctx.store.getByFqn(type, entity.fullyQualifiedName)?.entity).toBe(entity);
  });

  it.each<{ given: string; type: string; setup?: (c: Catalog) => void; request: (c: Catalog) => CreateRequest; want: { kind: string; message: string } }>([
    { given: 'the FQN of a live entity', type: 'container', request: () => ({ name: 'raw', service: 'lake' }), want: { kind: 'conflict', message: 'Entity already exists' } },
    {
      given: 'the FQN of a soft-deleted entity',
      type: 'container',
      setup: (c) => softDelete(c.ctx, c.ctx.kinds.of('container'), c.get('container:lake.logs'), false, USER),
      request: () => ({ name: 'logs', service: 'lake' }),
      want: { kind: 'conflict', message: 'Entity already exists' },
    },
    {
      given: 'a parent that does not exist',
      type: 'container',
      request: () => ({ name: 'c', service: 'nowhere' }),
      want: { kind: 'notFound', message: 'storageService instance for nowhere not found' },
    },
    { given: 'no parent', type: 'container', request: () => ({ name: 'c' }), want: { kind: 'badRequest', message: '[service must not be null]' } },
    { given: 'a name with a double quote', type: 'classification', request: () => ({ name: 'a"b' }), want: { kind: 'badRequest', message: 'Invalid name a"b' } },
    {
      given: 'a parent container of another service than the one named',
      type: 'container',
      request: (c) => ({ name: 'c', service: 'other', parent: { id: c.get('container:lake.raw').entity.id, type: 'container' } }),
      want: { kind: 'badRequest', message: 'service other is not the service of lake.raw' },
    },
  ])('refused: $given → $want.kind "$want.message", nothing stored', async ({ type, setup, request, want }) => {
    const c = await catalog();
    setup?.(c);
    const count = c.ctx.store.count(type);
    expect(raised(() => createEntity(c.ctx, c.ctx.kinds.of(type), request(c), USER))).toEqual(want);
    expect(c.ctx.store.count(type)).toBe(count);
  });
});

describe('upsert: keyed by FQN, it creates, updates (+0.1, or +1.0 for a major field) or changes nothing, and restores a soft-deleted entity', () => {
  it.each<{ given: string; key: string; setup?: (c: Catalog) => void; change: Record<string, unknown>; want: { outcome: string } & Partial<Entity> }>([
    { given: 'the same request again', key: 'container:lake.raw', change: {}, want: { outcome: 'unchanged', version: 0.1, updatedAt: T0 } },
    { given: 'a new description', key: 'container:lake.raw', change: { description: 'Raw files' }, want: { outcome: 'updated', version: 0.2, description: 'Raw files' } },
    { given: 'another name (another FQN)', key: 'container:lake.raw', change: { name: 'fresh' }, want: { outcome: 'created', version: 0.1, fullyQualifiedName: 'lake.fresh' } },
    { given: 'an ML model with another algorithm (a major field)', key: 'mlmodel:ml.churn', change: { algorithm: 'lightgbm' }, want: { outcome: 'updated', version: 1.1 } },
    { given: 'an ML model with a description (not a major field)', key: 'mlmodel:ml.churn', change: { description: 'Churn' }, want: { outcome: 'updated', version: 0.2 } },
    {
      given: 'a table with a column added',
      key: 'table:svc.db.sch.orders',
      change: { columns: [...COLUMNS, { name: 'note', dataType: 'STRING' }] },
      want: { outcome: 'updated', version: 0.2 },
    },
    { given: 'a table with a column removed (major)', key: 'table:svc.db.sch.orders', change: { columns: COLUMNS.slice(0, 1) }, want: { outcome: 'updated', version: 1.1 } },
    {
      given: "a table with a column's type changed (major)",
      key: 'table:svc.db.sch.orders',
      change: { columns: [COLUMNS[0]!, { name: 'amount', dataType: 'STRING' }] },
      want: { outcome: 'updated', version: 1.1 },
    },
    {
      given: 'a soft-deleted container, the same request (restored: +0.1 only)',
      key: 'container:lake.logs',
      setup: (c) => softDelete(c.ctx, c.ctx.kinds.of('container'), c.get('container:lake.logs'), false, USER),
      change: {},
      want: { outcome: 'updated', version: 0.3, deleted: false },
    },
    {
      given: 'a soft-deleted container with a new description (restored, then updated)',
      key: 'container:lake.logs',
      setup: (c) => softDelete(c.ctx, c.ctx.kinds.of('container'), c.get('container:lake.logs'), false, USER),
      change: { description: 'Back' },
      want: { outcome: 'updated', version: 0.4, deleted: false, description: 'Back' },
    },
    {
      given: 'tags left out of a later request (tags merge: they stay)',
      key: 'container:lake.raw',
      setup: (c) => upsertEntity(c.ctx, c.ctx.kinds.of('container'), { ...REQUESTS['container:lake.raw']!, tags: [LABEL] }, USER),
      change: { tags: [] },
      want: { outcome: 'unchanged', version: 0.2, tags: [expect.objectContaining({ tagFQN: 'pii.email' })] },
    },
  ])('$given → $want.outcome, version $want.version', async ({ key, setup, change, want }) => {
    const c = await catalog();
    setup?.(c);
    c.clock.now += 1000;
    const { outcome, ...fields } = want;
    const result = upsertEntity(c.ctx, kindOf(c, key), { ...REQUESTS[key]!, ...change }, USER);
    expect({ outcome: result.outcome, ...result.stored.entity }).toMatchObject({ outcome, ...fields });
    if (outcome === 'updated')
      expect(result.stored.entity).toMatchObject({ updatedAt: c.clock.now, changeDescription: expect.objectContaining({ previousVersion: expect.any(Number) }) });
  });
});

describe('patch: a JSON Patch is a new version (+0.1, or +1.0 for a major field); read-only fields are kept; a bad patch changes nothing', () => {
  it.each<{ given: string; key: string; patches: Operation[][]; want: Partial<Entity> | { kind: string; message: string | RegExp } }>([
    { given: 'a description added', key: 'container:lake.raw', patches: [[{ op: 'add', path: '/description', value: 'Raw' }]], want: { version: 0.2, description: 'Raw' } },
    {
      given: 'the same description twice',
      key: 'container:lake.raw',
      patches: [[{ op: 'add', path: '/description', value: 'Raw' }], [{ op: 'replace', path: '/description', value: 'Raw' }]],
      want: { version: 0.2 },
    },
    {
      given: 'read-only fields replaced (name, FQN, version, updatedBy, service) with a description',
      key: 'container:lake.raw',
      patches: [
        [
          { op: 'replace', path: '/name', value: 'renamed' },
          { op: 'replace', path: '/fullyQualifiedName', value: 'x.y' },
          { op: 'replace', path: '/version', value: 9 },
          { op: 'replace', path: '/updatedBy', value: 'mallory' },
          { op: 'replace', path: '/service/name', value: 'other' },
          { op: 'add', path: '/description', value: 'Real' },
        ],
      ],
      want: { name: 'raw', fullyQualifiedName: 'lake.raw', version: 0.2, updatedBy: USER, service: expect.objectContaining({ name: 'lake' }), description: 'Real' },
    },
    { given: 'read-only fields only', key: 'container:lake.raw', patches: [[{ op: 'replace', path: '/name', value: 'renamed' }]], want: { name: 'raw', version: 0.1 } },
    { given: 'an ML model algorithm (a major field)', key: 'mlmodel:ml.churn', patches: [[{ op: 'replace', path: '/algorithm', value: 'lightgbm' }]], want: { version: 1.1 } },
    {
      given: "a tag label added to a column: resolved as an entity's",
      key: 'table:svc.db.sch.orders',
      patches: [[{ op: 'add', path: '/columns/0/tags', value: [{ tagFQN: 'pii.email' }] }]],
      want: {
        version: 0.2,
        columns: [expect.objectContaining({ name: 'id', tags: [expect.objectContaining({ ...LABEL, name: 'email' })] }), expect.objectContaining({ name: 'amount' })],
      },
    },
    {
      given: 'an unknown tag added to a column',
      key: 'table:svc.db.sch.orders',
      patches: [[{ op: 'add', path: '/columns/0/tags', value: [{ tagFQN: 'pii.nothing' }] }]],
      want: { kind: 'notFound', message: 'tag instance for pii.nothing not found' },
    },
    {
      given: 'deleted set',
      key: 'container:lake.raw',
      patches: [[{ op: 'replace', path: '/deleted', value: true }]],
      want: { kind: 'badRequest', message: "container attribute deleted can't be modified" },
    },
    {
      given: 'a failing test operation',
      key: 'container:lake.raw',
      patches: [[{ op: 'test', path: '/name', value: 'nope' }]],
      want: { kind: 'badRequest', message: /^Invalid JSON Patch: / },
    },
    {
      given: 'a value of the wrong type',
      key: 'container:lake.raw',
      patches: [[{ op: 'add', path: '/numberOfObjects', value: 'many' }]],
      want: { kind: 'badRequest', message: /^Invalid container after patch: .*numberOfObjects/ },
    },
  ])('$given', async ({ key, patches, want }) => {
    const c = await catalog();
    const before = structuredClone(c.get(key).entity);
    let error: ReturnType<typeof raised> = 'nothing';
    for (const operations of patches) error = raised(() => patchEntity(c.ctx, kindOf(c, key), c.get(key), operations, USER));
    if ('kind' in want) {
      expect(error).toEqual({ kind: want.kind, message: expect.stringMatching(want.message as string | RegExp) });
      expect(c.get(key).entity).toEqual(before);
    } else {
      expect(error).toBe('nothing');
      expect(c.get(key).entity).toMatchObject(want);
    }
  });
});

describe('delete and restore: soft (+0.1, deleted), restore (+0.1), hard (gone), recursive over the subtree', () => {
  const LAKE = ['storageService:lake', 'container:lake.raw', 'container:lake.raw.part', 'container:lake.logs'];
  const SVC = ['databaseService:svc', 'database:svc.db', 'databaseSchema:svc.db.sch', 'table:svc.db.sch.orders'];
  const soft = (c: Catalog, key: string, recursive = false) => softDelete(c.ctx, kindOf(c, key), c.get(key), recursive, USER);
  const hard = (c: Catalog, key: string, recursive = false) => hardDelete(c.ctx, kindOf(c, key), c.get(key), recursive);
  const restore = (c: Catalog, key: string) => restoreEntity(c.ctx, kindOf(c, key), c.get(key).entity.id, USER);
  const live = { version: 0.1, deleted: false };
  const deleted = { version: 0.2, deleted: true };
  const restored = { version: 0.3, deleted: false };

  it.each<{ given: string; act: (c: Catalog) => unknown; want: Record<string, { version: number; deleted: boolean } | 'gone'>; error?: { kind: string; message: string } }>([
    { given: 'a soft delete of a leaf', act: (c) => soft(c, 'container:lake.logs'), want: { 'container:lake.logs': deleted, 'storageService:lake': live } },
    { given: 'a soft delete of a deleted entity', act: (c) => [soft(c, 'container:lake.logs'), soft(c, 'container:lake.logs')], want: { 'container:lake.logs': deleted } },
    { given: 'a soft delete, then a restore', act: (c) => [soft(c, 'container:lake.logs'), restore(c, 'container:lake.logs')], want: { 'container:lake.logs': restored } },
    { given: 'a hard delete of a leaf', act: (c) => hard(c, 'container:lake.logs'), want: { 'container:lake.logs': 'gone', 'storageService:lake': live } },
    { given: 'a hard delete of a soft-deleted leaf', act: (c) => [soft(c, 'container:lake.logs'), hard(c, 'container:lake.logs')], want: { 'container:lake.logs': 'gone' } },
    {
      given: 'a soft delete of a parent, not recursive',
      act: (c) => soft(c, 'storageService:lake'),
      want: Object.fromEntries(LAKE.map((key) => [key, live])),
      error: { kind: 'badRequest', message: 'storageService is not empty' },
    },
    {
      given: 'a hard delete of a parent, not recursive',
      act: (c) => hard(c, 'database:svc.db'),
      want: Object.fromEntries(SVC.map((key) => [key, live])),
      error: { kind: 'badRequest', message: 'database is not empty' },
    },
    {
      given: 'a delete, not recursive, of a parent whose only child is soft-deleted',
      act: (c) => [soft(c, 'table:svc.db.sch.orders'), soft(c, 'databaseSchema:svc.db.sch')],
      want: { 'databaseSchema:svc.db.sch': live, 'table:svc.db.sch.orders': deleted },
      error: { kind: 'badRequest', message: 'databaseSchema is not empty' },
    },
    { given: 'a recursive soft delete of a service', act: (c) => soft(c, 'storageService:lake', true), want: Object.fromEntries(LAKE.map((key) => [key, deleted])) },
    {
      given: 'a recursive soft delete, then a restore of the service',
      act: (c) => [soft(c, 'storageService:lake', true), restore(c, 'storageService:lake')],
      want: Object.fromEntries(LAKE.map((key) => [key, restored])),
    },
    {
      given: 'a child deleted on its own before a recursive delete and restore: it stays deleted',
      act: (c) => [soft(c, 'container:lake.logs'), soft(c, 'storageService:lake', true), restore(c, 'storageService:lake')],
      want: { 'storageService:lake': restored, 'container:lake.raw': restored, 'container:lake.logs': deleted },
    },
    {
      given: 'a restore of a child whose parent is deleted',
      act: (c) => [soft(c, 'storageService:lake', true), restore(c, 'container:lake.raw')],
      want: { 'storageService:lake': deleted, 'container:lake.raw': deleted },
      error: { kind: 'badRequest', message: 'Cannot restore container lake.raw: its parent storageService lake is deleted' },
    },
    { given: 'a recursive hard delete of a service', act: (c) => hard(c, 'databaseService:svc', true), want: Object.fromEntries(SVC.map((key) => [key, 'gone'])) },
    {
      given: 'a restore of an entity that is not deleted',
      act: (c) => restore(c, 'container:lake.logs'),
      want: { 'container:lake.logs': live },
      error: { kind: 'badRequest', message: 'container lake.logs is not deleted' },
    },
  ])('$given', async ({ act, want, error }) => {
    const c = await catalog();
    expect(raised(() => act(c))).toEqual(error ?? 'nothing');
    expect(states(c, Object.keys(want))).toEqual(want);
  });

  it('a soft delete and a restore record the change of `deleted` and who made it, at the time it was made', async () => {
    const c = await catalog();
    const stored = soft(c, 'container:lake.logs');
    expect(stored.entity).toMatchObject({
      updatedAt: c.clock.now,
      updatedBy: USER,
      changeDescription: { previousVersion: 0.1, fieldsAdded: [], fieldsUpdated: [{ name: 'deleted', oldValue: false, newValue: true }], fieldsDeleted: [] },
    });
    c.clock.now += 1000;
    expect(restore(c, 'container:lake.logs').entity).toMatchObject({
      updatedAt: c.clock.now,
      changeDescription: { previousVersion: 0.2, fieldsUpdated: [{ name: 'deleted', oldValue: true, newValue: false }] },
    });
  });

  it.each<{ given: string; type: string; id: (c: Catalog) => string; want: { kind: string; message: string } }>([
    { given: 'an unknown id', type: 'container', id: () => UNKNOWN_ID, want: { kind: 'notFound', message: `container instance for ${UNKNOWN_ID} not found` } },
    {
      given: 'the id of another kind',
      type: 'database',
      id: (c) => c.get('container:lake.logs').entity.id,
      want: { kind: 'notFound', message: 'database instance for <id> not found' },
    },
  ])('a restore of $given is $want.kind', async ({ type, id, want }) => {
    const c = await catalog();
    const given = id(c);
    expect(raised(() => restoreEntity(c.ctx, c.ctx.kinds.of(type), given, USER))).toEqual({ ...want, message: want.message.replace('<id>', given) });
  });

  it("the kind's hook is asked before a delete: a system tag is not deleted", async () => {
    const c = await catalog();
    createEntity(c.ctx, c.ctx.kinds.of('tag'), { name: 'system', classification: 'pii', description: 's', provider: 'system' }, USER);
    expect(raised(() => hard(c, 'tag:pii.system'))).toEqual({ kind: 'badRequest', message: 'System entity [system] of type tag can not be deleted.' });
    expect(states(c, ['tag:pii.system'])).toEqual({ 'tag:pii.system': live });
  });
});
