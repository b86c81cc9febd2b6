/**
 * The kinds as requirements: one home per kind (generic code names none), every kind's row and
 * hooks hang together, and a kind declared here — one module object, registered as src/app/app.ts
 * registers `KINDS` — gets the full lifecycle through the domain API (docs/adding-a-kind.md).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogContext, Kind } from '../core/context.ts';
import type { CreateRequest, Entity } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { createEntity, hardDelete, patchEntity, restoreEntity, softDelete, upsertEntity } from '../core/lifecycle.ts';
import type { ListQuery } from '../core/listing.ts';
import { listEntities } from '../core/listing.ts';
import { parseFields, render } from '../core/projection.ts';
import { domainContext } from '../../test/kit.ts';
import { KINDS } from './index.ts';
import { kindRegistry } from './registry.ts';
import { serviceAsset } from './shapes.ts';

/** Modules that serve every kind alike: none may name a kind. */
const GENERIC_MODULES = [
  'src/features/csv/cells.ts',
  'src/features/csv/column-rows.ts',
  'src/features/csv/engine.ts',
  'src/features/csv/entity-rows.ts',
  'src/features/csv/savepoint.ts',
  'src/features/csv/csv-routes.ts',
  'src/core/context.ts',
  'src/core/dependents.ts',
  'src/core/entity.ts',
  'src/core/lifecycle.ts',
  'src/core/listing.ts',
  'src/core/memberships.ts',
  'src/core/projection.ts',
  'src/core/references.ts',
  'src/core/social.ts',
  'src/core/versioning.ts',
  'src/features/entities/entity-routes.ts',
  'src/http/request-helpers.ts',
  'src/features/entities/social-routes.ts',
  'src/kinds/registry.ts',
  'src/core/entity-store.ts',
  'src/core/sorted-keys.ts',
];

/** The code of a module without its comments (which may well mention kinds by way of example). */
function codeOf(path: string): string {
  const source = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/**
 * How a module would name a kind: its type as a string literal (`'table'`), its collection as a
 * path (`/tables`), or the collection's name anywhere unless that name is also a field some kind
 * carries (`tags`, `domains` and `users` are fields as well as collections).
 */
function namings(kind: Kind, fieldNames: ReadonlySet<string>): RegExp[] {
  const name = kind.collection.split('/').pop()!;
  return [new RegExp(`(['"\`])${kind.type}\\1`), new RegExp(`/${kind.collection}\\b`), ...(fieldNames.has(name) ? [] : [new RegExp(`\\b${name}\\b`)])];
}

describe('generic code names no kind', () => {
  const fieldNames = new Set(
    KINDS.flatMap((k) => [...k.relationshipFields, ...k.emptyArrays, ...Object.keys(k.refFields ?? {}), ...Object.values(k.refFields ?? {}).flatMap((r) => (r.as ? [r.as] : []))]),
  );

  it.each(GENERIC_MODULES)('%s mentions no kind type or collection', (path) => {
    const code = codeOf(path);
    const found = KINDS.flatMap((kind) => namings(kind, fieldNames).flatMap((pattern) => (pattern.test(code) ? [`${kind.type}: ${pattern.source}`] : [])));
    expect(found).toEqual([]);
  });

  it('the check finds a kind named in code (given a line that names one, want a finding)', () => {
    const given = [
      { code: "if (stored.type === 'table') drop();", want: ['table'] },
      { code: 'fetch(`/api/v1/services/databaseServices/${id}`);', want: ['databaseService'] },
      { code: 'const CHILD_FIELDS = { databaseSchemas: 1 };', want: [] },
      { code: 'for (const c of containers) count++;', want: ['container'] },
      { code: "const kept = ['owners', 'domains'];", want: [] },
    ];
    for (const { code, want } of given) {
      const found = KINDS.filter((kind) => namings(kind, fieldNames).some((pattern) => pattern.test(code))).map((k) => k.type);
      expect({ code, found }).toEqual({ code, found: want });
    }
  });
});

describe('every kind hangs together', () => {
  const registry = kindRegistry(KINDS);

  it.each(KINDS.map((k) => [k.type, k] as const))('%s: references, children and extra fields name listed kinds and its own relationship fields', (_type, kind) => {
    for (const [field, ref] of Object.entries(kind.refFields ?? {})) {
      for (const type of ref.kinds) expect(registry.of(type).type, `${kind.type}.${field}`).toBe(type);
    }
    for (const rule of kind.parents ?? []) expect(kind.refFields?.[rule.field], `parent ${rule.field}`).toBeDefined();
    for (const [field, type] of Object.entries(kind.childFields ?? {})) {
      expect(kind.relationshipFields).toContain(field);
      expect(registry.of(type).type).toBe(type);
    }
    for (const field of Object.keys(kind.extraFields ?? {})) expect(kind.relationshipFields).toContain(field);
  });

  it('the registry refuses a list that is ambiguous (given kinds, want the error)', () => {
    const [storage, , , , , , , container] = KINDS;
    const user = KINDS.find((k) => k.principal)!;
    const given: { kinds: Kind[]; want: RegExp }[] = [
      { kinds: [user, container!, container!], want: /kind container is listed twice/ },
      { kinds: [user, storage!, { ...container!, collection: storage!.collection }], want: /collection services\/storageServices is taken/ },
      { kinds: [storage!], want: /exactly one kind must be the principal, found 0/ },
      { kinds: [user, { ...user, type: 'robot', collection: 'robots' }], want: /exactly one kind must be the principal, found 2/ },
    ];
    for (const { kinds, want } of given) expect(() => kindRegistry(kinds)).toThrow(want);
  });
});

describe('list filters of the kinds (given a kind, a query parameter and an entity, want whether it is listed)', () => {
  const registry = kindRegistry(KINDS);
  const entity = (fields: Record<string, unknown>) =>
    ({ id: 'x', name: 'x', fullyQualifiedName: 'x', version: 0.1, updatedAt: 0, updatedBy: 'a', deleted: false, ...fields }) as Entity;
  const sales = { id: 'd1', type: 'domain', fullyQualifiedName: 'Sales' };
  it.each([
    { kind: 'container', param: 'root', value: 'true', entity: entity({}), want: true },
    { kind: 'container', param: 'root', value: 'true', entity: entity({ parent: { id: 'p', type: 'container' } }), want: false },
    { kind: 'container', param: 'root', value: 'false', entity: entity({ parent: { id: 'p', type: 'container' } }), want: 'no filter' },
    { kind: 'tag', param: 'disabled', value: 'true', entity: entity({ disabled: true }), want: true },
    { kind: 'tag', param: 'disabled', value: 'false', entity: entity({ disabled: true }), want: false },
    { kind: 'classification', param: 'disabled', value: 'false', entity: entity({}), want: true },
    { kind: 'table', param: 'domain', value: 'Sales', entity: entity({ domains: [sales] }), want: true },
    { kind: 'storageService', param: 'domain', value: 'Marketing', entity: entity({ domains: [sales] }), want: false },
    { kind: 'dataContract', param: 'entity', value: 't1', entity: entity({ entity: { id: 't1', type: 'table' } }), want: true },
    { kind: 'dataContract', param: 'entityStatus', value: 'Approved', entity: entity({ entityStatus: 'Draft' }), want: false },
    { kind: 'table', param: 'root', value: 'true', entity: entity({}), want: 'not a filter' },
  ])('$kind ?$param=$value → $want', ({ kind, param, value, entity: e, want }) => {
    const filter = registry.of(kind).listFilters?.[param];
    if (want === 'not a filter') return expect(filter).toBeUndefined();
    // These filters read the entity alone; testCaseStatus reads results (src/core/listing.test.ts).
    const test = filter!(value, {} as CatalogContext);
    expect(test === undefined ? 'no filter' : test(e)).toBe(want);
  });
});

/**
 * A kind that exists only here: gizmos live under a dashboard service, served from their own
 * collection with the Chart schemas (the validators need a component schema). A hook refuses to
 * delete a gizmo whose description says so, to show the lifecycle reads hooks from the kind.
 */
const gizmo: Kind = {
  ...serviceAsset('gizmo', 'gizmos', 'Chart', 'dashboardService'),
  defaults: { chartType: 'Other' },
  beforeDelete(stored) {
    if (stored.entity.description === 'keep') throw CatalogError.badRequest(`gizmo ${stored.entity.name} is kept`);
  },
};

describe('a kind declared in a test gets the full lifecycle through the domain API', () => {
  let ctx: CatalogContext;
  let clock = 1_763_683_200_000;
  const user = 'admin';
  const list = (query: Partial<ListQuery> = {}) => listEntities(ctx, gizmo, { include: 'non-deleted', limit: 10, filters: {}, ...query });
  const get = (id: string) => ctx.store.get(id)!;

  beforeAll(async () => {
    ctx = await domainContext({ kinds: [...KINDS, gizmo], now: () => ++clock });
    createEntity(ctx, ctx.kinds.of('dashboardService'), { name: 'dash', serviceType: 'Superset', connection: { config: { type: 'Superset' } } } as CreateRequest, user);
  });

  it('create, get by id and by name, list, patch, soft delete, restore, hard delete', () => {
    // Create: FQN under its service, version 0.1, the service's type copied, the kind's default.
    const created = createEntity(ctx, ctx.kinds.of('gizmo'), { name: 'spinner', service: 'dash' }, user);
    const { id } = created.entity;
    expect(created.entity).toMatchObject({ fullyQualifiedName: 'dash.spinner', version: 0.1, serviceType: 'Superset', chartType: 'Other', followers: [], deleted: false });
    expect(created.entity.service).toMatchObject({ type: 'dashboardService', name: 'dash' });
    expect(() => createEntity(ctx, gizmo, { name: 'spinner', service: 'dash' }, user)).toThrow('Entity already exists');

    // Get by id and by name; rendered under its own collection.
    expect(get(id).type).toBe('gizmo');
    expect(ctx.store.getByFqn('gizmo', 'dash.spinner')?.entity.id).toBe(id);
    const shown = render(ctx, gizmo, get(id), parseFields(ctx, gizmo, 'followers'), 'http://catalog.test/api');
    expect(shown).toMatchObject({ href: `http://catalog.test/api/v1/gizmos/${id}`, followers: [] });

    // List: only gizmos, filtered by service like any service asset.
    createEntity(ctx, gizmo, { name: 'wobbler', service: 'dash' }, user);
    expect(list().items.map((s) => s.entity.name)).toEqual(['spinner', 'wobbler']);
    expect(list({ filters: { service: 'dash' }, limit: 1 }).paging.total).toBe(2);
    expect(listEntities(ctx, ctx.kinds.of('chart'), { include: 'all', limit: 10, filters: {} }).items).toEqual([]);

    // Patch: a new version, +0.1; an upsert that changes nothing keeps it.
    patchEntity(ctx, gizmo, get(id), [{ op: 'add', path: '/description', value: 'spins' }], user);
    expect(get(id).entity).toMatchObject({ description: 'spins', version: 0.2 });
    expect(upsertEntity(ctx, gizmo, { name: 'spinner', service: 'dash', description: 'spins' }, user).outcome).toBe('unchanged');

    // The kind's hook is consulted before a delete.
    patchEntity(ctx, gizmo, get(id), [{ op: 'replace', path: '/description', value: 'keep' }], user);
    expect(() => softDelete(ctx, gizmo, get(id), false, user)).toThrow('gizmo spinner is kept');
    patchEntity(ctx, gizmo, get(id), [{ op: 'replace', path: '/description', value: 'spins' }], user);
    expect(get(id).entity.version).toBe(0.4);

    // Soft delete, listed only with include=deleted; restore.
    softDelete(ctx, gizmo, get(id), false, user);
    expect(get(id).entity).toMatchObject({ deleted: true, version: 0.5 });
    expect(list().items.map((s) => s.entity.name)).toEqual(['wobbler']);
    expect(list({ include: 'deleted' }).items.map((s) => s.entity.name)).toEqual(['spinner']);
    restoreEntity(ctx, gizmo, id, user);
    expect(get(id).entity).toMatchObject({ deleted: false, version: 0.6 });

    // Hard delete: gone for good, the history with it.
    hardDelete(ctx, gizmo, get(id), false);
    expect(ctx.store.get(id)).toBeUndefined();
    expect(ctx.store.getByFqn('gizmo', 'dash.spinner')).toBeUndefined();
  });

  it('its parent counts it: a service with gizmos needs recursive, and a recursive hard delete takes them', () => {
    const service = ctx.store.getByFqn('dashboardService', 'dash')!;
    createEntity(ctx, gizmo, { name: 'twirler', service: 'dash' }, user);
    expect(() => hardDelete(ctx, ctx.kinds.of('dashboardService'), service, false)).toThrow('dashboardService is not empty');
    hardDelete(ctx, ctx.kinds.of('dashboardService'), service, true);
    expect(ctx.store.count('gizmo')).toBe(0);
  });
});
