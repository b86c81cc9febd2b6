import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

let c: TestApp;
let n = 0;
beforeAll(async () => {
  c = await startApp({ at: T0 });
}, SLOW_START);

/** A fresh classification with tags `a`, `b` (and whatever else is asked). */
async function classification(extra: Record<string, unknown> = {}, tags = ['a', 'b']): Promise<{ id: string; name: string }> {
  const name = `Class${++n}`;
  const res = await c.post('/api/v1/classifications', { name, description: 'd', ...extra }).expect(201);
  for (const tag of tags) await c.post('/api/v1/tags', { name: tag, description: 'd', classification: name }).expect(201);
  return { id: res.body.id, name };
}

const label = (tagFQN: string) => ({ tagFQN, source: 'Classification', labelType: 'Manual', state: 'Confirmed' });

describe('POST and PUT classifications (contract "Classification"; docs/behaviour.md "Classifications and tags")', () => {
  it('defaults: mutuallyExclusive false, provider user, version 0.1, FQN = name', async () => {
    const res = await c.post('/api/v1/classifications', { name: 'Plain' }).expect(201);
    expect(res.body).toMatchObject({ name: 'Plain', fullyQualifiedName: 'Plain', mutuallyExclusive: false, provider: 'user', version: 0.1, deleted: false });
  });

  it('mutuallyExclusive and provider are stored as sent', async () => {
    const res = await c.post('/api/v1/classifications', { name: 'Tier9', mutuallyExclusive: true, provider: 'system' }).expect(201);
    expect(res.body).toMatchObject({ mutuallyExclusive: true, provider: 'system' });
    await c.post('/api/v1/classifications', { name: 'Tier9' }).expect(409);
    await c.post('/api/v1/classifications', { name: 'Bad', provider: 'robot' }).expect(400);
  });

  it('PUT creates (201), updates (200, +0.1), and leaves an unchanged one as it is (200, same version)', async () => {
    const created = await c.put('/api/v1/classifications', { name: 'Upserted', description: 'one' }).expect(201);
    expect(created.body.version).toBe(0.1);
    const updated = await c.put('/api/v1/classifications', { name: 'Upserted', description: 'two' }).expect(200);
    expect(updated.body).toMatchObject({ id: created.body.id, description: 'two', version: 0.2 });
    const same = await c.put('/api/v1/classifications', { name: 'Upserted', description: 'two' }).expect(200);
    expect(same.body.version).toBe(0.2);
  });

  it('mutuallyExclusive cannot be changed after creation: a PUT with another value keeps it (docs/behaviour.md "Classifications and tags")', async () => {
    await c.put('/api/v1/classifications', { name: 'Fixed', mutuallyExclusive: true }).expect(201);
    const res = await c.put('/api/v1/classifications', { name: 'Fixed', mutuallyExclusive: false }).expect(200);
    expect(res.body.mutuallyExclusive).toBe(true);
    expect(res.body.version).toBe(0.1);
  });
});

describe('tags in classifications (docs/behaviour.md "Classifications and tags")', () => {
  it('a tag FQN is <classification>.<tag>, a nested one <classification>.<parent>.<child>; ?parent lists them', async () => {
    const k = await classification({}, []);
    const tag = await c.post('/api/v1/tags', { name: 'Sensitive', classification: k.name }).expect(201);
    expect(tag.body).toMatchObject({ fullyQualifiedName: `${k.name}.Sensitive`, classification: { id: k.id, type: 'classification' } });
    const child = await c.post('/api/v1/tags', { name: 'Email', classification: k.name, parent: `${k.name}.Sensitive` }).expect(201);
    expect(child.body.fullyQualifiedName).toBe(`${k.name}.Sensitive.Email`);
    const listed = await c.get(`/api/v1/tags?parent=${k.name}`).expect(200);
    expect(listed.body.data.map((t: { fullyQualifiedName: string }) => t.fullyQualifiedName).sort()).toEqual([`${k.name}.Sensitive`, `${k.name}.Sensitive.Email`]);
  });

  it('a tag in an unknown classification is 404', async () => {
    await c.post('/api/v1/tags', { name: 'x', classification: 'NoSuchClass' }).expect(404);
  });
});

describe('applying tags to entities (docs/behaviour.md "Classifications and tags")', () => {
  it('tags of a non-exclusive classification can be applied together; labels are completed', async () => {
    const k = await classification();
    const t = await createTable(c, undefined, undefined, { tags: [{ tagFQN: `${k.name}.a` }, { tagFQN: `${k.name}.b` }] });
    expect(t.body.tags).toEqual([
      { ...label(`${k.name}.a`), name: 'a', description: 'd' },
      { ...label(`${k.name}.b`), name: 'b', description: 'd' },
    ]);
  });

  it('an unknown tag is 404 on create, PUT and PATCH', async () => {
    const t = await createTable(c);
    const create = await c.post('/api/v1/tables', { name: 'tagged_unknown', databaseSchema: 'svc.db.sch', columns: [], tags: [label('Nope.tag')] }).expect(404);
    expect(create.body.message).toBe('tag instance for Nope.tag not found');
    await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/tags', value: [label('Nope.tag')] }]).expect(404);
    await c.put('/api/v1/tables', { name: t.name, databaseSchema: 'svc.db.sch', columns: [], tags: [label('Nope.tag')] }).expect(404);
  });

  it('a column tag is checked too', async () => {
    const res = await c.post('/api/v1/tables', { name: 'col_tag', databaseSchema: 'svc.db.sch', columns: [{ name: 'x', dataType: 'INT', tags: [label('Nope.col')] }] });
    expect(res.status).toBe(404);
  });

  it('two tags of a mutually exclusive classification are 400 on create and PATCH', async () => {
    const k = await classification({ mutuallyExclusive: true });
    const res = await c.post('/api/v1/tables', { name: 'exclusive', databaseSchema: 'svc.db.sch', columns: [], tags: [label(`${k.name}.a`), label(`${k.name}.b`)] }).expect(400);
    expect(res.body.message).toBe(`Tag labels ${k.name}.b and ${k.name}.a are mutually exclusive and can't be assigned together`);
    const t = await createTable(c, undefined, undefined, { tags: [label(`${k.name}.a`)] });
    await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/tags/-', value: label(`${k.name}.b`) }]).expect(400);
    const kept = await c.get(`/api/v1/tables/${t.id}`).expect(200);
    expect(kept.body.tags.map((l: { tagFQN: string }) => l.tagFQN)).toEqual([`${k.name}.a`]);
    expect(kept.body.version).toBe(0.1);
  });

  it('a PUT that merges a second exclusive tag into the stored one is 400 (PUT merges tags, docs/behaviour.md "Upsert")', async () => {
    const k = await classification({ mutuallyExclusive: true });
    const t = await createTable(c, undefined, undefined, { tags: [label(`${k.name}.a`)] });
    await c.put('/api/v1/tables', { name: t.name, databaseSchema: 'svc.db.sch', columns: t.body.columns, tags: [label(`${k.name}.b`)] }).expect(400);
  });

  it('a tag of a disabled classification is 400', async () => {
    const k = await classification();
    await c.patch(`/api/v1/classifications/${k.id}`, [{ op: 'add', path: '/disabled', value: true }]).expect(200);
    const res = await c.post('/api/v1/tables', { name: 'disabled_tag', databaseSchema: 'svc.db.sch', columns: [], tags: [label(`${k.name}.a`)] }).expect(400);
    expect(res.body.message).toBe(`Tag label ${k.name}.a is disabled and can't be assigned to a data asset.`);
  });
});

describe('deleting classifications (docs/behaviour.md "Recursive delete", "Classifications and tags")', () => {
  it('a system classification cannot be deleted, soft or hard (400), and stays', async () => {
    const k = await classification({ provider: 'system' }, []);
    const soft = await c.delete(`/api/v1/classifications/${k.id}`).expect(400);
    expect(soft.body.message).toBe(`System entity [${k.name}] of type classification can not be deleted.`);
    await c.delete(`/api/v1/classifications/${k.id}?hardDelete=true&recursive=true`).expect(400);
    expect((await c.get(`/api/v1/classifications/${k.id}`).expect(200)).body.deleted).toBe(false);
  });

  it('a user classification with tags needs recursive (400), then its tags go with it', async () => {
    const k = await classification();
    const notEmpty = await c.delete(`/api/v1/classifications/${k.id}?hardDelete=true`).expect(400);
    expect(notEmpty.body.message).toBe('classification is not empty');
    await c.delete(`/api/v1/classifications/${k.id}?hardDelete=true&recursive=true`).expect(204);
    await c.get(`/api/v1/tags/name/${k.name}.a`).expect(404);
    await c.get(`/api/v1/classifications/${k.id}`).expect(404);
  });
});

describe('roles (docs/behaviour.md "Authentication")', () => {
  it('401 without a token; DataConsumer 403 on create and update; DataSteward 403 on delete', async () => {
    const k = await classification();
    await c.post('/api/v1/classifications', { name: 'Denied' }, '').expect(401);
    await c.post('/api/v1/classifications', { name: 'Denied' }, c.tokens.consumer).expect(403);
    await c.put('/api/v1/classifications', { name: 'Denied' }, c.tokens.consumer).expect(403);
    await c.post('/api/v1/tags', { name: 'x', classification: k.name }, c.tokens.consumer).expect(403);
    await c.delete(`/api/v1/classifications/${k.id}?recursive=true`, c.tokens.steward).expect(403);
    await c.delete(`/api/v1/tags/name/${k.name}.a`, c.tokens.steward).expect(403);
    await c.get(`/api/v1/classifications/${k.id}`, c.tokens.consumer).expect(200);
    await c.post('/api/v1/classifications', { name: 'BySteward' }, c.tokens.steward).expect(201);
  });
});
