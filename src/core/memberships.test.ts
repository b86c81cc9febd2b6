import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { startApp } from '../../test/kit.ts';

let catalog: TestApp;

beforeAll(async () => {
  catalog = await startApp({ fixtures: 'default' });
});

const teamUsers = async (name: string) => {
  const res = await catalog.get(`/api/v1/teams/name/${encodeURIComponent(name)}?fields=users`);
  expect(res.status).toBe(200);
  return (res.body.users as { name: string; type: string }[]).map((u) => `${u.type}:${u.name}`);
};

describe('team.users: the users whose teams include the team', () => {
  it('a demo team lists its members by name', async () => {
    expect(await teamUsers('Data Platform')).toEqual(['user:alice.nguyen', 'user:dana.okafor']);
    expect(await teamUsers('Analytics')).toEqual(['user:bob.martins', 'user:dana.okafor']);
  });

  it('a team without members lists none, and users is absent unless asked for', async () => {
    const created = await catalog.post('/api/v1/teams', { name: 'Finance', teamType: 'Group' });
    expect(created.status).toBe(201);
    expect(await teamUsers('Finance')).toEqual([]);
    const plain = await catalog.get(`/api/v1/teams/${created.body.id}`);
    expect(plain.body.users).toBeUndefined();
  });

  it('a user who joins, leaves or is soft-deleted changes the list without a new team version', async () => {
    const team = (await catalog.post('/api/v1/teams', { name: 'Security', teamType: 'Group' })).body;
    const user = (await catalog.post('/api/v1/users', { name: 'sam.ortiz', email: 'sam.ortiz@acme.example', teams: [team.id] })).body;
    expect(await teamUsers('Security')).toEqual(['user:sam.ortiz']);

    await catalog.delete(`/api/v1/users/${user.id}`);
    expect(await teamUsers('Security')).toEqual([]);
    await catalog.put('/api/v1/users/restore', { id: user.id });
    expect(await teamUsers('Security')).toEqual(['user:sam.ortiz']);

    const patched = await catalog.patch(`/api/v1/users/${user.id}`, [{ op: 'remove', path: '/teams/0' }]);
    expect(patched.status).toBe(200);
    expect(await teamUsers('Security')).toEqual([]);
    expect((await catalog.get(`/api/v1/teams/${team.id}`)).body.version).toBe(0.1);
  });
});

describe('user.teams: computed from the team side when the user names none', () => {
  it('a user listed in a team created with users shows that team', async () => {
    const user = (await catalog.post('/api/v1/users', { name: 'lee.park', email: 'lee.park@acme.example' })).body;
    await catalog.post('/api/v1/teams', { name: 'Audit', teamType: 'Group', users: [user.id] });
    const res = await catalog.get(`/api/v1/users/${user.id}?fields=teams`);
    expect(res.body.teams.map((t: { name: string }) => t.name)).toEqual(['Audit']);
    expect(await teamUsers('Audit')).toEqual(['user:lee.park']);
  });
});
