import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

const names = (refs: unknown): string[] => ((refs as Body[] | undefined) ?? []).map((r) => String(r.name)).sort();

describe.each(['contract', 'openmetadata'] as const)('team membership calls, profile %s (docs/behaviour.md "Users and teams")', (profile) => {
  it.each([
    { written: 'on the users (teams)', teamBody: {} },
    { written: 'on the team (users)', teamBody: { users: [] } },
  ])('PUT sets the members, DELETE removes one; both sides agree — membership written $written', async ({ teamBody }) => {
    const c = apps[profile];
    const [a, b, d] = await Promise.all(['a', 'b', 'd'].map((n) => c.create('users', { name: c.unique(n), email: `${c.unique(n)}@example.com` })));
    const other = await c.create('teams', { name: c.unique('other'), teamType: 'Group' });
    // `a` belongs to another team through its own `teams`: that must survive.
    await c.put('/api/v1/users', { name: a!.name, email: a!.email, teams: [other.id] }).expect(200);
    const team = await c.create('teams', { name: c.unique('team'), teamType: 'Group', ...teamBody });
    const path = `/api/v1/teams/${team.id}/users`;
    const given = [
      {
        call: 'PUT a,b',
        run: () =>
          c.put(
            path,
            [a, b].map((u) => ({ id: u!.id, type: 'user' })),
          ),
        want: [a, b],
      },
      {
        call: 'PUT b,d',
        run: () =>
          c.put(
            path,
            [b, d].map((u) => ({ id: u!.id, type: 'user' })),
          ),
        want: [b, d],
      },
      { call: 'DELETE b', run: () => c.delete(`${path}/${b!.id}`), want: [d] },
      { call: 'DELETE b again', run: () => c.delete(`${path}/${b!.id}`), want: [d] },
      { call: 'PUT none', run: () => c.put(path, []), want: [] },
    ];
    for (const g of given) {
      const res = await g.run();
      const read = await c.get(`/api/v1/teams/${team.id}?fields=users`).expect(200);
      const memberOf = await Promise.all(
        [a, b, d].map(async (u) => names((await c.get(`/api/v1/users/${u!.id}?fields=teams`).expect(200)).body.teams).includes(String(team.name))),
      );
      expect({ call: g.call, status: res.status, answered: names(res.body.users), read: names(read.body.users), memberOf }).toEqual({
        call: g.call,
        status: 200,
        answered: names(g.want),
        read: names(g.want),
        memberOf: [a, b, d].map((u) => g.want.includes(u)),
      });
    }
    expect(names((await c.get(`/api/v1/users/${a!.id}?fields=teams`).expect(200)).body.teams)).toEqual([other.name]);
  });

  it('an unknown team or user is 404 and changes nothing', async () => {
    const c = apps[profile];
    const u = await c.create('users', { name: c.unique('u'), email: `${c.unique('u')}@example.com` });
    const team = await c.create('teams', { name: c.unique('team'), teamType: 'Group' });
    await c
      .put(`/api/v1/teams/${team.id}/users`, [
        { id: u.id, type: 'user' },
        { id: MISSING, type: 'user' },
      ])
      .expect(404);
    expect((await c.get(`/api/v1/teams/${team.id}?fields=users`).expect(200)).body.users).toEqual([]);
    await c.put(`/api/v1/teams/${MISSING}/users`, []).expect(404);
    await c.delete(`/api/v1/teams/${team.id}/users/${MISSING}`).expect(404);
    await c.put(`/api/v1/teams/${team.id}/users`, { id: u.id }).expect(400);
  });
});
