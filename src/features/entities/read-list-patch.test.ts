/**
 * The read and edit rules: GET by id and by name with `fields` and `include`,
 * lists with `limit`, `before` / `after`, `paging.total` and the per-kind filters, PATCH with JSON
 * Patch, and version history (docs/behaviour.md "Reading", "Listing", "Patch", "Versions", "Errors",
 * "Containers").
 */
import etag from 'etag';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, Body, KindCase } from '../../../test/kit.ts';
import { SECRET_MASK } from '../../core/secrets.ts';
import { COLUMNS, createOne, databaseChain, expectError, kind, startApp, v1 } from '../../../test/kit.ts';

const byType = (types: readonly string[]): [string, KindCase][] => types.map((t) => [t, kind(t)]);
const enc = (fqn: unknown): string => encodeURIComponent(String(fqn));
const names = (res: { body: { data: Body[] } }): string[] => res.body.data.map((e) => String(e.name));

let api: TestApp;
beforeAll(async () => {
  api = await startApp();
});

describe('GET by id and by name returns the entity; relationship fields only when asked with fields=', () => {
  it.each(byType(['container', 'dashboard', 'table', 'storageService', 'topic', 'mlmodel']))(
    'GET %s by id and by name answer the same entity without followers unless asked',
    async (_type, kindCase) => {
      const { entity } = await createOne(api, kindCase);
      const byId = await api.get(v1(kindCase.collection, `/${String(entity.id)}`));
      const byName = await api.get(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}`));
      expect(byId.status).toBe(200);
      expect(byName.body).toEqual(byId.body);
      expect(byId.body).toMatchObject({ id: entity.id, name: entity.name, fullyQualifiedName: entity.fullyQualifiedName, version: 0.1, deleted: false, href: entity.href });
      expect(byId.body.followers).toBeUndefined();
      expect(byId.body.owners).toBeUndefined();
      const withFields = await api.get(v1(kindCase.collection, `/${String(entity.id)}?fields=followers,owners,domains`));
      expect(withFields.body).toMatchObject({ followers: [], owners: [], domains: [] });
    },
  );

  it.each(byType(['container', 'database', 'classification']))('GET %s with an unknown field answers 400 "Invalid field name x"', async (_type, kindCase) => {
    const { entity } = await createOne(api, kindCase);
    expectError(await api.get(v1(kindCase.collection, `/${String(entity.id)}?fields=owners,bogus`)), 400, 'BAD_REQUEST', 'Invalid field name bogus');
    expectError(await api.get(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}?fields=bogus`)), 400, 'BAD_REQUEST', 'Invalid field name bogus');
    expectError(await api.get(`${v1(kindCase.collection)}?fields=bogus`), 400, 'BAD_REQUEST', 'Invalid field name bogus');
  });

  it('GET a container with fields=children,parent lists its live children; a database with fields=databaseSchemas its schemas', async () => {
    const { entity: top, scope } = await createOne(api, kind('container'));
    const child = await api.create('containers', { name: 'kid', service: scope.parentFqn, parent: { id: top.id, type: 'container' } });
    const res = await api.get(v1('containers', `/${String(top.id)}?fields=children`));
    expect((res.body.children as Body[]).map((c) => c.id)).toEqual([child.id]);
    const kid = await api.get(v1('containers', `/${String(child.id)}?fields=parent`));
    expect(kid.body.parent).toMatchObject({ id: top.id, type: 'container' });
    const chain = await databaseChain(api);
    const db = await api.get(v1('databases', `/${String(chain.database.id)}?fields=databaseSchemas`));
    expect((db.body.databaseSchemas as Body[]).map((s) => s.id)).toEqual([chain.schema.id]);
  });

  it('GET with include=foo answers 400', async () => {
    const { entity } = await createOne(api, kind('chart'));
    expect((await api.get(v1('charts', `/${String(entity.id)}?include=foo`))).status).toBe(400);
  });
});

describe('lists page with limit and before/after cursors, count paging.total, and filter per kind', () => {
  it.each(byType(['container', 'table', 'tag', 'apiEndpoint', 'chart']))('GET %s pages forward and back over a scope of 5 with limit 2', async (_type, kindCase) => {
    const scope = await kindCase.scope(api);
    const all = ['e1', 'e2', 'e3', 'e4', 'e5'];
    for (const name of [...all].reverse()) await api.create(kindCase.collection, scope.request(name));
    const filter = new URLSearchParams(scope.filter).toString();
    const page = (query: string) => api.get(`${v1(kindCase.collection)}?${filter}&limit=2${query}`);

    const p1 = await page('');
    expect(names(p1)).toEqual(['e1', 'e2']);
    expect(p1.body.paging.total).toBe(5);
    expect(p1.body.paging.before).toBeUndefined();
    const p2 = await page(`&after=${String(p1.body.paging.after)}`);
    expect(names(p2)).toEqual(['e3', 'e4']);
    const p3 = await page(`&after=${String(p2.body.paging.after)}`);
    expect(names(p3)).toEqual(['e5']);
    expect(p3.body.paging.after).toBeUndefined();
    expect(p3.body.paging.total).toBe(5);
    const back2 = await page(`&before=${String(p3.body.paging.before)}`);
    expect(names(back2)).toEqual(['e3', 'e4']);
    const back1 = await page(`&before=${String(back2.body.paging.before)}`);
    expect(names(back1)).toEqual(['e1', 'e2']);
    expect(back1.body.paging.before).toBeUndefined();
    expect(back1.body.paging.after).toBeDefined();
  });

  it('a page read again is the same to the byte, and shows a write made since, by id or by name, with a new ETag', async () => {
    const scope = await kind('container').scope(api);
    const [first, second] = [await api.create('containers', scope.request('k1')), await api.create('containers', scope.request('k2'))];
    const filter = new URLSearchParams(scope.filter).toString();
    const page = () => api.get(`${v1('containers')}?${filter}&limit=10`).expect(200);
    const [a, b] = [await page(), await page()];
    expect(b.text).toBe(a.text);
    // The tag is the body's, as express computes it, and a conditional read of the kept page is 304.
    expect(b.headers.etag).toBe(etag(a.text, { weak: true }));
    await api
      .get(`${v1('containers')}?${filter}&limit=10`)
      .set('If-None-Match', String(b.headers.etag))
      .expect(304);
    const byName = await api.get(v1('containers', `/name/${encodeURIComponent(String(second.fullyQualifiedName))}`)).expect(200);
    expect(byName.body).toEqual((a.body.data as Body[])[1]);

    await api.patch(v1('containers', `/${String(first.id)}`), [{ op: 'add', path: '/description', value: 'written since' }]).expect(200);
    const c = await page();
    expect((c.body.data as Body[]).map((item) => item.description)).toEqual(['written since', undefined]);
    expect(c.headers.etag).not.toBe(a.headers.etag);
    const byId = await api.get(v1('containers', `/${String(first.id)}`)).expect(200);
    expect(byId.body).toMatchObject({ description: 'written since', version: 0.2 });
  });

  it('GET a list with both before and after answers 400; with limit=0 it only counts; a broken cursor is 400', async () => {
    const scope = await kind('pipeline').scope(api);
    for (const name of ['a', 'b', 'c']) await api.create('pipelines', scope.request(name));
    const first = await api.get(`${v1('pipelines')}?service=${enc(scope.parentFqn)}&limit=1`);
    const cursor = String(first.body.paging.after);
    expectError(await api.get(`${v1('pipelines')}?before=${cursor}&after=${cursor}`), 400, 'BAD_REQUEST', 'Only one of before or after query parameter allowed');
    const count = await api.get(`${v1('pipelines')}?service=${enc(scope.parentFqn)}&limit=0`);
    expect(count.body).toEqual({ data: [], paging: { total: 3 } });
    expectError(await api.get(`${v1('pipelines')}?after=garbage`), 400, 'BAD_REQUEST', 'Invalid cursor garbage');
    expectError(await api.get(`${v1('pipelines')}?before=AAAA`), 400, 'BAD_REQUEST', 'Invalid cursor AAAA');
    expect((await api.get(`${v1('pipelines')}?limit=-1`)).status).toBe(400);
  });

  it('the service, database, databaseSchema and root filters select what they name, with exact totals', async () => {
    const chain = await databaseChain(api);
    const otherSchema = await api.create('databaseSchemas', { name: 'other', database: chain.database.fullyQualifiedName });
    await api.create('tables', { name: 't1', databaseSchema: chain.schema.fullyQualifiedName, columns: COLUMNS });
    await api.create('tables', { name: 't2', databaseSchema: chain.schema.fullyQualifiedName, columns: COLUMNS });
    await api.create('tables', { name: 't3', databaseSchema: otherSchema.fullyQualifiedName, columns: COLUMNS });
    const bySchema = await api.get(`${v1('tables')}?databaseSchema=${enc(chain.schema.fullyQualifiedName)}`);
    expect(names(bySchema)).toEqual(['t1', 't2']);
    expect(bySchema.body.paging.total).toBe(2);
    const byDatabase = await api.get(`${v1('tables')}?database=${enc(chain.database.fullyQualifiedName)}`);
    expect(byDatabase.body.paging.total).toBe(3);
    const schemas = await api.get(`${v1('databaseSchemas')}?database=${enc(chain.database.fullyQualifiedName)}`);
    expect(names(schemas).sort()).toEqual(['other', String(chain.schema.name)].sort());
    const dbs = await api.get(`${v1('databases')}?service=${enc(chain.service.fullyQualifiedName)}`);
    expect(names(dbs)).toEqual([chain.database.name]);

    const { entity: top, scope } = await createOne(api, kind('container'));
    await api.create('containers', { name: 'nested', service: scope.parentFqn, parent: { id: top.id, type: 'container' } });
    const svcFilter = `service=${enc(scope.parentFqn)}`;
    expect((await api.get(`${v1('containers')}?${svcFilter}`)).body.paging.total).toBe(2);
    const roots = await api.get(`${v1('containers')}?${svcFilter}&root=true`);
    expect(names(roots)).toEqual([top.name]);
    expect(roots.body.paging.total).toBe(1);
  });

  it('a filter naming a service does not match a service whose name merely starts the same', async () => {
    const a = await api.create('services/storageServices', { name: api.unique('lake'), serviceType: 'S3', connection: { config: { type: 'S3' } } });
    const b = await api.create('services/storageServices', { name: `${String(a.name)}x`, serviceType: 'S3', connection: { config: { type: 'S3' } } });
    await api.create('containers', { name: 'in_a', service: a.fullyQualifiedName });
    await api.create('containers', { name: 'in_b', service: b.fullyQualifiedName });
    const res = await api.get(`${v1('containers')}?service=${enc(a.fullyQualifiedName)}`);
    expect(names(res)).toEqual(['in_a']);
  });
});

describe('PATCH applies a JSON Patch: +0.1, read-only attributes kept, deleted refused, 404 when soft-deleted', () => {
  it.each(byType(['container', 'table', 'dashboard', 'storageService', 'classification', 'testCase']))(
    'PATCH %s by id and by name changes description, version +0.1 each time',
    async (_type, kindCase) => {
      const { entity } = await createOne(api, kindCase);
      const res = await api.patch(v1(kindCase.collection, `/${String(entity.id)}`), [{ op: 'add', path: '/description', value: 'patched' }]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ id: entity.id, description: 'patched', version: 0.2 });
      const byName = await api.patch(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}`), [{ op: 'add', path: '/displayName', value: 'Shown' }]);
      expect(byName.body).toMatchObject({ displayName: 'Shown', description: 'patched', version: 0.3 });
      const noop = await api.patch(v1(kindCase.collection, `/${String(entity.id)}`), [{ op: 'replace', path: '/description', value: 'patched' }]);
      expect(noop.body.version).toBe(0.3);
    },
  );

  it('PATCH cannot change id, name, FQN, version, updatedBy, service or parent: they are silently kept', async () => {
    const { entity } = await createOne(api, kind('container'));
    const res = await api.patch(v1('containers', `/${String(entity.id)}`), [
      { op: 'replace', path: '/name', value: 'renamed' },
      { op: 'replace', path: '/fullyQualifiedName', value: 'x.y' },
      { op: 'replace', path: '/version', value: 9 },
      { op: 'replace', path: '/updatedBy', value: 'mallory' },
      { op: 'replace', path: '/service/name', value: 'other' },
      { op: 'add', path: '/description', value: 'real change' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: entity.id,
      name: entity.name,
      fullyQualifiedName: entity.fullyQualifiedName,
      version: 0.2,
      updatedBy: 'admin',
      description: 'real change',
    });
    expect(res.body.service).toEqual(entity.service);
  });

  it('PATCH adds and removes tags and owners (which PUT cannot remove), each +0.1; an unknown tag is 404', async () => {
    const cls = await api.create('classifications', { name: api.unique('tier'), description: 'c' });
    const tag = await api.create('tags', { name: 'gold', classification: cls.fullyQualifiedName, description: 't' });
    const me = await api.get(v1('users', '/name/admin'));
    const { entity } = await createOne(api, kind('pipeline'));
    const path = v1('pipelines', `/${String(entity.id)}`);
    const tagged = await api.patch(path, [{ op: 'add', path: '/tags/0', value: { tagFQN: tag.fullyQualifiedName } }]);
    expect(tagged.body.version).toBe(0.2);
    expect(tagged.body.tags).toEqual([
      expect.objectContaining({ tagFQN: tag.fullyQualifiedName, name: 'gold', source: 'Classification', labelType: 'Manual', state: 'Confirmed' }),
    ]);
    const owned = await api.patch(path, [{ op: 'add', path: '/owners/0', value: { id: me.body.id, type: 'user' } }]);
    expect(owned.body.owners).toEqual([expect.objectContaining({ id: me.body.id, type: 'user', name: 'admin' })]);
    expect(owned.body.version).toBe(0.3);
    const cleared = await api.patch(path, [
      { op: 'remove', path: '/tags/0' },
      { op: 'remove', path: '/owners/0' },
    ]);
    expect(cleared.body).toMatchObject({ tags: [], owners: [], version: 0.4 });
    expectError(
      await api.patch(path, [{ op: 'add', path: '/tags/0', value: { tagFQN: `${String(cls.fullyQualifiedName)}.nope` } }]),
      404,
      'NOT_FOUND',
      `tag instance for ${String(cls.fullyQualifiedName)}.nope not found`,
    );
    expect((await api.get(path)).body.version).toBe(0.4);
  });

  it('PATCH of deleted answers 400 "<type> attribute deleted can\'t be modified"; PATCH of a soft-deleted entity answers 404', async () => {
    const { entity } = await createOne(api, kind('mlmodel'));
    expectError(
      await api.patch(v1('mlmodels', `/${String(entity.id)}`), [{ op: 'replace', path: '/deleted', value: true }]),
      400,
      'BAD_REQUEST',
      "mlmodel attribute deleted can't be modified",
    );
    await api.delete(v1('mlmodels', `/${String(entity.id)}`)).expect(200);
    expectError(
      await api.patch(v1('mlmodels', `/${String(entity.id)}`), [{ op: 'add', path: '/description', value: 'x' }]),
      404,
      'NOT_FOUND',
      `mlmodel instance for ${String(entity.id)} not found`,
    );
    expectError(
      await api.patch(v1('mlmodels', `/name/${enc(entity.fullyQualifiedName)}`), [{ op: 'add', path: '/description', value: 'x' }]),
      404,
      'NOT_FOUND',
      `mlmodel instance for ${String(entity.fullyQualifiedName)} not found`,
    );
  });

  it('PATCH with a failing test op, a bad path, an invalid result or a non-array body answers 400', async () => {
    const { entity } = await createOne(api, kind('topic'));
    const path = v1('topics', `/${String(entity.id)}`);
    expect((await api.patch(path, [{ op: 'test', path: '/name', value: 'nope' }])).status).toBe(400);
    expect((await api.patch(path, [{ op: 'remove', path: '/nothing/here' }])).status).toBe(400);
    expect((await api.patch(path, [{ op: 'replace', path: '/partitions', value: 'many' }])).status).toBe(400);
    expect((await api.patch(path, { op: 'add' })).status).toBe(400);
    expect((await api.get(path)).body.version).toBe(0.1);
  });

  it('PATCH of an ML model algorithm is a major change: 0.1 becomes 1.1', async () => {
    const { entity } = await createOne(api, kind('mlmodel'));
    const res = await api.patch(v1('mlmodels', `/${String(entity.id)}`), [{ op: 'replace', path: '/algorithm', value: 'lightgbm' }]);
    expect(res.body).toMatchObject({ algorithm: 'lightgbm', version: 1.1 });
  });
});

describe('version history lists every version, newest first, and serves each one', () => {
  it.each(byType(['container', 'database', 'tag']))('GET %s/{id}/versions and /versions/{v} after two changes and a delete', async (_type, kindCase) => {
    const { entity } = await createOne(api, kindCase);
    await api.patch(v1(kindCase.collection, `/${String(entity.id)}`), [{ op: 'add', path: '/displayName', value: 'v2' }]).expect(200);
    await api.delete(v1(kindCase.collection, `/${String(entity.id)}`)).expect(200);
    const history = await api.get(v1(kindCase.collection, `/${String(entity.id)}/versions`));
    expect(history.status).toBe(200);
    expect(history.body.entityType).toBe(kindCase.type);
    const versions = (history.body.versions as string[]).map((v) => JSON.parse(v) as Body);
    expect(versions.map((v) => [v.version, v.deleted])).toEqual([
      [0.3, true],
      [0.2, false],
      [0.1, false],
    ]);
    expect(versions[1]!.displayName).toBe('v2');
    const first = await api.get(v1(kindCase.collection, `/${String(entity.id)}/versions/0.1`));
    expect(first.body).toMatchObject({ id: entity.id, version: 0.1, deleted: false });
    expect(first.body.displayName).toBeUndefined();
    const current = await api.get(v1(kindCase.collection, `/${String(entity.id)}/versions/0.3`));
    expect(current.body).toMatchObject({ version: 0.3, deleted: true });
    expectError(
      await api.get(v1(kindCase.collection, `/${String(entity.id)}/versions/0.9`)),
      404,
      'NOT_FOUND',
      `${kindCase.type} instance for ${String(entity.id)} and version 0.9 not found`,
    );
  });

  it('a service connection secret is masked in every version served, and kept in the store (profile contract)', async () => {
    const created = await api.post('/api/v1/services/storageServices', {
      name: 'versioned_lake',
      serviceType: 'S3',
      connection: { config: { type: 'S3', awsConfig: { awsRegion: 'eu-west-1', awsSecretAccessKey: 'kept-secret' } } },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    await api.patch(`/api/v1/services/storageServices/${id}`, [{ op: 'add', path: '/description', value: 'v2' }]).expect(200);
    const secretOf = (version: Body) => (version.connection as { config: { awsConfig: { awsSecretAccessKey: string } } }).config.awsConfig.awsSecretAccessKey;
    const versions = ((await api.get(`/api/v1/services/storageServices/${id}/versions`)).body.versions as string[]).map((v) => JSON.parse(v) as Body);
    expect(versions.map((v) => [v.version, secretOf(v)])).toEqual([
      [0.2, SECRET_MASK],
      [0.1, SECRET_MASK],
    ]);
    expect(secretOf((await api.get(`/api/v1/services/storageServices/${id}/versions/0.1`)).body as Body)).toBe(SECRET_MASK);
    expect(secretOf(api.ctx.store.get(id)!.history[0]!)).toBe('kept-secret');
  });
});
