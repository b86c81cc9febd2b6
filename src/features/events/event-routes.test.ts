/**
 * Change events through HTTP (docs/behaviour.md "Events"): every write that changes an entity
 * records exactly one event of its type, a refused or empty write records none, `GET /v1/events`
 * filters as OpenMetadata's EventResource does, and the log is bounded and part of the state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp, tokenFor, v1 } from '../../../test/kit.ts';

const ALL = 'entityCreated=*&entityUpdated=*&entityRestored=*&entityDeleted=*';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ at: T0 });
}, SLOW_START);
afterAll(() => app.close());

/** Every event recorded so far (oldest first), or those about one entity. */
async function events(entityId?: string, query = ALL): Promise<Body[]> {
  const res = await app.get(`${v1('events')}?${query}`).expect(200);
  expect(res.body.paging.total).toBe(res.body.data.length);
  const data = res.body.data as Body[];
  return entityId === undefined ? data : data.filter((e) => e.entityId === entityId);
}

/** A storage service and a container in it; the clock moves 1 ms per write so timestamps order the events. */
async function container(): Promise<{ service: Body; entity: Body }> {
  const name = app.unique('svc');
  const service = await app.create('services/storageServices', { name, serviceType: 'S3', connection: { config: { type: 'S3' } } });
  app.clock.now++;
  const entity = await app.create('containers', { name: 'raw', service: name, description: 'first' });
  app.clock.now++;
  return { service, entity };
}

describe('every write that changes an entity records exactly one event of its type', () => {
  const cases: { write: string; run: (c: Body, admin: Body) => Promise<unknown>; want: { eventType: string; version: [number, number]; change?: (d: Body) => void } }[] = [
    {
      write: 'PUT with a new description',
      run: (c) => app.put(v1('containers'), { name: 'raw', service: (c.service as Body).fullyQualifiedName, description: 'second' }).expect(200),
      want: { eventType: 'entityUpdated', version: [0.1, 0.2], change: (d) => expect(d.fieldsUpdated).toEqual([{ name: 'description', oldValue: 'first', newValue: 'second' }]) },
    },
    {
      write: 'PATCH adding a display name',
      run: (c) => app.patch(v1('containers', `/${String(c.id)}`), [{ op: 'add', path: '/displayName', value: 'Raw' }]).expect(200),
      want: { eventType: 'entityUpdated', version: [0.1, 0.2], change: (d) => expect(d.fieldsAdded).toEqual([{ name: 'displayName', newValue: 'Raw' }]) },
    },
    {
      write: 'soft delete',
      run: (c) => app.delete(v1('containers', `/${String(c.id)}`)).expect(200),
      want: { eventType: 'entitySoftDeleted', version: [0.1, 0.2], change: (d) => expect(d.fieldsUpdated).toEqual([{ name: 'deleted', oldValue: false, newValue: true }]) },
    },
    {
      write: 'hard delete',
      run: (c) => app.delete(v1('containers', `/${String(c.id)}?hardDelete=true`)).expect(204),
      want: { eventType: 'entityDeleted', version: [0.1, 0.1] },
    },
    {
      write: 'follow',
      run: (c, admin) =>
        app
          .put(v1('containers', `/${String(c.id)}/followers`), JSON.stringify(admin.id))
          .set('Content-Type', 'application/json')
          .expect(200),
      want: {
        eventType: 'entityUpdated',
        version: [0.1, 0.1],
        change: (d) => expect((d.fieldsAdded as Body[])[0]).toMatchObject({ name: 'followers', newValue: [{ name: 'admin', type: 'user' }] }),
      },
    },
    {
      write: 'vote',
      run: (c) => app.put(v1('containers', `/${String(c.id)}/vote`), { updatedVoteType: 'votedUp' }).expect(200),
      want: { eventType: 'entityUpdated', version: [0.1, 0.1], change: (d) => expect(d.fieldsUpdated).toEqual([{ name: 'votes', newValue: 'votedUp' }]) },
    },
  ];

  it.each(cases)('$write → one $want.eventType', async ({ run, want }) => {
    const admin = (await app.get(v1('users/loggedInUser')).expect(200)).body as Body;
    const { entity } = await container();
    const [create] = await events(String(entity.id));
    expect(create).toMatchObject({
      eventType: 'entityCreated',
      entityType: 'container',
      entityFullyQualifiedName: entity.fullyQualifiedName,
      userName: 'admin',
      previousVersion: 0.1,
      currentVersion: 0.1,
    });
    expect(create!.changeDescription).toBeUndefined();
    await run(entity, admin);
    const after = await events(String(entity.id));
    expect(after).toHaveLength(2);
    const event = after[1]!;
    expect(event).toMatchObject({ eventType: want.eventType, entityType: 'container', entityId: entity.id, userName: 'admin', timestamp: app.clock.now });
    expect([event.previousVersion, event.currentVersion]).toEqual(want.version);
    expect((event.entity as Body).id).toBe(entity.id);
    expect((event.entity as Body).href).toBe(`${app.baseUrl}/v1/containers/${String(entity.id)}`);
    if (want.change) want.change(event.changeDescription as Body);
  });

  it('restore records entityRestored, and unfollow lists the follower in fieldsDeleted', async () => {
    const admin = (await app.get(v1('users/loggedInUser')).expect(200)).body as Body;
    const { entity } = await container();
    const id = String(entity.id);
    await app.delete(v1('containers', `/${id}`)).expect(200);
    await app.put(v1('containers', '/restore'), { id }).expect(200);
    await app
      .put(v1('containers', `/${id}/followers`), JSON.stringify(admin.id))
      .set('Content-Type', 'application/json')
      .expect(200);
    await app.delete(v1('containers', `/${id}/followers/${String(admin.id)}`)).expect(200);
    const seen = await events(id);
    expect(seen.map((e) => e.eventType)).toEqual(['entityCreated', 'entitySoftDeleted', 'entityRestored', 'entityUpdated', 'entityUpdated']);
    expect(seen[2]).toMatchObject({ previousVersion: 0.2, currentVersion: 0.3, changeDescription: { fieldsUpdated: [{ name: 'deleted', oldValue: true, newValue: false }] } });
    expect((seen[4]!.changeDescription as Body).fieldsDeleted).toMatchObject([{ name: 'followers', oldValue: [{ id: admin.id }] }]);
  });

  it('a recursive delete records one event, about the entity the request names', async () => {
    const { service } = await container();
    const before = (await events()).length;
    await app.delete(v1('services/storageServices', `/${String(service.id)}?recursive=true`)).expect(200);
    const added = (await events()).slice(before);
    expect(added.map((e) => [e.eventType, e.entityId])).toEqual([['entitySoftDeleted', service.id]]);
  });

  it('a PUT that restores and changes records one entityUpdated with both changes', async () => {
    const { entity, service } = await container();
    await app.delete(v1('containers', `/${String(entity.id)}`)).expect(200);
    await app.put(v1('containers'), { name: 'raw', service: service.fullyQualifiedName, description: 'back' }).expect(200);
    const last = (await events(String(entity.id))).at(-1)!;
    expect(last).toMatchObject({ eventType: 'entityUpdated', previousVersion: 0.2, currentVersion: 0.4 });
    const names = [...((last.changeDescription as Body).fieldsUpdated as Body[])].map((f) => f.name);
    expect(names).toEqual(['deleted', 'description']);
  });
});

describe('a write that is refused or changes nothing records no event', () => {
  const cases: { write: string; run: (c: Body, service: Body) => Promise<unknown> }[] = [
    { write: 'a duplicate create (409)', run: (_c, s) => app.post(v1('containers'), { name: 'raw', service: s.name }).expect(409) },
    { write: 'an invalid body (400)', run: (_c, s) => app.post(v1('containers'), { name: 'x', service: s.name, extra: 1 }).expect(400) },
    { write: 'a PATCH of an unknown id (404)', run: () => app.patch(v1('containers', '/6f1e8a40-0000-4000-8000-000000000000'), []).expect(404) },
    { write: 'a delete a DataConsumer may not make (403)', run: async (c) => app.delete(v1('containers', `/${String(c.id)}`), await tokenFor('DataConsumer')).expect(403) },
    { write: 'a forced error (Prefer: code=409)', run: (_c, s) => app.post(v1('containers'), { name: 'forced', service: s.name }).set('Prefer', 'code=409').expect(409) },
    { write: 'a parent delete without recursive (400)', run: (_c, s) => app.delete(v1('services/storageServices', `/${String(s.id)}`)).expect(400) },
    { write: 'an unchanged PUT', run: (c, s) => app.put(v1('containers'), { name: 'raw', service: s.name, description: c.description }).expect(200) },
    { write: 'an empty PATCH', run: (c) => app.patch(v1('containers', `/${String(c.id)}`), []).expect(200) },
  ];

  it.each(cases)('$write', async ({ run }) => {
    // A token's user is created on its first request, refused or not: that is a change of its own.
    await app.get(v1('users/loggedInUser'), await tokenFor('DataConsumer')).expect(200);
    const { entity, service } = await container();
    const before = await events();
    await run(entity, service);
    expect(await events()).toEqual(before);
  });
});

describe('GET /v1/events filters as OpenMetadata', () => {
  it('lists, per event type, the entity types named (`*` all), oldest first, at or after `timestamp`', async () => {
    const since = ++app.clock.now;
    const { entity, service } = await container();
    await app.delete(v1('containers', `/${String(entity.id)}?hardDelete=true`)).expect(204);
    const ids = (list: Body[]) => list.filter((e) => (e.timestamp as number) >= since).map((e) => [e.eventType, e.entityType]);
    const cases: [string, string[][]][] = [
      [
        `entityCreated=*&timestamp=${since}`,
        [
          ['entityCreated', 'storageService'],
          ['entityCreated', 'container'],
        ],
      ],
      [`entityCreated=container&timestamp=${since}`, [['entityCreated', 'container']]],
      [
        `entityCreated=table,container&entityDeleted=container&timestamp=${since}`,
        [
          ['entityCreated', 'container'],
          ['entityDeleted', 'container'],
        ],
      ],
      [`entityUpdated=*&timestamp=${since}`, []],
      [`timestamp=${since}`, []],
      [`entityCreated=*&timestamp=${app.clock.now + 1}`, []],
    ];
    for (const [query, want] of cases) expect(ids(await events(undefined, query)), query).toEqual(want);
    expect(service.id).toBeDefined();
  });
});

describe('the event log is bounded and part of the state', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startApp({ maxEvents: 3 });
  }, SLOW_START);
  afterAll(() => small.close());

  it('keeps the newest `maxEvents`, dropping the oldest', async () => {
    const service = await small.create('services/storageServices', { name: 'svc', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    for (const name of ['a', 'b', 'c']) await small.create('containers', { name, service: 'svc' });
    const res = await small.get(`${v1('events')}?${ALL}`).expect(200);
    expect((res.body.data as Body[]).map((e) => e.entityFullyQualifiedName)).toEqual(['svc.a', 'svc.b', 'svc.c']);
    expect(service.id).toBeDefined();
  });

  it('is exported, imported and reset with the rest of the state', async () => {
    const exported = (await small.get('/__admin/state').expect(200)).body as { sideData: Record<string, Record<string, Body>> };
    const logged = Object.values(exported.sideData.changeEvents ?? {});
    expect(logged.map((e) => e.entityFullyQualifiedName)).toEqual(['svc.a', 'svc.b', 'svc.c']);
    await small.post('/__admin/reset').expect(200);
    // The request's own token re-creates its user after the reset: the one event left.
    const afterReset = (await small.get(`${v1('events')}?${ALL}`).expect(200)).body.data as Body[];
    expect(afterReset.map((e) => [e.eventType, e.entityFullyQualifiedName])).toEqual([['entityCreated', 'admin']]);
    await small.put('/__admin/state', exported).expect(200);
    const back = (await small.get(`${v1('events')}?${ALL}`).expect(200)).body.data as Body[];
    expect(back.map((e) => e.id)).toEqual(logged.map((e) => e.id));
  });
});

describe('the events survive a restart with --data, and follow answers with the recorded event', () => {
  it('replays the journal of events', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'ck-events-'));
    try {
      const dataFile = join(dir, 'state.json');
      const first = await startApp({ dataFile });
      await first.create('services/storageServices', { name: 'kept', serviceType: 'S3', connection: { config: { type: 'S3' } } });
      const before = (await first.get(`${v1('events')}?${ALL}`).expect(200)).body.data as Body[];
      await first.close();
      const second = await startApp({ dataFile });
      const after = (await second.get(`${v1('events')}?${ALL}`).expect(200)).body.data as Body[];
      expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('profile openmetadata: the ChangeEvent a follow answers with is the one recorded', async () => {
    const om = await startApp({ profile: 'openmetadata' });
    try {
      const admin = (await om.get(v1('users/loggedInUser')).expect(200)).body as Body;
      await om.create('services/storageServices', { name: 's', serviceType: 'S3', connection: { config: { type: 'S3' } } });
      const c = await om.create('containers', { name: 'c', service: 's' });
      const answer = (
        await om
          .put(v1('containers', `/${String(c.id)}/followers`), JSON.stringify(admin.id))
          .set('Content-Type', 'application/json')
          .expect(200)
      ).body as Body;
      const recorded = ((await om.get(`${v1('events')}?entityUpdated=container`).expect(200)).body.data as Body[]).at(-1)!;
      expect(recorded.id).toBe(answer.id);
      expect(recorded.changeDescription).toEqual(answer.changeDescription);
    } finally {
      await om.close();
    }
  });
});
