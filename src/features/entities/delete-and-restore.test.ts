/**
 * The delete rules: soft and hard delete by id and by name, recursive delete of a subtree, restore
 * (contract "States and transitions" and "Delete and restore"; docs/behaviour.md "Delete",
 * "Recursive delete", "Restore"), on all 9 delete/restore prefixes of the contract and the other
 * parents.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, Body, KindCase } from '../../../test/kit.ts';
import { createOne, databaseChain, expectError, kind, startApp, v1 } from '../../../test/kit.ts';

const UNKNOWN_ID = '0b9a5d2e-7c1f-4e3a-9b8d-6f5e4d3c2b1a';
/** The prefixes of contract "Delete and restore", as kinds. */
const CONTRACT_PREFIXES = ['apiCollection', 'database', 'storageService', 'topic', 'pipeline', 'testCase', 'dashboard', 'mlmodel', 'chart'] as const;
const byType = (types: readonly string[]): [string, KindCase][] => types.map((t) => [t, kind(t)]);
const enc = (fqn: unknown): string => encodeURIComponent(String(fqn));

let api: TestApp;
beforeAll(async () => {
  api = await startApp();
});

async function expectGone(kindCase: KindCase, entity: Body): Promise<void> {
  for (const include of ['non-deleted', 'deleted', 'all']) {
    expectError(
      await api.get(v1(kindCase.collection, `/${String(entity.id)}?include=${include}`)),
      404,
      'NOT_FOUND',
      `${kindCase.type} instance for ${String(entity.id)} not found`,
    );
    expectError(
      await api.get(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}?include=${include}`)),
      404,
      'NOT_FOUND',
      `${kindCase.type} instance for ${String(entity.fullyQualifiedName)} not found`,
    );
  }
  expect((await api.get(v1(kindCase.collection, `/${String(entity.id)}/versions`))).status).toBe(404);
}

async function listIds(kindCase: KindCase, query: string): Promise<{ ids: string[]; total: number }> {
  const res = await api.get(`${v1(kindCase.collection)}?limit=1000&${query}`);
  expect(res.status).toBe(200);
  return { ids: (res.body.data as Body[]).map((e) => String(e.id)), total: Number(res.body.paging.total) };
}

describe('soft delete by id or by name marks the entity deleted, +0.1, and hides it unless include says otherwise', () => {
  it.each(byType([...CONTRACT_PREFIXES, 'container', 'table', 'tag']))('DELETE %s by id answers 200 with deleted true and version 0.2', async (_type, kindCase) => {
    const { entity, scope } = await createOne(api, kindCase);
    const res = await api.delete(v1(kindCase.collection, `/${String(entity.id)}`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['x-openmetadata-change']).toBe('entitySoftDeleted');
    expect(res.body).toMatchObject({ id: entity.id, fullyQualifiedName: entity.fullyQualifiedName, deleted: true, version: 0.2, updatedBy: 'admin' });
    expect(res.body.changeDescription).toMatchObject({ previousVersion: 0.1, fieldsUpdated: [{ name: 'deleted', oldValue: false, newValue: true }] });

    expectError(await api.get(v1(kindCase.collection, `/${String(entity.id)}`)), 404, 'NOT_FOUND', `${kindCase.type} instance for ${String(entity.id)} not found`);
    expectError(
      await api.get(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}`)),
      404,
      'NOT_FOUND',
      `${kindCase.type} instance for ${String(entity.fullyQualifiedName)} not found`,
    );
    for (const include of ['deleted', 'all']) {
      const byId = await api.get(v1(kindCase.collection, `/${String(entity.id)}?include=${include}`));
      expect(byId.body).toMatchObject({ id: entity.id, deleted: true, version: 0.2 });
      const byName = await api.get(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}?include=${include}`));
      expect(byName.body).toMatchObject({ id: entity.id, deleted: true });
    }
    const filter = scope.filter ? `${new URLSearchParams(scope.filter).toString()}&` : '';
    expect((await listIds(kindCase, `${filter}`)).ids).not.toContain(entity.id);
    expect((await listIds(kindCase, `${filter}include=deleted`)).ids).toContain(entity.id);
    expect((await listIds(kindCase, `${filter}include=all`)).ids).toContain(entity.id);
  });

  it.each(byType(['storageService', 'container', 'database', 'topic', 'classification']))(
    'DELETE %s by name answers 200 with deleted true and version 0.2',
    async (_type, kindCase) => {
      const { entity } = await createOne(api, kindCase);
      const res = await api.delete(v1(kindCase.collection, `/name/${enc(entity.fullyQualifiedName)}`));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: entity.id, deleted: true, version: 0.2 });
      expect((await api.get(v1(kindCase.collection, `/${String(entity.id)}`))).status).toBe(404);
    },
  );

  it('soft delete changes paging.total of the default list and of include=deleted by one each', async () => {
    const kindCase = kind('mlmodel');
    const { entity, scope } = await createOne(api, kindCase);
    await api.create('mlmodels', scope.request(api.unique('other')));
    const filter = `service=${enc(scope.parentFqn)}`;
    expect((await listIds(kindCase, filter)).total).toBe(2);
    await api.delete(v1('mlmodels', `/${String(entity.id)}`)).expect(200);
    expect((await listIds(kindCase, filter)).total).toBe(1);
    expect((await listIds(kindCase, `${filter}&include=deleted`)).total).toBe(1);
    expect((await listIds(kindCase, `${filter}&include=all`)).total).toBe(2);
  });
});

describe('hard delete removes the entity for good: 204 in profile contract, 404 afterwards for every include', () => {
  it.each(byType(['storageService', 'container', 'table', 'dashboard', 'testCase', 'tag']))('DELETE %s?hardDelete=true answers 204 with no body', async (_type, kindCase) => {
    const { entity } = await createOne(api, kindCase);
    const res = await api.delete(v1(kindCase.collection, `/${String(entity.id)}?hardDelete=true`));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await expectGone(kindCase, entity);
    expect((await listIds(kindCase, 'include=all')).ids).not.toContain(entity.id);
    expectError(
      await api.delete(v1(kindCase.collection, `/${String(entity.id)}?hardDelete=true`)),
      404,
      'NOT_FOUND',
      `${kindCase.type} instance for ${String(entity.id)} not found`,
    );
  });

  it('hard delete by name of a soft-deleted database answers 204; the name is free again', async () => {
    const kindCase = kind('database');
    const { entity, scope } = await createOne(api, kindCase);
    await api.delete(v1('databases', `/${String(entity.id)}`)).expect(200);
    const res = await api.delete(v1('databases', `/name/${enc(entity.fullyQualifiedName)}?hardDelete=true`));
    expect(res.status).toBe(204);
    await expectGone(kindCase, entity);
    const again = await api.post(v1('databases'), scope.request(String(entity.name)));
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(entity.id);
    expect(again.body.version).toBe(0.1);
  });

  it('profile openmetadata: hard delete answers 200 with the entity as it was, then 404', async () => {
    const om = await startApp({ profile: 'openmetadata' });
    try {
      const svc = await om.create('services/storageServices', { name: om.unique('svc'), serviceType: 'S3' });
      const res = await om.delete(v1('services/storageServices', `/${String(svc.id)}?hardDelete=true`));
      expect(res.status).toBe(200);
      expect(res.headers['x-openmetadata-change']).toBe('entityDeleted');
      expect(res.body).toMatchObject({ id: svc.id, name: svc.name, version: 0.1, deleted: false });
      expect(res.body.errorType).toBeUndefined();
      const gone = await om.get(v1('services/storageServices', `/${String(svc.id)}?include=all`));
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ code: 404, message: `storageService instance for ${String(svc.id)} not found` });
    } finally {
      await om.close();
    }
  });
});

/** Parent kinds with a child kind, and how to create a child in a given parent. */
const PARENTS: [string, KindCase, (parent: Body) => [string, Body]][] = [
  ['storageService → container', kind('storageService'), (p) => ['containers', { name: api.unique('c'), service: p.fullyQualifiedName }]],
  [
    'container → container',
    kind('container'),
    (p) => ['containers', { name: api.unique('c'), service: (p.service as Body).fullyQualifiedName, parent: { id: p.id, type: 'container' } }],
  ],
  ['databaseService → database', kind('databaseService'), (p) => ['databases', { name: api.unique('db'), service: p.fullyQualifiedName }]],
  ['database → databaseSchema', kind('database'), (p) => ['databaseSchemas', { name: api.unique('s'), database: p.fullyQualifiedName }]],
  ['databaseSchema → table', kind('databaseSchema'), (p) => ['tables', { name: api.unique('t'), databaseSchema: p.fullyQualifiedName, columns: [{ name: 'a', dataType: 'INT' }] }]],
  [
    'apiCollection → apiEndpoint',
    kind('apiCollection'),
    (p) => ['apiEndpoints', { name: api.unique('e'), apiCollection: p.fullyQualifiedName, endpointURL: 'https://x.example/a' }],
  ],
  ['dashboardService → chart', kind('dashboardService'), (p) => ['charts', { name: api.unique('ch'), service: p.fullyQualifiedName }]],
  ['messagingService → topic', kind('messagingService'), (p) => ['topics', { name: api.unique('tp'), service: p.fullyQualifiedName, partitions: 3 }]],
  ['classification → tag', kind('classification'), (p) => ['tags', { name: api.unique('tg'), classification: p.fullyQualifiedName, description: 'd' }]],
];

describe('a parent with children is deleted only with recursive=true, and then with its whole subtree', () => {
  it.each(PARENTS)('DELETE %s parent without recursive answers 400 "<type> is not empty", soft and hard, and changes nothing', async (_label, parentKind, childOf) => {
    const { entity: parent } = await createOne(api, parentKind);
    const [childCollection, childRequest] = childOf(parent);
    const child = await api.create(childCollection, childRequest);
    for (const query of ['', '?hardDelete=true', '?recursive=false']) {
      expectError(await api.delete(v1(parentKind.collection, `/${String(parent.id)}${query}`)), 400, 'BAD_REQUEST', `${parentKind.type} is not empty`);
    }
    expectError(await api.delete(v1(parentKind.collection, `/name/${enc(parent.fullyQualifiedName)}`)), 400, 'BAD_REQUEST', `${parentKind.type} is not empty`);
    expect((await api.get(v1(parentKind.collection, `/${String(parent.id)}`))).body).toMatchObject({ deleted: false, version: 0.1 });
    expect((await api.get(v1(childCollection, `/${String(child.id)}`))).body).toMatchObject({ deleted: false, version: 0.1 });
  });

  it.each(PARENTS)('DELETE %s parent with recursive soft-deletes the child (+0.1); restoring the parent restores it (+0.1)', async (_label, parentKind, childOf) => {
    const { entity: parent } = await createOne(api, parentKind);
    const [childCollection, childRequest] = childOf(parent);
    const child = await api.create(childCollection, childRequest);
    const res = await api.delete(v1(parentKind.collection, `/${String(parent.id)}?recursive=true`));
    expect(res.body).toMatchObject({ deleted: true, version: 0.2 });
    expect((await api.get(v1(childCollection, `/${String(child.id)}`))).status).toBe(404);
    expect((await api.get(v1(childCollection, `/${String(child.id)}?include=deleted`))).body).toMatchObject({ deleted: true, version: 0.2 });
    const restored = await api.put(v1(parentKind.collection, '/restore'), { id: parent.id });
    expect(restored.body).toMatchObject({ deleted: false, version: 0.3 });
    expect((await api.get(v1(childCollection, `/${String(child.id)}`))).body).toMatchObject({ deleted: false, version: 0.3 });
  });

  it('recursive soft delete of a database service reaches databases, schemas and tables; restore brings all back', async () => {
    const chain = await databaseChain(api);
    const table = await api.create('tables', { name: api.unique('t'), databaseSchema: chain.schema.fullyQualifiedName, columns: [{ name: 'a', dataType: 'INT' }] });
    const res = await api.delete(v1('services/databaseServices', `/name/${enc(chain.service.fullyQualifiedName)}?recursive=true`));
    expect(res.body).toMatchObject({ deleted: true, version: 0.2 });
    const members: [string, Body][] = [
      ['databases', chain.database],
      ['databaseSchemas', chain.schema],
      ['tables', table],
    ];
    for (const [collection, entity] of members) {
      expect((await api.get(v1(collection, `/${String(entity.id)}?include=all`))).body, collection).toMatchObject({ deleted: true, version: 0.2 });
    }
    await api.put(`${v1('services/databaseServices', '/restore')}?id=${String(chain.service.id)}`).expect(200);
    for (const [collection, entity] of members) {
      expect((await api.get(v1(collection, `/${String(entity.id)}`))).body, collection).toMatchObject({ deleted: false, version: 0.3 });
    }
  });

  it('restoring a parent leaves deleted a child that was soft-deleted on its own before the recursive delete', async () => {
    const { entity: svc } = await createOne(api, kind('storageService'));
    const kept = await api.create('containers', { name: 'kept', service: svc.fullyQualifiedName });
    const gone = await api.create('containers', { name: 'gone', service: svc.fullyQualifiedName });
    await api.delete(v1('containers', `/${String(gone.id)}`)).expect(200);
    await api.delete(v1('services/storageServices', `/${String(svc.id)}?recursive=true`)).expect(200);
    expect((await api.get(v1('containers', `/${String(gone.id)}?include=all`))).body.version).toBe(0.2);
    await api.put(v1('services/storageServices', '/restore'), { id: svc.id }).expect(200);
    expect((await api.get(v1('containers', `/${String(kept.id)}`))).body).toMatchObject({ deleted: false, version: 0.3 });
    expect((await api.get(v1('containers', `/${String(gone.id)}?include=all`))).body).toMatchObject({ deleted: true, version: 0.2 });
  });

  it('a parent whose only child is soft-deleted still needs recursive (children counted with include=all, docs/behaviour.md "Recursive delete")', async () => {
    const { entity: coll } = await createOne(api, kind('apiCollection'));
    const endpoint = await api.create('apiEndpoints', { name: 'e', apiCollection: coll.fullyQualifiedName, endpointURL: 'https://x.example/e' });
    await api.delete(v1('apiEndpoints', `/${String(endpoint.id)}`)).expect(200);
    expectError(await api.delete(v1('apiCollections', `/${String(coll.id)}`)), 400, 'BAD_REQUEST', 'apiCollection is not empty');
  });

  it('recursive hard delete of a nested container tree removes every descendant', async () => {
    const { entity: top, scope } = await createOne(api, kind('container'));
    const mid = await api.create('containers', { name: 'mid', service: scope.parentFqn, parent: { id: top.id, type: 'container' } });
    const leaf = await api.create('containers', { name: 'leaf', service: scope.parentFqn, parent: { id: mid.id, type: 'container' } });
    expect((await api.delete(v1('containers', `/${String(top.id)}?hardDelete=true&recursive=true`))).status).toBe(204);
    for (const entity of [top, mid, leaf]) await expectGone(kind('container'), entity);
    const svc = await api.get(v1('services/storageServices', `/name/${enc(scope.parentFqn)}?fields=*`));
    expect(svc.status, JSON.stringify(svc.body)).toBe(200);
    // The service is empty again: a plain delete works.
    expect((await api.delete(v1('services/storageServices', `/${String(svc.body.id)}?hardDelete=true`))).status).toBe(204);
  });

  it('recursive hard delete of an API collection removes its endpoints; the service can then go without recursive', async () => {
    const svc = await api.create('services/apiServices', { name: api.unique('apis'), serviceType: 'Rest', connection: { config: { type: 'Rest' } } });
    const coll = await api.create('apiCollections', { name: 'orders', service: svc.fullyQualifiedName });
    const endpoints = await Promise.all(
      ['list', 'get'].map((name) => api.create('apiEndpoints', { name, apiCollection: coll.fullyQualifiedName, endpointURL: `https://x.example/${name}` })),
    );
    expect((await api.delete(v1('apiCollections', `/${String(coll.id)}?hardDelete=true&recursive=true`))).status).toBe(204);
    for (const endpoint of endpoints) await expectGone(kind('apiEndpoint'), endpoint);
    expect((await api.delete(v1('services/apiServices', `/${String(svc.id)}?hardDelete=true`))).status).toBe(204);
  });
});

describe('restore takes the id in the body or in ?id=, answers the restored entity (+0.1), 404 unknown, 400 not deleted', () => {
  it.each(byType(['container', 'database', 'topic', 'testCase', 'classification']))('PUT %s/restore with {id} and with ?id= restores it', async (_type, kindCase) => {
    const { entity } = await createOne(api, kindCase);
    await api.delete(v1(kindCase.collection, `/${String(entity.id)}`)).expect(200);
    const res = await api.put(v1(kindCase.collection, '/restore'), { id: entity.id });
    expect(res.status).toBe(200);
    expect(res.headers['x-openmetadata-change']).toBe('entityRestored');
    expect(res.body).toMatchObject({ id: entity.id, deleted: false, version: 0.3 });
    expect(res.body.changeDescription).toMatchObject({ previousVersion: 0.2, fieldsUpdated: [{ name: 'deleted', oldValue: true, newValue: false }] });
    expect((await api.get(v1(kindCase.collection, `/${String(entity.id)}`))).body.version).toBe(0.3);

    await api.delete(v1(kindCase.collection, `/${String(entity.id)}`)).expect(200);
    const byQuery = await api.put(`${v1(kindCase.collection, '/restore')}?id=${String(entity.id)}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toMatchObject({ id: entity.id, deleted: false, version: 0.5 });
  });

  it.each(byType(['container', 'database', 'topic', 'testCase']))('PUT %s/restore of an unknown id answers 404; of an entity that is not deleted, 400', async (_type, kindCase) => {
    expectError(await api.put(v1(kindCase.collection, '/restore'), { id: UNKNOWN_ID }), 404, 'NOT_FOUND', `${kindCase.type} instance for ${UNKNOWN_ID} not found`);
    const { entity } = await createOne(api, kindCase);
    expectError(await api.put(v1(kindCase.collection, '/restore'), { id: entity.id }), 400, 'BAD_REQUEST', /is not deleted/);
    expect((await api.get(v1(kindCase.collection, `/${String(entity.id)}`))).body.version).toBe(0.1);
  });

  it('PUT restore without an id, with a malformed id, or with the id of another kind answers 400 / 400 / 404', async () => {
    expectError(await api.put(v1('databases', '/restore'), {}), 400, 'BAD_REQUEST', /id/);
    expect((await api.put(v1('databases', '/restore'), { id: 'not-a-uuid' })).status).toBe(400);
    const { entity } = await createOne(api, kind('topic'));
    await api.delete(v1('topics', `/${String(entity.id)}`)).expect(200);
    expectError(await api.put(v1('databases', '/restore'), { id: entity.id }), 404, 'NOT_FOUND', `database instance for ${String(entity.id)} not found`);
  });

  it('restoring a child whose parent is soft-deleted answers 400 and leaves it deleted', async () => {
    const { entity: db } = await createOne(api, kind('database'));
    const schema = await api.create('databaseSchemas', { name: 's', database: db.fullyQualifiedName });
    await api.delete(v1('databases', `/${String(db.id)}?recursive=true`)).expect(200);
    expectError(await api.put(v1('databaseSchemas', '/restore'), { id: schema.id }), 400, 'BAD_REQUEST', /parent database .* is deleted/);
    expect((await api.get(v1('databaseSchemas', `/${String(schema.id)}?include=all`))).body.deleted).toBe(true);
  });
});

describe('all 9 delete/restore prefixes of the contract work on entities created through the API', () => {
  it.each(byType(CONTRACT_PREFIXES))('%s: soft delete by id, restore, soft delete by name, restore by ?id=, hard delete by name', async (_type, kindCase) => {
    const { entity } = await createOne(api, kindCase);
    const path = (suffix: string) => v1(kindCase.collection, suffix);
    expect((await api.delete(path(`/${String(entity.id)}`))).body).toMatchObject({ deleted: true, version: 0.2 });
    expect((await api.put(path('/restore'), { id: entity.id })).body).toMatchObject({ deleted: false, version: 0.3 });
    expect((await api.delete(path(`/name/${enc(entity.fullyQualifiedName)}`))).body).toMatchObject({ deleted: true, version: 0.4 });
    expect((await api.put(`${path('/restore')}?id=${String(entity.id)}`)).body).toMatchObject({ deleted: false, version: 0.5 });
    const history = await api.get(path(`/${String(entity.id)}/versions`));
    expect((history.body.versions as string[]).map((v) => (JSON.parse(v) as Body).version)).toEqual([0.5, 0.4, 0.3, 0.2, 0.1]);
    expect((await api.delete(path(`/name/${enc(entity.fullyQualifiedName)}?hardDelete=true`))).status).toBe(204);
    await expectGone(kindCase, entity);
    const second = await createOne(api, kindCase);
    expect((await api.delete(path(`/${String(second.entity.id)}?hardDelete=true`))).status).toBe(204);
    expect((await api.get(path(`/${String(second.entity.id)}?include=all`))).status).toBe(404);
  });
});

describe('an unknown id or FQN gives 404 "<type> instance for <id|fqn> not found"', () => {
  it.each(byType([...CONTRACT_PREFIXES, 'container', 'table', 'classification', 'tag', 'databaseSchema']))(
    '%s: GET, DELETE, PATCH, versions of an unknown id or name answer 404 with the text',
    async (_type, kindCase) => {
      const idText = `${kindCase.type} instance for ${UNKNOWN_ID} not found`;
      const nameText = `${kindCase.type} instance for no.such"x" not found`;
      const path = (suffix: string) => v1(kindCase.collection, suffix);
      expectError(await api.get(path(`/${UNKNOWN_ID}`)), 404, 'NOT_FOUND', idText);
      expectError(await api.delete(path(`/${UNKNOWN_ID}`)), 404, 'NOT_FOUND', idText);
      expectError(await api.delete(path(`/${UNKNOWN_ID}?hardDelete=true`)), 404, 'NOT_FOUND', idText);
      expectError(await api.patch(path(`/${UNKNOWN_ID}`), [{ op: 'add', path: '/description', value: 'x' }]), 404, 'NOT_FOUND', idText);
      expectError(await api.get(path(`/${UNKNOWN_ID}/versions`)), 404, 'NOT_FOUND', idText);
      expectError(await api.get(path(`/name/${enc('no.such"x"')}`)), 404, 'NOT_FOUND', nameText);
      expectError(await api.delete(path(`/name/${enc('no.such"x"')}`)), 404, 'NOT_FOUND', nameText);
    },
  );

  it('a malformed UUID in a path answers 400, not 404 or 500', async () => {
    const res = await api.get(v1('containers', '/not-a-uuid'));
    expect(res.status).toBe(400);
    expect(res.body.errorType).toBe('BAD_REQUEST');
  });
});
