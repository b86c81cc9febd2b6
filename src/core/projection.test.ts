/**
 * What a response shows of an entity (docs/behaviour.md "Reading"): `fields` accepts any property
 * of the kind's entity schema in the document, as OpenMetadata does, and refuses only names that
 * are none; every reference carries its `href` and a `displayName`; a new dashboard shows `charts: []`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../test/kit.ts';
import { createTable, databaseChain, expectError, KINDS, createOne, SLOW_START, startApp, v1 } from '../../test/kit.ts';
import { readDocument } from '../openapi/document.ts';
import { profileByName } from '../config/profiles.ts';
import { KINDS as SERVED } from '../kinds/index.ts';
import type { StoredEntity } from './entity-store.ts';
import { EntityStore } from './entity-store.ts';
import type { Entity } from './entity.ts';
import { entityTag } from './projection.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
}, SLOW_START);

describe('fields', () => {
  it("accepts what a third-party OpenMetadata client asks of tables, and answers the table's own content", async () => {
    const constraints = [{ constraintType: 'PRIMARY_KEY', columns: ['order_id'] }];
    const t = await createTable(app, undefined, undefined, { tableConstraints: constraints, schemaDefinition: 'select 1', description: 'Orders' });
    const res = await app.get(v1('tables', `?fields=columns,owners,tags,description,tableConstraints,joins&databaseSchema=svc.db.sch&limit=100`)).expect(200);
    const row = (res.body.data as Body[]).find((table) => table.id === t.id)!;
    expect(row).toMatchObject({ tableConstraints: constraints, schemaDefinition: 'select 1', description: 'Orders', owners: [], tags: [] });
    expect(row.columns).toHaveLength(2);
    await app.get(v1('tables', `/${t.id}?fields=columns,owners,tags,description,tableConstraints,joins`)).expect(200);
  });

  it('accepts what that client asks of a data contract by name', async () => {
    const t = await createTable(app);
    const contract = await app.create('dataContracts', { name: app.unique('terms'), entity: { id: t.id, type: 'table' }, status: 'Active' });
    const res = await app.get(v1('dataContracts', `/name/${encodeURIComponent(String(contract.fullyQualifiedName))}?fields=schema,qualityExpectations,entity,status`)).expect(200);
    expect(res.body).toMatchObject({ status: 'Active', entity: { id: t.id, type: 'table' } });
  });

  it('accepts every property of every served kind in the document, and refuses a name that is none', async () => {
    const document = readDocument(profileByName('contract'));
    const schemas = document.components.schemas as Record<string, unknown>;
    for (const kindCase of KINDS) {
      const served = SERVED.find((k) => k.type === kindCase.type)!;
      const properties = propertiesOf(schemas, served.schema);
      expect(properties.size, served.schema).toBeGreaterThan(5);
      const { entity } = await createOne(app, kindCase);
      const base = v1(kindCase.collection, `/${String(entity.id)}`);
      const res = await app.get(`${base}?fields=${[...properties].join(',')}`);
      expect(res.status, `${kindCase.type}: ${res.text.slice(0, 300)}`).toBe(200);
      expectError(await app.get(`${base}?fields=owners,notAProperty`), 400, 'BAD_REQUEST', 'Invalid field name notAProperty');
    }
  });
});

/** The properties a component schema declares, through `$ref` and `allOf` (the document's own view). */
function propertiesOf(schemas: Record<string, unknown>, name: string): Set<string> {
  const out = new Set<string>();
  const visit = (node: unknown): void => {
    let schema = node as Record<string, unknown>;
    while (typeof schema.$ref === 'string') schema = schemas[schema.$ref.replace('#/components/schemas/', '')] as Record<string, unknown>;
    for (const key of Object.keys((schema.properties as object | undefined) ?? {})) out.add(key);
    for (const part of (schema.allOf as unknown[] | undefined) ?? []) visit(part);
  };
  visit({ $ref: `#/components/schemas/${name}` });
  return out;
}

describe('references', () => {
  it('a database\'s service reference carries href and displayName (interface specification, "Fields common to most entities")', async () => {
    const { service, database } = await databaseChain(app);
    const res = await app.get(v1('databases', `/${String(database.id)}`)).expect(200);
    expect(res.body.service).toEqual({
      id: service.id,
      type: 'databaseService',
      name: service.name,
      fullyQualifiedName: service.fullyQualifiedName,
      displayName: service.name,
      deleted: false,
      href: `${app.baseUrl}/v1/services/databaseServices/${String(service.id)}`,
    });
  });

  it('every reference of every kind carries its href and displayName, on writes and on reads with every field', async () => {
    let checked = 0;
    for (const kindCase of KINDS) {
      const { entity } = await createOne(app, kindCase);
      const read = await app.get(v1(kindCase.collection, `/${String(entity.id)}?fields=*`)).expect(200);
      for (const body of [entity, read.body as Body]) {
        for (const ref of referencesIn(body)) {
          expect(ref.href, `${kindCase.type}: ${JSON.stringify(ref)}`).toMatch(new RegExp(`^${app.baseUrl}/v1/.+/${ref.id}$`));
          expect(typeof ref.displayName, `${kindCase.type}: ${JSON.stringify(ref)}`).toBe('string');
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(KINDS.length);
  });

  it('the items of a list page carry their service with the href of the host each request named', async () => {
    const { service } = await databaseChain(app);
    await app.create('databases', { name: app.unique('db'), service: service.fullyQualifiedName });
    const want = (origin: string) => `${origin}/api/v1/services/databaseServices/${String(service.id)}`;
    // The same page through two hosts, then the first again: no request answers another's href.
    for (const host of ['one.example:8585', 'two.example:9000', 'one.example:8585']) {
      const res = await app
        .get(v1('databases', `?service=${encodeURIComponent(String(service.fullyQualifiedName))}`))
        .set('Host', host)
        .expect(200);
      const items = res.body.data as Body[];
      expect(items).toHaveLength(2);
      for (const item of items) expect((item.service as Body).href, host).toBe(want(`http://${host}`));
    }
  });

  it("a referenced entity's own displayName wins over its name", async () => {
    const svc = await app.create('services/storageServices', { name: app.unique('s3'), displayName: 'The lake', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    const container = await app.create('containers', { name: 'raw', service: svc.fullyQualifiedName });
    expect(container.service).toMatchObject({ displayName: 'The lake' });
  });
});

/** References held by the entity's fields, by lists in them, and by objects one level down (`votes`). */
function referencesIn(body: Body): Body[] {
  const isRef = (v: unknown): v is Body => typeof v === 'object' && v !== null && typeof (v as Body).id === 'string' && typeof (v as Body).type === 'string';
  const out: Body[] = [];
  const collect = (value: unknown): void => {
    if (isRef(value)) out.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
  };
  for (const [key, value] of Object.entries(body)) {
    if (key === 'changeDescription' || key === 'incrementalChangeDescription') continue;
    collect(value);
    if (value && typeof value === 'object' && !Array.isArray(value) && !isRef(value)) Object.values(value).forEach(collect);
  }
  return out;
}

describe('a new dashboard (interface specification, "Dashboard": the response adds charts)', () => {
  it('shows charts: [] like the other empty arrays, and the charts it was given as references', async () => {
    await app.put(v1('services/dashboardServices'), { name: 'dsvc', serviceType: 'Superset', connection: { config: { type: 'Superset' } } });
    const empty = await app.create('dashboards', { name: app.unique('board'), service: 'dsvc' });
    expect(empty).toMatchObject({ charts: [], owners: [], tags: [], followers: [] });
    const chart = await app.create('charts', { name: app.unique('chart'), service: 'dsvc' });
    const full = await app.create('dashboards', { name: app.unique('board'), service: 'dsvc', charts: [chart.fullyQualifiedName] });
    expect(full.charts).toEqual([expect.objectContaining({ id: chart.id, type: 'chart' })]);
    const read = await app.get(v1('dashboards', `/${String(empty.id)}?fields=charts`)).expect(200);
    expect(read.body.charts).toEqual([]);
  });
});

describe('entityTag names the stored entity as it is now', () => {
  it('given a write, a write undone, and a snapshot of another version, want each tag of its own entity', () => {
    const store = new EntityStore();
    const base = { id: '6f1c0e3e-0000-4000-8000-0000000000aa', name: 'c', fullyQualifiedName: 's.c', version: 0.1, updatedAt: 1, deleted: false } as unknown as Entity;
    const stored = store.insert('container', base, undefined);
    const first = entityTag(stored);
    expect(first).toMatch(/^W\/"0\.1-1-[A-Za-z0-9_-]{12}"$/);
    const before = stored.entity;
    // A change that keeps the version (a follower) changes the tag; putting the entity back restores it.
    stored.entity = { ...before, followers: [{ id: 'u', type: 'user' }] } as Entity;
    const followed = entityTag(stored);
    expect(followed).not.toBe(first);
    stored.entity = before;
    expect(entityTag(stored)).toBe(first);
    // A snapshot spread from the stored entity (a version served by /versions) is tagged by its own entity.
    const snapshot: StoredEntity = { ...stored, entity: { ...before, description: 'v0' } as Entity };
    expect(entityTag(snapshot)).not.toBe(first);
    expect(entityTag(stored)).toBe(first);
  });
});
