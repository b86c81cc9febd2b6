import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

let c: TestApp;
let om: TestApp;
const ids = new Map<TestApp, { admin: string; consumer: string }>();
beforeAll(async () => {
  [c, om] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
  for (const cat of [c, om]) {
    const admin = (await cat.get('/api/v1/users/name/admin').expect(200)).body.id as string;
    const consumer = (await cat.get('/api/v1/users/name/consumer', cat.tokens.consumer).expect(200)).body.id as string;
    ids.set(cat, { admin, consumer });
  }
}, SLOW_START);

const follow = (cat: TestApp, path: string, userId: string, token?: string) => cat.put(`${path}/followers`, JSON.stringify(userId), token).set('Content-Type', 'application/json');

async function dashboard(cat: TestApp, name: string): Promise<string> {
  await cat
    .put('/api/v1/services/dashboardServices', { name: 'dsvc', serviceType: 'Looker', connection: { config: { type: 'Looker' } } })
    .expect((r) => expect([200, 201]).toContain(r.status));
  return (await cat.post('/api/v1/dashboards', { name, service: 'dsvc' }).expect(201)).body.id as string;
}

describe('followers, profile contract (contract "Followers and votes")', () => {
  it('PUT adds the user once and answers the entity with followers; the version does not change', async () => {
    const t = await createTable(c);
    const { admin } = ids.get(c)!;
    const first = await follow(c, `/api/v1/tables/${t.id}`, admin).expect(200);
    expect(first.body.followers).toEqual([
      { id: admin, type: 'user', name: 'admin', fullyQualifiedName: 'admin', displayName: 'admin', deleted: false, href: expect.stringMatching(`/api/v1/users/${admin}$`) },
    ]);
    expect(first.body.version).toBe(0.1);
    const twice = await follow(c, `/api/v1/tables/${t.id}`, admin).expect(200);
    expect(twice.body.followers).toHaveLength(1);
    const shown = await c.get(`/api/v1/tables/${t.id}?fields=followers`).expect(200);
    expect(shown.body.followers.map((f: { id: string }) => f.id)).toEqual([admin]);
    expect(shown.body.version).toBe(0.1);
    expect((await c.get(`/api/v1/tables/${t.id}`)).body.followers).toBeUndefined();
  });

  it('a bare UUID as text/plain is accepted; two users make two followers in order', async () => {
    const id = await dashboard(c, 'd_text');
    const { admin, consumer } = ids.get(c)!;
    await c.put(`/api/v1/dashboards/${id}/followers`, consumer, c.tokens.consumer).set('Content-Type', 'text/plain').expect(200);
    const res = await follow(c, `/api/v1/dashboards/${id}`, admin).expect(200);
    expect(res.body.followers.map((f: { id: string }) => f.id)).toEqual([consumer, admin]);
  });

  it('DELETE removes the follower; the version does not change', async () => {
    const t = await createTable(c);
    const { admin, consumer } = ids.get(c)!;
    await follow(c, `/api/v1/tables/${t.id}`, admin).expect(200);
    await follow(c, `/api/v1/tables/${t.id}`, consumer).expect(200);
    const res = await c.delete(`/api/v1/tables/${t.id}/followers/${admin}`).expect(200);
    expect(res.body.followers.map((f: { id: string }) => f.id)).toEqual([consumer]);
    expect(res.body.version).toBe(0.1);
  });

  it('unknown user and unknown entity are 404', async () => {
    const t = await createTable(c);
    const user = await follow(c, `/api/v1/tables/${t.id}`, MISSING).expect(404);
    expect(user.body.message).toBe(`user instance for ${MISSING} not found`);
    await c.delete(`/api/v1/tables/${t.id}/followers/${MISSING}`).expect(404);
    await follow(c, `/api/v1/tables/${MISSING}`, ids.get(c)!.admin).expect(404);
  });

  it('a DataConsumer may follow (403 never), no token is 401', async () => {
    const t = await createTable(c);
    const { consumer } = ids.get(c)!;
    await follow(c, `/api/v1/tables/${t.id}`, consumer, '').expect(401);
    await follow(c, `/api/v1/tables/${t.id}`, consumer, c.tokens.consumer).expect(200);
    await c.delete(`/api/v1/tables/${t.id}/followers/${consumer}`, c.tokens.consumer).expect(200);
  });
});

describe('followers, profile openmetadata (docs/behaviour.md "Followers and votes")', () => {
  it('PUT answers a ChangeEvent whose fieldsAdded[0].newValue lists user references; DELETE fieldsDeleted[0].oldValue', async () => {
    const t = await createTable(om);
    const { admin } = ids.get(om)!;
    const added = await follow(om, `/api/v1/tables/${t.id}`, admin).expect(200);
    expect(added.body).toMatchObject({ eventType: 'entityUpdated', entityType: 'table', entityId: t.id, previousVersion: 0.1, currentVersion: 0.1 });
    expect(added.body.changeDescription.fieldsAdded[0]).toMatchObject({ name: 'followers', newValue: [{ id: admin, type: 'user' }] });
    const removed = await om.delete(`/api/v1/tables/${t.id}/followers/${admin}`).expect(200);
    expect(removed.body.changeDescription.fieldsDeleted[0].oldValue[0].id).toBe(admin);
    expect((await om.get(`/api/v1/tables/${t.id}?fields=followers`)).body.followers).toEqual([]);
  });

  it('a bare UUID as text/plain is refused (JSON string only)', async () => {
    const t = await createTable(om);
    const res = await om.put(`/api/v1/tables/${t.id}/followers`, ids.get(om)!.admin).set('Content-Type', 'text/plain');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('votes (contract "Followers and votes", "Vote type")', () => {
  it('up and down are exclusive per user; counts and voters follow; the version does not change', async () => {
    const id = await dashboard(c, 'd_votes');
    const { admin, consumer } = ids.get(c)!;
    const vote = (type: string, token?: string) => c.put(`/api/v1/dashboards/${id}/vote`, { updatedVoteType: type }, token).expect(200);
    await vote('votedUp');
    let res = await vote('votedDown', c.tokens.consumer);
    expect(res.body.votes).toMatchObject({ upVotes: 1, downVotes: 1 });
    expect(res.body.votes.upVoters.map((v: { id: string }) => v.id)).toEqual([admin]);
    expect(res.body.votes.downVoters.map((v: { id: string }) => v.id)).toEqual([consumer]);
    res = await vote('votedDown');
    expect(res.body.votes).toMatchObject({ upVotes: 0, downVotes: 2, upVoters: [] });
    res = await vote('unVoted', c.tokens.consumer);
    expect(res.body.votes.downVoters.map((v: { id: string }) => v.id)).toEqual([admin]);
    expect(res.body.votes).toMatchObject({ upVotes: 0, downVotes: 1 });
    expect(res.body.version).toBe(0.1);
    const shown = await c.get(`/api/v1/dashboards/${id}?fields=votes`).expect(200);
    expect(shown.body.votes).toMatchObject({ upVotes: 0, downVotes: 1 });
  });

  it('an unknown vote type is 400, an unknown entity 404, no token 401', async () => {
    const t = await createTable(c);
    await c.put(`/api/v1/tables/${t.id}/vote`, { updatedVoteType: 'maybe' }).expect(400);
    await c.put(`/api/v1/tables/${MISSING}/vote`, { updatedVoteType: 'votedUp' }).expect(404);
    await c.put(`/api/v1/tables/${t.id}/vote`, { updatedVoteType: 'votedUp' }, '').expect(401);
  });

  it('profile openmetadata answers a ChangeEvent with the vote type, version unchanged', async () => {
    const t = await createTable(om);
    const res = await om.put(`/api/v1/tables/${t.id}/vote`, { updatedVoteType: 'votedUp' }).expect(200);
    expect(res.body.changeDescription.fieldsUpdated[0]).toMatchObject({ name: 'votes', newValue: 'votedUp' });
    expect(res.body.currentVersion).toBe(0.1);
    expect((await om.get(`/api/v1/tables/${t.id}?fields=votes`)).body.votes.upVotes).toBe(1);
  });
});
