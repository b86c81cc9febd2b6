import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogApp } from '../app.ts';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';

let catalog: CatalogApp;
let auth: string;

beforeAll(async () => {
  catalog = await createApp({ fixtures: 'default' });
  auth = `Bearer ${await signToken({ user: 'admin', role: 'Admin' })}`;
});

const api = () => request(catalog.app);
const teamUsers = async (name: string) => {
  const res = await api()
    .get(`/api/v1/teams/name/${encodeURIComponent(name)}?fields=users`)
    .set('Authorization', auth);
  expect(res.status).toBe(200);
  return (res.body.users as { name: string; type: string }[]).map((u) => `${u.type}:${u.name}`);
};

describe('team.users: the users whose teams include the team', () => {
  it('a demo team lists its members by name', async () => {
    expect(await teamUsers('Data Platform')).toEqual(['user:alice.nguyen', 'user:dana.okafor']);
    expect(await teamUsers('Analytics')).toEqual(['user:bob.martins', 'user:dana.okafor']);
  });

  it('a team without members lists none, and users is absent unless asked for', async () => {
    const created = await api().post('/api/v1/teams').set('Authorization', auth).send({ name: 'Finance', teamType: 'Group' });
    expect(created.status).toBe(201);
    expect(await teamUsers('Finance')).toEqual([]);
    const plain = await api().get(`/api/v1/teams/${created.body.id}`).set('Authorization', auth);
    expect(plain.body.users).toBeUndefined();
  });

  it('a user who joins, leaves or is soft-deleted changes the list without a new team version', async () => {
    const team = (await api().post('/api/v1/teams').set('Authorization', auth).send({ name: 'Security', teamType: 'Group' })).body;
    const user = (
      await api()
        .post('/api/v1/users')
        .set('Authorization', auth)
        .send({ name: 'sam.ortiz', email: 'sam.ortiz@acme.example', teams: [team.id] })
    ).body;
    expect(await teamUsers('Security')).toEqual(['user:sam.ortiz']);

    await api().delete(`/api/v1/users/${user.id}`).set('Authorization', auth);
    expect(await teamUsers('Security')).toEqual([]);
    await api().put('/api/v1/users/restore').set('Authorization', auth).send({ id: user.id });
    expect(await teamUsers('Security')).toEqual(['user:sam.ortiz']);

    const patched = await api()
      .patch(`/api/v1/users/${user.id}`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json-patch+json')
      .send([{ op: 'remove', path: '/teams/0' }]);
    expect(patched.status).toBe(200);
    expect(await teamUsers('Security')).toEqual([]);
    expect((await api().get(`/api/v1/teams/${team.id}`).set('Authorization', auth)).body.version).toBe(0.1);
  });
});

describe('user.teams: computed from the team side when the user names none', () => {
  it('a user listed in a team created with users shows that team', async () => {
    const user = (await api().post('/api/v1/users').set('Authorization', auth).send({ name: 'lee.park', email: 'lee.park@acme.example' })).body;
    await api()
      .post('/api/v1/teams')
      .set('Authorization', auth)
      .send({ name: 'Audit', teamType: 'Group', users: [user.id] });
    const res = await api().get(`/api/v1/users/${user.id}?fields=teams`).set('Authorization', auth);
    expect(res.body.teams.map((t: { name: string }) => t.name)).toEqual(['Audit']);
    expect(await teamUsers('Audit')).toEqual(['user:lee.park']);
  });
});
