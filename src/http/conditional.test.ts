/**
 * Conditional requests (docs/behaviour.md "Conditional requests"): every entity GET carries a weak
 * ETag derived from the entity's version and updatedAt that changes with every change, followers
 * and votes included; If-None-Match with it is 304 (by id and by name); a stale If-Match on PUT,
 * PATCH or DELETE is 412 PRECONDITION_FAILED and changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { createTable, expectError, SLOW_START, startApp, storeDump, v1 } from '../../test/kit.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
}, SLOW_START);

const ETAG = /^W\/"(\d+\.\d)-(\d+)-[\w-]{12}"$/;
const STALE = 'The entity has been modified by another user. Please refresh and retry.';

async function tagOf(path: string): Promise<string> {
  const res = await app.get(path).expect(200);
  return String(res.headers.etag);
}

describe('ETag on entity reads', () => {
  it('is weak, names the version and updatedAt, and is the same by id, by name and whatever the fields', async () => {
    const t = await createTable(app);
    const byId = await app.get(v1('tables', `/${t.id}`)).expect(200);
    const tag = String(byId.headers.etag);
    expect(tag).toMatch(ETAG);
    const [, version, updatedAt] = ETAG.exec(tag)!;
    expect(Number(version)).toBe(byId.body.version);
    expect(Number(updatedAt)).toBe(byId.body.updatedAt);
    expect(await tagOf(v1('tables', `/name/${encodeURIComponent(t.fqn)}`))).toBe(tag);
    expect(await tagOf(v1('tables', `/${t.id}?fields=owners,tags,followers,votes`))).toBe(tag);
  });

  it('changes with every change: a patch, a follower, a vote, a soft delete', async () => {
    const t = await createTable(app);
    const path = v1('tables', `/${t.id}`);
    const seen = [await tagOf(path)];
    const expectNew = async (what: string) => {
      const tag = await tagOf(`${path}?include=all`);
      expect(seen, what).not.toContain(tag);
      seen.push(tag);
    };
    await app.patch(path, [{ op: 'add', path: '/description', value: 'patched' }]).expect(200);
    await expectNew('after a patch');
    const me = (await app.get(v1('users', '/loggedInUser')).expect(200)).body as { id: string };
    await app
      .put(v1('tables', `/${t.id}/followers`), JSON.stringify(me.id))
      .set('Content-Type', 'application/json')
      .expect(200);
    await expectNew('after a follower');
    await app.put(v1('tables', `/${t.id}/vote`), { updatedVoteType: 'votedUp' }).expect(200);
    await expectNew('after a vote');
    await app.delete(path).expect(200);
    await expectNew('after a soft delete');
  });

  it('a write answers the new tag, the one the next If-Match names', async () => {
    const t = await createTable(app);
    const path = v1('tables', `/${t.id}`);
    const patched = await app.patch(path, [{ op: 'add', path: '/description', value: 'x' }]).expect(200);
    expect(patched.headers.etag).toBe(await tagOf(path));
  });
});

describe('If-None-Match', () => {
  it.each(['by id', 'by name'])('%s: the current tag is 304 with no body; a stale one is 200', async (how) => {
    const t = await createTable(app);
    const path = how === 'by id' ? v1('tables', `/${t.id}`) : v1('tables', `/name/${encodeURIComponent(t.fqn)}`);
    const tag = await tagOf(path);
    const fresh = await app.get(path).set('If-None-Match', tag).expect(304);
    expect(fresh.text).toBe('');
    expect(fresh.headers.etag).toBe(tag);
    await app.get(path).set('If-None-Match', tag.replace(/^W\//, '')).expect(304);
    await app.patch(v1('tables', `/${t.id}`), [{ op: 'add', path: '/description', value: 'changed' }]).expect(200);
    const stale = await app.get(path).set('If-None-Match', tag).expect(200);
    expect(stale.body.description).toBe('changed');
  });

  it('a read whose fields add data kept outside the entity is tagged by its content, so a new child is never a 304', async () => {
    const svc = await app.create('services/storageServices', { name: app.unique('s3'), serviceType: 'S3', connection: { config: { type: 'S3' } } });
    const parent = await app.create('containers', { name: 'parent', service: svc.fullyQualifiedName });
    const path = v1('containers', `/${String(parent.id)}?fields=children`);
    const before = await app.get(path).expect(200);
    await app.create('containers', { name: 'child', service: svc.fullyQualifiedName, parent: { id: parent.id, type: 'container' } });
    const after = await app.get(path).set('If-None-Match', String(before.headers.etag)).expect(200);
    expect(after.body.children).toHaveLength(1);
  });
});

describe('If-Match', () => {
  it('PATCH, DELETE and PUT with the current tag (or *) succeed', async () => {
    const t = await createTable(app);
    const path = v1('tables', `/${t.id}`);
    await app
      .patch(path, [{ op: 'add', path: '/description', value: 'one' }])
      .set('If-Match', await tagOf(path))
      .expect(200);
    await app
      .put(v1('tables'), { name: t.name, databaseSchema: 'svc.db.sch', columns: [], description: 'two' })
      .set('If-Match', await tagOf(path))
      .expect(200);
    await app
      .patch(path, [{ op: 'add', path: '/description', value: 'three' }])
      .set('If-Match', '*')
      .expect(200);
    await app
      .delete(path)
      .set('If-Match', await tagOf(path))
      .expect(200);
  });

  it.each([
    ['PATCH by id', (id: string) => app.patch(v1('tables', `/${id}`), [{ op: 'add', path: '/description', value: 'lost update' }])],
    ['PATCH by name', (_id: string, fqn: string) => app.patch(v1('tables', `/name/${encodeURIComponent(fqn)}`), [{ op: 'add', path: '/description', value: 'lost update' }])],
    ['DELETE by id', (id: string) => app.delete(v1('tables', `/${id}?hardDelete=true`))],
    ['DELETE by name', (_id: string, fqn: string) => app.delete(v1('tables', `/name/${encodeURIComponent(fqn)}`))],
    ['PUT', (_id: string, fqn: string) => app.put(v1('tables'), { name: fqn.split('.').pop(), databaseSchema: 'svc.db.sch', columns: [], description: 'lost update' })],
  ])('%s with a stale tag is 412 PRECONDITION_FAILED and changes nothing', async (_name, send) => {
    const t = await createTable(app);
    const stale = await tagOf(v1('tables', `/${t.id}`));
    await app.patch(v1('tables', `/${t.id}`), [{ op: 'add', path: '/description', value: 'by someone else' }]).expect(200);
    const before = storeDump(app.ctx);
    const res = await send(t.id, t.fqn).set('If-Match', stale);
    expectError(res, 412, 'PRECONDITION_FAILED', STALE);
    expect(storeDump(app.ctx)).toBe(before);
  });

  it('PUT of an entity that does not exist yet with If-Match is 412 and creates nothing', async () => {
    await createTable(app);
    const name = app.unique('not_there');
    const res = await app.put(v1('tables'), { name, databaseSchema: 'svc.db.sch', columns: [] }).set('If-Match', '*');
    expectError(res, 412, 'PRECONDITION_FAILED');
    await app.get(v1('tables', `/name/svc.db.sch.${name}`)).expect(404);
  });

  it('a GET never answers 412, whatever If-Match says', async () => {
    const t = await createTable(app);
    await app
      .get(v1('tables', `/${t.id}`))
      .set('If-Match', 'W/"nothing"')
      .expect(200);
  });
});

describe('If-None-Match from fetch', () => {
  it('is 304 although fetch adds Cache-Control: no-cache to a request with If-None-Match (the origin server decides, RFC 9110 §13.1.2)', async () => {
    const t = await createTable(app);
    const url = `${app.baseUrl}/v1/tables/${t.id}`;
    const headers = { Authorization: `Bearer ${app.tokens.admin}` };
    const first = await fetch(url, { headers });
    const tag = first.headers.get('etag')!;
    const again = await fetch(url, { headers: { ...headers, 'If-None-Match': tag } });
    expect(again.status).toBe(304);
    await app
      .get(v1('tables', `/${t.id}`))
      .set('If-None-Match', tag)
      .set('Cache-Control', 'no-cache')
      .expect(304);
  });
});
