/**
 * The create rules: POST (docs/behaviour.md "Create"), PUT upsert ("Upsert") and PUT /bulk
 * ("Bulk upsert"), for every kind (src/kinds/index.ts) that the kind table of the test kit knows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS as SERVED } from '../../kinds/index.ts';
import type { TestApp, Body } from '../../../test/kit.ts';
import { KINDS, createOne, expectError, kind, startApp, tokenFor, v1 } from '../../../test/kit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let api: TestApp;
beforeAll(async () => {
  api = await startApp();
});

/** What a request field looks like in the response: a FQN string becomes a reference to it. */
function expectEchoed(request: Body, body: Body): void {
  for (const [key, value] of Object.entries(request)) {
    const shown = body[key];
    if (key === 'columns' && Array.isArray(value)) {
      // Each column as given, named by the server `<entity FQN>.<column>` (src/core/column-names.ts).
      expect(shown, key).toEqual(value.map((column: Body) => ({ ...column, fullyQualifiedName: `${String(body.fullyQualifiedName)}.${String(column.name)}` })));
    } else if (typeof value === 'string' && shown !== null && typeof shown === 'object') {
      expect((shown as Body).fullyQualifiedName, key).toBe(value);
      expect((shown as Body).id, key).toMatch(UUID);
    } else {
      expect(shown, key).toEqual(value);
    }
  }
}

describe('POST creates an entity with every given property and the system fields (contract "Create" rule 1)', () => {
  it.each(KINDS.map((k) => [k.type, k] as const))(
    'POST %s answers 201 with id, FQN, version 0.1, updatedAt, updatedBy, href, deleted false and empty arrays',
    async (_type, kindCase) => {
      const scope = await kindCase.scope(api);
      const name = api.unique(kindCase.type);
      const request = { ...scope.request(name), displayName: `The ${name}`, description: `About ${name}` };
      const before = Date.now();
      const res = await api.post(v1(kindCase.collection), request);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const body = res.body as Body;
      expectEchoed(request, body);
      expect(body.id).toMatch(UUID);
      expect(body.fullyQualifiedName).toBe(scope.parentFqn ? `${scope.parentFqn}.${name}` : name);
      expect(body.version).toBe(0.1);
      expect(body.updatedAt).toBeGreaterThanOrEqual(before);
      expect(body.updatedAt).toBeLessThanOrEqual(Date.now());
      expect(body.updatedBy).toBe('admin');
      expect(body.deleted).toBe(false);
      expect(body.href).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/v1/${kindCase.collection}/${String(body.id)}$`));
      expect(res.headers.location).toBe(body.href);
      expect(body.owners).toEqual([]);
      const def = SERVED.find((k) => k.type === kindCase.type)!;
      // A classification has no tags (the interface's classification fields).
      expect(body.tags).toEqual(def.emptyArrays.includes('tags') ? [] : undefined);
      expect(body.changeDescription).toBeUndefined();
      for (const field of def.emptyArrays) expect(body[field], field).toEqual([]);
      if (def.votable) expect(body.votes).toEqual({ upVotes: 0, downVotes: 0, upVoters: [], downVoters: [] });
    },
  );

  it('POST storageService by a DataSteward records the token user as updatedBy', async () => {
    const steward = await tokenFor('DataSteward', 'stella');
    const res = await api.post(v1('services/storageServices'), (await kind('storageService').scope(api)).request(api.unique('svc')), steward);
    expect(res.status).toBe(201);
    expect(res.body.updatedBy).toBe('stella');
  });

  it('POST of a name with dots quotes it in the FQN: service "a.b", container "a.b"."c.d", reachable by that FQN', async () => {
    const svcName = api.unique('sales.eu');
    const svc = await api.create('services/storageServices', { name: svcName, serviceType: 'S3', connection: { config: { type: 'S3' } } });
    expect(svc.fullyQualifiedName).toBe(`"${svcName}"`);
    const container = await api.create('containers', { name: 'raw.v1', service: svc.fullyQualifiedName });
    expect(container.fullyQualifiedName).toBe(`"${svcName}"."raw.v1"`);
    expect(container.service).toMatchObject({ id: svc.id, type: 'storageService', name: svcName, fullyQualifiedName: `"${svcName}"` });
    const byName = await api.get(v1('containers', `/name/${encodeURIComponent(String(container.fullyQualifiedName))}`));
    expect(byName.status).toBe(200);
    expect(byName.body.id).toBe(container.id);
  });

  it('POST of a nested container gives the FQN service.parent.child and references to its parent and service', async () => {
    const { entity: parent, scope } = await createOne(api, kind('container'));
    const child = await api.create('containers', { name: 'child', service: scope.parentFqn, parent: { id: parent.id, type: 'container' } });
    expect(child.fullyQualifiedName).toBe(`${scope.parentFqn}.${String(parent.name)}.child`);
    expect(child.parent).toMatchObject({ id: parent.id, type: 'container', fullyQualifiedName: parent.fullyQualifiedName });
    expect(child.service).toMatchObject({ fullyQualifiedName: scope.parentFqn, type: 'storageService' });
    expect(child.serviceType).toBe('S3');
    const grandchild = await api.create('containers', { name: 'g.c', service: scope.parentFqn, parent: { id: child.id, type: 'container' } });
    expect(grandchild.fullyQualifiedName).toBe(`${String(child.fullyQualifiedName)}."g.c"`);
  });

  it('POST of a database schema and a table inherits service and database from the parent chain', async () => {
    const { entity: table, scope } = await createOne(api, kind('table'));
    expect(table.databaseSchema).toMatchObject({ type: 'databaseSchema', fullyQualifiedName: scope.parentFqn });
    expect(table.database).toMatchObject({ type: 'database' });
    expect(table.service).toMatchObject({ type: 'databaseService' });
    expect(table.serviceType).toBe('Mysql');
    expect(String(table.fullyQualifiedName).split('.')).toHaveLength(4);
  });

  it.each([
    { given: 'a double quote', name: 'bad"name' },
    { given: 'a greater-than sign', name: 'a>b' },
    { given: 'a control character (tab)', name: 'a\tb' },
    { given: 'a line break', name: 'a\nb' },
    { given: 'two colons', name: 'a::b' },
  ])('POST of a name with $given gives 400 naming the pattern of OpenMetadata 2.0 (basic.json entityName)', async ({ name }) => {
    const res = await api.post(v1('classifications'), { name, description: 'x' });
    expectError(res, 400, 'BAD_REQUEST', /^\[name must match pattern /);
  });

  it('POST of a name with a double quote gives 400 Invalid name in profile openmetadata-1.10, whose pattern refuses only ::', async () => {
    const old = await startApp({ profile: 'openmetadata-1.10' });
    try {
      const quoted = await old.post(v1('classifications'), { name: 'bad"name', description: 'x' });
      expect([quoted.status, quoted.body.message]).toEqual([400, 'Invalid name bad"name']);
      const arrow = await old.post(v1('classifications'), { name: 'a>b', description: 'x' });
      expect(arrow.status).toBe(201);
    } finally {
      await old.close();
    }
  });

  it('POST of a container under an unknown service gives 404 storageService instance for <fqn> not found', async () => {
    const res = await api.post(v1('containers'), { name: 'c', service: 'no_such_service' });
    expectError(res, 404, 'NOT_FOUND', 'storageService instance for no_such_service not found');
  });
});

describe('POST of a name that exists in its scope gives 409, soft-deleted or not (contract "Create" rule 2)', () => {
  it.each(KINDS.map((k) => [k.type, k] as const))('POST %s twice in one scope answers 409 Entity already exists and stores nothing', async (_type, kindCase) => {
    const { entity, scope } = await createOne(api, kindCase);
    const res = await api.post(v1(kindCase.collection), scope.request(String(entity.name)));
    expectError(res, 409, 'ENTITY_ALREADY_EXISTS', 'Entity already exists');
    const list = await api.get(`${v1(kindCase.collection)}?limit=0&include=all`);
    const same = [...api.ctx.store.all()].filter((s) => s.entity.fullyQualifiedName === entity.fullyQualifiedName && s.type === kindCase.type);
    expect(same).toHaveLength(1);
    expect(list.status).toBe(200);
  });

  it.each(['storageService', 'container', 'database', 'table', 'topic', 'classification', 'tag', 'apiEndpoint'].map((t) => [t, kind(t)] as const))(
    'POST %s with the name of a soft-deleted one answers 409',
    async (_type, kindCase) => {
      const { entity, scope } = await createOne(api, kindCase);
      expect((await api.delete(v1(kindCase.collection, `/${String(entity.id)}`))).status).toBe(200);
      const res = await api.post(v1(kindCase.collection), scope.request(String(entity.name)));
      expectError(res, 409, 'ENTITY_ALREADY_EXISTS', 'Entity already exists');
    },
  );

  it.each(['container', 'database', 'chart', 'databaseSchema', 'table', 'tag', 'apiEndpoint', 'mlmodel'].map((t) => [t, kind(t)] as const))(
    'POST %s with a name used in another scope answers 201 (the scope is the parent)',
    async (_type, kindCase) => {
      const { entity } = await createOne(api, kindCase);
      const other = await kindCase.scope(api);
      const res = await api.post(v1(kindCase.collection), other.request(String(entity.name)));
      expect(res.status).toBe(201);
      expect(res.body.fullyQualifiedName).toBe(`${other.parentFqn}.${String(entity.name)}`);
    },
  );

  it('twenty parallel POSTs of one name: exactly one 201, nineteen 409; twenty parallel PUTs: one 201, nineteen 200', async () => {
    const scope = await kind('chart').scope(api);
    const posts = await Promise.all(Array.from({ length: 20 }, () => api.post(v1('charts'), scope.request('race'))));
    expect(posts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(posts.filter((r) => r.status === 409)).toHaveLength(19);
    const request = scope.request('race_put');
    const puts = await Promise.all(Array.from({ length: 20 }, () => api.put(v1('charts'), request)));
    expect(puts.map((r) => r.status).sort()).toEqual([...Array<number>(19).fill(200), 201]);
    expect(new Set(puts.map((r) => r.body.id)).size).toBe(1);
    expect(puts.every((r) => r.body.version === 0.1)).toBe(true);
  });

  it('POST of a nested container with the name of a top-level container of the same service answers 201', async () => {
    const { entity: parent, scope } = await createOne(api, kind('container'));
    await api.create('containers', { name: 'logs', service: scope.parentFqn });
    const res = await api.post(v1('containers'), { name: 'logs', service: scope.parentFqn, parent: { id: parent.id, type: 'container' } });
    expect(res.status).toBe(201);
    const again = await api.post(v1('containers'), { name: 'logs', service: scope.parentFqn, parent: { id: parent.id, type: 'container' } });
    expectError(again, 409, 'ENTITY_ALREADY_EXISTS', 'Entity already exists');
  });
});

describe('PUT upserts by FQN: 201 created, 200 updated (+0.1), 200 unchanged; never 409 (contract "Create" rule 3)', () => {
  it.each(KINDS.map((k) => [k.type, k] as const))('PUT %s creates, then leaves unchanged, then updates', async (_type, kindCase) => {
    const scope = await kindCase.scope(api);
    const request = scope.request(api.unique(kindCase.type));
    const created = await api.put(v1(kindCase.collection), request);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers['x-openmetadata-change']).toBe('entityCreated');
    expect(created.headers.location).toBe(created.body.href);
    expect(created.body.version).toBe(0.1);

    const same = await api.put(v1(kindCase.collection), request);
    expect(same.status).toBe(200);
    expect(same.headers.location).toBeUndefined();
    expect(same.headers['x-openmetadata-change']).toBe('entityNoChange');
    expect(same.body).toMatchObject({ id: created.body.id, version: 0.1, updatedAt: created.body.updatedAt });

    const changed = await api.put(v1(kindCase.collection), { ...request, description: 'now described' });
    expect(changed.status).toBe(200);
    expect(changed.headers['x-openmetadata-change']).toBe('entityUpdated');
    expect(changed.body).toMatchObject({ id: created.body.id, version: 0.2, description: 'now described', deleted: false });
    const change = changed.body.changeDescription as { previousVersion: number; fieldsAdded: Body[]; fieldsUpdated: Body[] };
    expect(change.previousVersion).toBe(0.1);
    expect([...change.fieldsAdded, ...change.fieldsUpdated]).toEqual([expect.objectContaining({ name: 'description', newValue: 'now described' })]);

    const got = await api.get(v1(kindCase.collection, `/${String(created.body.id)}`));
    expect(got.body).toMatchObject({ version: 0.2, description: 'now described' });
  });

  it.each(['storageService', 'container', 'database', 'table', 'topic', 'classification', 'testCase'].map((t) => [t, kind(t)] as const))(
    'PUT %s over a soft-deleted one restores it and applies the update, keeping its id',
    async (_type, kindCase) => {
      const { entity, scope } = await createOne(api, kindCase);
      const deleted = await api.delete(v1(kindCase.collection, `/${String(entity.id)}`));
      expect(deleted.body.version).toBe(0.2);
      const res = await api.put(v1(kindCase.collection), { ...scope.request(String(entity.name)), description: 'back again' });
      expect(res.status).toBe(200);
      // Restore +0.1 (0.3), then the update +0.1 (docs/behaviour.md "Upsert", "Restore").
      expect(res.body).toMatchObject({ id: entity.id, deleted: false, version: 0.4, description: 'back again' });
      const got = await api.get(v1(kindCase.collection, `/${String(entity.id)}`));
      expect(got.status).toBe(200);
      expect(got.body.deleted).toBe(false);
    },
  );

  it('PUT of a soft-deleted service with an unchanged body restores it only (+0.1) and restores what its recursive delete took', async () => {
    const { entity: container, scope } = await createOne(api, kind('container'));
    const svc = await api.get(v1('services/storageServices', `/name/${scope.parentFqn}`));
    await api.delete(v1('services/storageServices', `/${String(svc.body.id)}?recursive=true`)).expect(200);
    const res = await api.put(v1('services/storageServices'), { name: svc.body.name, serviceType: 'S3', connection: { config: { type: 'S3' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: svc.body.id, deleted: false, version: 0.3 });
    const child = await api.get(v1('containers', `/${String(container.id)}`));
    expect(child.status).toBe(200);
    expect(child.body).toMatchObject({ deleted: false, version: 0.3 });
  });

  it('PUT tags merges: a tag once applied stays when a later PUT omits it (docs/behaviour.md "Upsert")', async () => {
    const cls = await api.create('classifications', { name: api.unique('pii'), description: 'p' });
    const tag = await api.create('tags', { name: 'email', classification: cls.fullyQualifiedName, description: 't' });
    const scope = await kind('dashboard').scope(api);
    const request = scope.request(api.unique('dash'));
    await api.put(v1('dashboards'), { ...request, tags: [{ tagFQN: tag.fullyQualifiedName }] }).expect(201);
    const res = await api.put(v1('dashboards'), { ...request, tags: [] });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(0.1);
    expect((res.body.tags as Body[]).map((t) => t.tagFQN)).toEqual([tag.fullyQualifiedName]);
  });
});

describe('PUT /bulk creates or updates each item and reports each invalid one (contract "Create" rule 4; docs/behaviour.md "Bulk upsert")', () => {
  it.each(['storageService', 'container', 'dashboard', 'database', 'table', 'mlmodel', 'classification'].map((t) => [t, kind(t)] as const))(
    'PUT %s/bulk with new, changed and invalid items answers 200 partialSuccess with per-item results',
    async (_type, kindCase) => {
      const { entity: existing, scope } = await createOne(api, kindCase);
      const fresh = scope.request(api.unique('bulk'));
      const changed = { ...scope.request(String(existing.name)), description: 'bulk edit' };
      const invalid: Body = { ...scope.request(api.unique('bad')) };
      delete invalid[kindCase.requiredField ?? 'name'];
      const res = await api.put(v1(kindCase.collection, '/bulk'), [fresh, changed, invalid]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ dryRun: false, status: 'partialSuccess', numberOfRowsProcessed: 3, numberOfRowsPassed: 2, numberOfRowsFailed: 1 });
      const freshFqn = scope.parentFqn ? `${scope.parentFqn}.${String(fresh.name)}` : String(fresh.name);
      expect(res.body.successRequest).toEqual([
        { request: freshFqn, status: 201, message: 'created' },
        { request: existing.fullyQualifiedName, status: 200, message: 'updated' },
      ]);
      expect(res.body.failedRequest).toHaveLength(1);
      expect(res.body.failedRequest[0]).toMatchObject({ request: invalid, status: 400 });
      expect(res.body.failedRequest[0].message).toContain(`${kindCase.requiredField ?? 'name'} must not be null`);
      const updated = await api.get(v1(kindCase.collection, `/${String(existing.id)}`));
      expect(updated.body).toMatchObject({ version: 0.2, description: 'bulk edit' });
      const created = await api.get(v1(kindCase.collection, `/name/${encodeURIComponent(freshFqn)}`));
      expect(created.status).toBe(200);
    },
  );

  it('PUT containers/bulk reports an item naming an unknown service as 404 and applies the rest', async () => {
    const scope = await kind('container').scope(api);
    const good = scope.request(api.unique('ok'));
    const res = await api.put(v1('containers', '/bulk'), [{ name: 'orphan', service: 'missing_svc' }, good]);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('partialSuccess');
    expect(res.body.failedRequest).toEqual([{ request: { name: 'orphan', service: 'missing_svc' }, status: 404, message: 'storageService instance for missing_svc not found' }]);
    expect(res.body.successRequest).toEqual([{ request: `${scope.parentFqn}.${String(good.name)}`, status: 201, message: 'created' }]);
  });

  it('PUT databases/bulk where every item is invalid answers 200 with status failure; an empty array is success', async () => {
    const res = await api.put(v1('databases', '/bulk'), [{ name: 'x' }, { service: 'y' }]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failure', numberOfRowsProcessed: 2, numberOfRowsPassed: 0, numberOfRowsFailed: 2, successRequest: [] });
    const empty = await api.put(v1('databases', '/bulk'), []);
    expect(empty.body).toMatchObject({ status: 'success', numberOfRowsProcessed: 0 });
  });

  it('PUT /bulk with a body that is not an array answers 400', async () => {
    const res = await api.put(v1('databases', '/bulk'), { name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('BAD_REQUEST');
  });
});

describe('a missing required field or an invalid body gives 400 naming the field (contract "Create" rule 5)', () => {
  it.each(KINDS.filter((k) => k.requiredField).map((k) => [k.type, k.requiredField!, k] as const))(
    'POST and PUT %s without %s answer 400 "<field> must not be null"',
    async (_type, field, kindCase) => {
      const scope = await kindCase.scope(api);
      const request = scope.request(api.unique('missing'));
      delete request[field];
      for (const res of [await api.post(v1(kindCase.collection), request), await api.put(v1(kindCase.collection), request)]) {
        expectError(res, 400, 'BAD_REQUEST', new RegExp(`${field} must not be null`));
      }
    },
  );

  it.each(KINDS.map((k) => [k.type, k] as const))('POST %s without a name answers 400 "name must not be null"', async (_type, kindCase) => {
    const scope = await kindCase.scope(api);
    const request = scope.request('x');
    delete request.name;
    expectError(await api.post(v1(kindCase.collection), request), 400, 'BAD_REQUEST', /name must not be null/);
  });

  it('POST with a wrongly typed field, an unknown field or a body that is not JSON answers 400', async () => {
    const scope = await kind('container').scope(api);
    expectError(await api.post(v1('containers'), { ...scope.request('t'), numberOfObjects: 'many' }), 400, 'BAD_REQUEST', /numberOfObjects/);
    expectError(await api.post(v1('containers'), { ...scope.request('u'), colour: 'red' }), 400, 'BAD_REQUEST', /colour/);
    const broken = await api.post(v1('containers'), '{"name":').set('Content-Type', 'application/json');
    expect(broken.status).toBe(400);
    expect(broken.body.errorType).toBe('BAD_REQUEST');
  });

  it.each([
    {
      given: { name: false, service: 3 },
      want: [
        { path: '/body/name', message: 'name must be string' },
        { path: '/body/service', message: 'service must be string' },
      ],
    },
    {
      given: { service: 'nowhere', numberOfObjects: 'many', colour: 'red' },
      want: [
        { path: '/body/name', message: 'name must not be null' },
        { path: '/body/numberOfObjects', message: 'numberOfObjects must be number' },
        { path: '/body/colour', message: 'Unrecognized field "colour"' },
      ],
    },
  ])('a body with several problems is one 400 naming each of them: $given', async ({ given, want }) => {
    const res = await api.post(v1('containers'), given);
    expectError(res, 400, 'BAD_REQUEST');
    expect([...(res.body.details as { path: string; message: string }[])].sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [...want].sort((a, b) => a.path.localeCompare(b.path)),
    );
    for (const { message } of want) expect(res.body.message).toContain(message);
  });

  it('query parameters with several problems: one 400 naming each', async () => {
    const res = await api.get(`${v1('containers')}?limit=many&include=some`);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.message).toMatch(/query param limit must be integer/);
    expect(res.body.message).toMatch(/query param include must be equal to one of the allowed values/);
  });
});
