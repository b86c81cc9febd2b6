/**
 * Followers notified (docs/behaviour.md "Activity feed"): a change to a followed entity gives each
 * follower but the one who made it a thread, read through OpenMetadata's feed calls; resolving a
 * thread marks it read; the feed pages newest first and is bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, expectError, startApp, tokenFor, v1 } from '../../../test/kit.ts';

let app: TestApp;
const tokens: Record<string, string> = {};
const userIds: Record<string, string> = {};

/** A token for `name` (a DataSteward), whose user is created by its first request. */
async function user(name: string): Promise<void> {
  tokens[name] = await tokenFor('DataSteward', name);
  userIds[name] = String((await app.get(v1('users/loggedInUser'), tokens[name]).expect(200)).body.id);
}

beforeAll(async () => {
  app = await startApp({ at: T0 });
  for (const name of ['alice', 'bob', 'carol']) await user(name);
  userIds.admin = String((await app.get(v1('users/loggedInUser')).expect(200)).body.id);
}, SLOW_START);
afterAll(() => app.close());

/** A container followed by the users named; the clock moves 1 ms per change. */
async function followed(...followers: string[]): Promise<Body> {
  const service = app.unique('svc');
  await app.create('services/storageServices', { name: service, serviceType: 'S3', connection: { config: { type: 'S3' } } });
  const entity = await app.create('containers', { name: 'c', service });
  for (const name of followers) {
    await app
      .put(v1('containers', `/${String(entity.id)}/followers`), JSON.stringify(userIds[name]), tokens[name])
      .set('Content-Type', 'application/json')
      .expect(200);
  }
  app.clock.now++;
  return entity;
}

const feedOf = async (name: string, extra = ''): Promise<Body[]> =>
  (await app.get(`${v1('feed')}?userId=${userIds[name]}&filterType=FOLLOWS&limit=100${extra}`, tokens[name] ?? app.tokens.admin).expect(200)).body.data as Body[];

const about = (entity: Body) => `<#E::container::${String(entity.fullyQualifiedName)}>`;

describe('a change to a followed entity notifies each follower but the one who made it', () => {
  it('two followers, an admin change: one thread each, in the Thread shape', async () => {
    const c = await followed('alice', 'bob');
    const before = { alice: (await feedOf('alice')).length, bob: (await feedOf('bob')).length, carol: (await feedOf('carol')).length };
    await app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/description', value: 'new' }]).expect(200);
    const alice = await feedOf('alice');
    expect(alice.length - before.alice).toBe(1);
    expect((await feedOf('bob')).length - before.bob).toBe(1);
    expect((await feedOf('carol')).length).toBe(before.carol);
    const thread = alice[0]!;
    expect(thread).toMatchObject({
      type: 'Conversation',
      about: about(c),
      entityRef: { id: c.id, type: 'container' },
      generatedBy: 'system',
      cardStyle: 'description',
      fieldOperation: 'added',
      feedInfo: { fieldName: 'description' },
      addressedTo: '<#E::user::alice>',
      createdBy: 'admin',
      threadTs: app.clock.now,
      resolved: false,
      message: 'Added **description**',
      postsCount: 0,
      posts: [],
      reactions: [],
      href: `${app.baseUrl}/v1/feed/${String(thread.id)}`,
    });
  });

  it('a follower changing the entity is not notified; the other follower is', async () => {
    const c = await followed('alice', 'bob');
    const before = { alice: (await feedOf('alice')).length, bob: (await feedOf('bob')).length };
    await app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/displayName', value: 'C' }], tokens.alice).expect(200);
    expect((await feedOf('alice')).length).toBe(before.alice);
    const bob = await feedOf('bob');
    expect(bob.length - before.bob).toBe(1);
    expect(bob[0]).toMatchObject({ createdBy: 'alice', about: about(c) });
  });

  it.each([
    { change: 'soft delete', run: (c: Body) => app.delete(v1('containers', `/${String(c.id)}`)).expect(200), cardStyle: 'entitySoftDeleted' },
    { change: 'hard delete', run: (c: Body) => app.delete(v1('containers', `/${String(c.id)}?hardDelete=true`)).expect(204), cardStyle: 'entityDeleted' },
    { change: 'a vote', run: (c: Body) => app.put(v1('containers', `/${String(c.id)}/vote`), { updatedVoteType: 'votedUp' }).expect(200), cardStyle: 'default' },
  ])('$change notifies with card style $cardStyle', async ({ run, cardStyle }) => {
    const c = await followed('carol');
    const before = (await feedOf('carol')).length;
    await run(c);
    const feed = await feedOf('carol');
    expect(feed.length - before).toBe(1);
    expect(feed[0]).toMatchObject({ about: about(c), cardStyle });
  });

  it('a soft-deleted follower and an entity of a kind without followers notify no one', async () => {
    const c = await followed('alice', 'bob');
    await app.delete(v1('users', `/${userIds.bob}`)).expect(200);
    const before = { alice: (await feedOf('alice')).length };
    await app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/description', value: 'x' }]).expect(200);
    expect((await feedOf('alice')).length - before.alice).toBe(1);
    const threads = (await app.get(`${v1('feed')}?entityLink=${encodeURIComponent(about(c))}&limit=100`).expect(200)).body.data as Body[];
    // Alice also heard of Bob following; Bob, soft-deleted, heard of nothing.
    expect(new Set(threads.map((t) => t.addressedTo))).toEqual(new Set(['<#E::user::alice>']));
    await app.put(v1('users', '/restore'), { id: userIds.bob }).expect(200);
    const total = (await app.get(`${v1('feed')}?limit=1`).expect(200)).body.paging.total as number;
    await app.post(v1('classifications'), { name: app.unique('cls'), description: 'd' }).expect(201);
    expect((await app.get(`${v1('feed')}?limit=1`).expect(200)).body.paging.total).toBe(total);
  });
});

describe('reading the feed as OpenMetadata serves it', () => {
  it('filter types other than FOLLOWS list nothing; an unknown user is 404', async () => {
    await followed('alice');
    for (const filterType of ['OWNER', 'MENTIONS', 'ASSIGNED_TO', 'ASSIGNED_BY']) {
      expect((await app.get(`${v1('feed')}?userId=${userIds.alice}&filterType=${filterType}`).expect(200)).body).toEqual({ data: [], paging: { total: 0 } });
    }
    expect((await app.get(`${v1('feed')}?userId=${userIds.alice}`).expect(200)).body.data).toEqual([]);
    expectError(await app.get(`${v1('feed')}?userId=6f1e8a40-0000-4000-8000-000000000000&filterType=FOLLOWS`), 404);
  });

  it('pages newest first with before and after cursors', async () => {
    const c = await followed('carol');
    for (const value of ['1', '2', '3', '4', '5']) {
      app.clock.now++;
      await app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/description', value }]).expect(200);
    }
    const link = encodeURIComponent(about(c));
    const page = async (query: string) => (await app.get(`${v1('feed')}?entityLink=${link}&limit=2${query}`).expect(200)).body as { data: Body[]; paging: Body };
    const first = await page('');
    expect(first.paging.total).toBe(5);
    expect(first.data.map((t) => t.threadTs)).toEqual([app.clock.now, app.clock.now - 1]);
    expect(first.paging.before).toBeUndefined();
    const second = await page(`&after=${String(first.paging.after)}`);
    expect(second.data.map((t) => t.threadTs)).toEqual([app.clock.now - 2, app.clock.now - 3]);
    const third = await page(`&after=${String(second.paging.after)}`);
    expect(third.data.map((t) => t.threadTs)).toEqual([app.clock.now - 4]);
    expect(third.paging.after).toBeUndefined();
    const back = await page(`&before=${String(second.paging.before)}`);
    expect(back.data.map((t) => t.id)).toEqual(first.data.map((t) => t.id));
    expectError(await app.get(`${v1('feed')}?after=bm9wZQ`), 400);
  });

  it('resolving a thread marks it read: it leaves the open list and the unread count', async () => {
    const c = await followed('alice');
    await app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/description', value: 'read me' }]).expect(200);
    const count = async (query = '') =>
      ((await app.get(`${v1('feed/count')}?userId=${userIds.alice}&filterType=FOLLOWS${query}`, tokens.alice).expect(200)).body.data as Body[]).find(
        (n) => n.entityLink === about(c),
      )?.conversationCount ?? 0;
    expect(await count()).toBe(1);
    const thread = (await feedOf('alice'))[0]!;
    expect(thread.about).toBe(about(c));
    const patched = await app.patch(v1('feed', `/${String(thread.id)}`), [{ op: 'replace', path: '/resolved', value: true }], tokens.alice).expect(200);
    expect(patched.body).toMatchObject({ id: thread.id, resolved: true, updatedBy: 'alice', about: thread.about, addressedTo: thread.addressedTo });
    expect((await feedOf('alice')).map((t) => t.id)).not.toContain(thread.id);
    expect((await feedOf('alice', '&resolved=true')).map((t) => t.id)).toContain(thread.id);
    expect(await count()).toBe(0);
    expect(await count('&isResolved=true')).toBe(1);
    // Only resolved, message and reactions change: the rest is kept.
    const kept = await app.patch(v1('feed', `/${String(thread.id)}`), [{ op: 'replace', path: '/about', value: '<#E::table::x>' }], tokens.alice).expect(200);
    expect(kept.body.about).toBe(thread.about);
    expectError(await app.patch(v1('feed', `/${String(thread.id)}`), [{ op: 'replace', path: '/resolved', value: 'yes' }]), 400);
  });

  it('gets and deletes a thread by id', async () => {
    const c = await followed('bob');
    await app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/description', value: 'x' }]).expect(200);
    const [thread] = await feedOf('bob');
    expect((await app.get(v1('feed', `/${String(thread!.id)}`)).expect(200)).body).toEqual(thread);
    expect((await app.delete(v1('feed', `/${String(thread!.id)}`)).expect(200)).body.id).toBe(thread!.id);
    expectError(await app.get(v1('feed', `/${String(thread!.id)}`)), 404);
    expectError(await app.delete(v1('feed', `/${String(thread!.id)}`), tokens.bob), 403);
  });
});

describe('the feed is bounded like the event log', () => {
  it('keeps the newest `maxEvents` threads', async () => {
    const small = await startApp({ maxEvents: 2 });
    try {
      const token = await tokenFor('DataSteward', 'dora');
      const dora = String((await small.get(v1('users/loggedInUser'), token).expect(200)).body.id);
      await small.create('services/storageServices', { name: 's', serviceType: 'S3', connection: { config: { type: 'S3' } } });
      const c = await small.create('containers', { name: 'c', service: 's' });
      await small
        .put(v1('containers', `/${String(c.id)}/followers`), JSON.stringify(dora), token)
        .set('Content-Type', 'application/json')
        .expect(200);
      for (const value of ['1', '2', '3']) await small.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/description', value }]).expect(200);
      const feed = (await small.get(`${v1('feed')}?userId=${dora}&filterType=FOLLOWS`).expect(200)).body as { data: Body[]; paging: Body };
      expect(feed.paging.total).toBe(2);
      expect(feed.data.map((t) => t.fieldOperation)).toEqual(['updated', 'updated']);
    } finally {
      await small.close();
    }
  });
});

describe('user conversations in the feed (POST /v1/feed, posts)', () => {
  it("a thread is started about an entity, listed as its author's (OWNER), posted to; a post is edited by its writer and deleted", async () => {
    const app = await startApp();
    const bob = (await app.post('/api/v1/users', { name: 'bob_feed', email: 'bob_feed@example.com' }).expect(201)).body as { id: string };
    await app.put('/api/v1/services/storageServices', { name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3' } } }).expect(201);
    await app.post('/api/v1/containers', { name: 'raw', service: 'lake' }).expect(201);
    const thread = (await app.post('/api/v1/feed', { message: 'Still used?', about: '<#E::container::lake.raw>' }).expect(201)).body as Record<string, unknown>;
    expect(thread).toMatchObject({ type: 'Conversation', generatedBy: 'user', createdBy: 'admin', about: '<#E::container::lake.raw>', postsCount: 0 });
    const admin = (await app.get('/api/v1/users/name/admin').expect(200)).body as { id: string };
    const owned = (await app.get(`/api/v1/feed?userId=${admin.id}&filterType=OWNER`).expect(200)).body as { data: { id: string }[] };
    expect(owned.data.map((t) => t.id)).toEqual([thread.id]);
    expect(((await app.get(`/api/v1/feed?userId=${bob.id}`).expect(200)).body as { data: unknown[] }).data).toEqual([]);
    const posted = (await app.post(`/api/v1/feed/${String(thread.id)}/posts`, { message: 'Yes, daily' }).expect(200)).body as {
      posts: { id: string; from: string }[];
      postsCount: number;
    };
    expect([posted.postsCount, posted.posts[0]!.from]).toEqual([1, 'admin']);
    const postPath = `/api/v1/feed/${String(thread.id)}/posts/${posted.posts[0]!.id}`;
    const token = await tokenFor('DataSteward', 'bob_feed');
    await app
      .request('patch', postPath, token)
      .set('Content-Type', 'application/json-patch+json')
      .send([{ op: 'replace', path: '/message', value: 'no' }])
      .expect(403);
    const edited = await app
      .request('patch', postPath)
      .set('Content-Type', 'application/json-patch+json')
      .send([{ op: 'replace', path: '/message', value: 'Yes, hourly' }])
      .expect(200);
    expect(edited.body.message).toBe('Yes, hourly');
    await app.delete(postPath).expect(200);
    expect(((await app.get(`/api/v1/feed/${String(thread.id)}`).expect(200)).body as { postsCount: number }).postsCount).toBe(0);
    await app.post('/api/v1/feed', { message: 'x', about: '<#E::container::lake.nothing>' }).expect(404);
  });
});
