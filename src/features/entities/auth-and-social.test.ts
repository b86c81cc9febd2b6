/**
 * Authentication and roles on the lifecycle routes (contract "Authentication"; docs/behaviour.md
 * "Authentication") and the basics of followers and votes (contract "Followers and votes";
 * docs/behaviour.md "Followers and votes"): they never change the version.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, Body } from '../../../test/kit.ts';
import { createOne, expectError, kind, startApp, tokenFor, v1 } from '../../../test/kit.ts';
import { signToken } from '../../auth/tokens.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startApp();
});

describe('every request needs a valid token (401); the role decides what it may do (403)', () => {
  it('a request without a token, with a malformed one or one signed with another key answers 401', async () => {
    const { entity } = await createOne(api, kind('container'));
    const path = v1('containers', `/${String(entity.id)}`);
    const none = await api.get(path).set('Authorization', '');
    expectError(none, 401, 'UNAUTHORIZED', 'Not Authorized! Token not present');
    expect(none.headers['www-authenticate']).toBeDefined();
    expect((await api.get(path, 'not.a.jwt')).status).toBe(401);
    const foreign = await signToken({ user: 'admin', role: 'Admin', secret: 'another-secret-another-secret-another-secret' });
    expect((await api.get(path, foreign)).status).toBe(401);
    const expired = await signToken({ user: 'admin', role: 'Admin', expires: '0s' });
    expect((await api.get(path, expired)).status).toBe(401);
  });

  it('DataConsumer reads but gets 403 on create, PUT, PATCH, delete and restore; nothing changes', async () => {
    const consumer = await tokenFor('DataConsumer', 'carol');
    const { entity, scope } = await createOne(api, kind('dashboard'));
    expect((await api.get(v1('dashboards', `/${String(entity.id)}`), consumer)).status).toBe(200);
    expectError(await api.post(v1('dashboards'), scope.request('new'), consumer), 403, 'FORBIDDEN', "Principal: CatalogPrincipal{name='carol'} operations [Create] not allowed");
    expect((await api.put(v1('dashboards'), scope.request('new'), consumer)).status).toBe(403);
    expect((await api.patch(v1('dashboards', `/${String(entity.id)}`), [{ op: 'add', path: '/description', value: 'x' }], consumer)).status).toBe(403);
    expectError(await api.delete(v1('dashboards', `/${String(entity.id)}`), consumer), 403, 'FORBIDDEN', /operations \[Delete\] not allowed/);
    expect((await api.put(v1('dashboards', '/restore'), { id: entity.id }, consumer)).status).toBe(403);
    expect((await api.get(v1('dashboards', `/${String(entity.id)}`))).body.version).toBe(0.1);
  });

  it('DataSteward creates and edits but gets 403 on delete', async () => {
    const steward = await tokenFor('DataSteward', 'steve');
    const scope = await kind('topic').scope(api);
    const created = await api.post(v1('topics'), scope.request('t'), steward);
    expect(created.status).toBe(201);
    expect(created.body.updatedBy).toBe('steve');
    const patched = await api.patch(v1('topics', `/${String(created.body.id)}`), [{ op: 'add', path: '/description', value: 'd' }], steward);
    expect(patched.body).toMatchObject({ version: 0.2, updatedBy: 'steve' });
    expect((await api.delete(v1('topics', `/${String(created.body.id)}`), steward)).status).toBe(403);
  });

  it('a 401 wins over a 404 or a 400: an unknown id without a token is 401', async () => {
    const res = await api.get(v1('containers', '/0b9a5d2e-7c1f-4e3a-9b8d-6f5e4d3c2b1a')).set('Authorization', 'Basic abc');
    expect(res.status).toBe(401);
  });
});

describe('followers and votes attach to an entity without changing its version', () => {
  it.each([
    ['containers', 'container'],
    ['dashboards', 'dashboard'],
    ['tables', 'table'],
    ['pipelines', 'pipeline'],
  ] as const)('PUT /%s/{id}/followers adds the user once; DELETE removes it; version stays 0.1', async (collection, type) => {
    const { entity } = await createOne(api, kind(type));
    const reader = await tokenFor('DataConsumer', 'fan');
    const me = await api.get(v1('users', '/name/fan'), reader);
    expect(me.status).toBe(200);
    const userId = String(me.body.id);
    const path = v1(collection, `/${String(entity.id)}/followers`);
    const added = await api.put(path, JSON.stringify(userId), reader).set('Content-Type', 'application/json');
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({ id: entity.id, version: 0.1 });
    expect((added.body.followers as Body[]).map((f) => f.id)).toEqual([userId]);
    const twice = await api.put(path, JSON.stringify(userId), reader).set('Content-Type', 'application/json');
    expect(twice.body.followers as Body[]).toHaveLength(1);
    const listed = await api.get(v1(collection, `/${String(entity.id)}?fields=followers`));
    expect((listed.body.followers as Body[])[0]).toMatchObject({ id: userId, type: 'user', name: 'fan' });
    const removed = await api.delete(`${path}/${userId}`, reader);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ followers: [], version: 0.1 });
  });

  it('following with an unknown user answers 404; following a soft-deleted entity answers 404', async () => {
    const { entity } = await createOne(api, kind('dashboard'));
    const unknown = '0b9a5d2e-7c1f-4e3a-9b8d-6f5e4d3c2b1a';
    const res = await api.put(v1('dashboards', `/${String(entity.id)}/followers`), JSON.stringify(unknown)).set('Content-Type', 'application/json');
    expectError(res, 404, 'NOT_FOUND', `user instance for ${unknown} not found`);
    await api.delete(v1('dashboards', `/${String(entity.id)}`)).expect(200);
    const me = await api.get(v1('users', '/name/admin'));
    const gone = await api.put(v1('dashboards', `/${String(entity.id)}/followers`), JSON.stringify(me.body.id)).set('Content-Type', 'application/json');
    expect(gone.status).toBe(404);
  });

  it.each([
    ['dashboards', 'dashboard'],
    ['tables', 'table'],
    ['containers', 'container'],
  ] as const)('PUT /%s/{id}/vote counts up and down votes per user, exclusive, version unchanged', async (collection, type) => {
    const { entity } = await createOne(api, kind(type));
    const path = v1(collection, `/${String(entity.id)}/vote`);
    const voter = await tokenFor('DataConsumer', 'voter');
    expect((await api.put(path, { updatedVoteType: 'votedUp' })).body.votes).toMatchObject({ upVotes: 1, downVotes: 0 });
    const down = await api.put(path, { updatedVoteType: 'votedDown' }, voter);
    expect(down.body.votes).toMatchObject({ upVotes: 1, downVotes: 1 });
    const flipped = await api.put(path, { updatedVoteType: 'votedDown' });
    expect(flipped.body.votes).toMatchObject({ upVotes: 0, downVotes: 2 });
    const cleared = await api.put(path, { updatedVoteType: 'unVoted' }, voter);
    expect(cleared.body).toMatchObject({ version: 0.1, votes: { upVotes: 0, downVotes: 1 } });
    expect((await api.put(path, { updatedVoteType: 'sideways' })).status).toBe(400);
  });

  it('profile openmetadata answers follow and vote with a ChangeEvent whose versions are equal', async () => {
    const om = await startApp({ profile: 'openmetadata' });
    try {
      const svc = await om.create('services/dashboardServices', { name: om.unique('dsvc'), serviceType: 'Superset' });
      const dash = await om.create('dashboards', { name: 'd', service: svc.fullyQualifiedName });
      const me = await om.get(v1('users', '/name/admin'));
      const res = await om.put(v1('dashboards', `/${String(dash.id)}/followers`), JSON.stringify(me.body.id)).set('Content-Type', 'application/json');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ eventType: 'entityUpdated', entityType: 'dashboard', entityId: dash.id, previousVersion: 0.1, currentVersion: 0.1 });
      expect(res.body.changeDescription.fieldsAdded[0]).toMatchObject({ name: 'followers' });
      const vote = await om.put(v1('dashboards', `/${String(dash.id)}/vote`), { updatedVoteType: 'votedUp' });
      expect(vote.body.changeDescription.fieldsUpdated).toEqual([{ name: 'votes', newValue: 'votedUp' }]);
    } finally {
      await om.close();
    }
  });
});
