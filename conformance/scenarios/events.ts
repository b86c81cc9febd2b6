/**
 * Change events and the followers' feed (docs/behaviour.md "Events", "Activity feed"): a container
 * goes through create, PATCH, soft delete, restore and hard delete, each of which must add exactly
 * one event of its type to `GET /v1/events`; refused writes between them must add none; and a
 * user made to follow it must find the change in their `FOLLOWS` feed, where a user who does not
 * follow it finds nothing. A target without `GET /v1/events` (or `/v1/feed`) leaves the rules not
 * exercised.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS } from '../kinds.ts';
import type { ModelEntity } from '../model.ts';
import { createEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';

const TYPES = ['entityCreated', 'entityUpdated', 'entityRestored', 'entityDeleted'] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a target may take to show an event or a notification (some record them in the background); `--settle-timeout` overrides it. */
const PATIENCE_MS = 10_000;

/**
 * The event types recorded about one entity since `since` (server clock), oldest first, the events
 * themselves and the exchange that listed them. The list as answered must be oldest first (rule events.order).
 */
async function eventsAbout(s: Session, entityType: string, entityId: string, since: number): Promise<{ types: string[]; events: Record<string, unknown>[]; ex: Exchange }> {
  const query: Record<string, string | number> = { timestamp: since };
  for (const type of TYPES) query[type] = entityType;
  const ex = await s.send({ method: 'GET', path: '/v1/events', query });
  const body = setupOk(ex, [200], 'list change events (GET /v1/events)');
  const listed = (asArray(body.data) ?? []).map(asObject).filter((e): e is Record<string, unknown> => !!e);
  const times = listed.map((e) => Number(e.timestamp));
  const backwards = times.findIndex((t, i) => i > 0 && t < times[i - 1]!);
  s.checker.check(
    'events.order',
    backwards < 0,
    `GET /v1/events lists the ${listed.length} events oldest first (timestamps never going back)`,
    () => `event ${backwards} at ${times[backwards]}, after one at ${times[backwards - 1]}`,
    ex,
  );
  const events = listed.filter((e) => e.entityId === entityId).sort((a, b) => Number(a.timestamp) - Number(b.timestamp));
  return { types: events.map((e) => String(e.eventType)), events, ex };
}

/**
 * The entityUpdated event of a PATCH of the description: its entity is the container after the
 * write (rule events.entity-after-write), and its changeDescription says what changed (rule
 * events.change-description).
 */
async function checkUpdateEvent(s: Session, e: ModelEntity, since: number, change: { from: unknown; to: string; before: number; after: number }): Promise<void> {
  const { events, ex } = await eventsAbout(s, e.kind.id, e.id, since);
  const event = events.filter((x) => x.eventType === 'entityUpdated').at(-1);
  const entity = asObject(event?.entity);
  s.checker.check(
    'events.entity-after-write',
    entity !== undefined && entity.version === event?.currentVersion && entity.version === change.after && entity.description === change.to,
    `the entityUpdated event's entity is ${e.fqn} after the PATCH: version ${change.after} (the event's currentVersion), description ${JSON.stringify(change.to)}`,
    () => `entity version ${JSON.stringify(entity?.version)}, currentVersion ${JSON.stringify(event?.currentVersion)}, description ${JSON.stringify(entity?.description)}`,
    ex,
  );
  const description = asObject(event?.changeDescription);
  const updated = (asArray(description?.fieldsUpdated) ?? []).map(asObject).find((f) => f?.name === 'description');
  s.checker.check(
    'events.change-description',
    description?.previousVersion === change.before && updated?.oldValue === change.from && updated?.newValue === change.to,
    `its changeDescription: previousVersion ${change.before}, fieldsUpdated description from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)}`,
    () => JSON.stringify(event?.changeDescription ?? null).slice(0, 300),
    ex,
  );
}

/** Waits (a little) until at least `count` events are recorded about the entity; returns what is there then. */
async function awaitEvents(s: Session, entityType: string, entityId: string, since: number, count: number): Promise<{ types: string[]; ex: Exchange }> {
  const deadline = Date.now() + (s.ctx.settleTimeoutMs ?? PATIENCE_MS);
  for (;;) {
    const seen = await eventsAbout(s, entityType, entityId, since);
    if (seen.types.length >= count || Date.now() > deadline) return seen;
    await sleep(200);
  }
}

/** After a write, the events about `e` must be exactly the ones before plus one of `eventType`. */
async function expectOneMore(s: Session, e: ModelEntity, since: number, before: string[], eventType: string, what: string): Promise<string[]> {
  const want = [...before, eventType];
  const { types, ex } = await awaitEvents(s, e.kind.id, e.id, since, want.length);
  s.checker.check(
    'events.one-per-write',
    JSON.stringify(types) === JSON.stringify(want),
    `after ${what}, the events about ${e.fqn}: ${want.join(', ')}`,
    () => types.join(', ') || 'none',
    ex,
  );
  return types;
}

/** The threads of a user's FOLLOWS feed about an entity link, updated at or after `since`. */
async function followsFeed(s: Session, userId: string, about: string, since: number): Promise<{ threads: Record<string, unknown>[]; ex: Exchange }> {
  const ex = await s.send({ method: 'GET', path: '/v1/feed', query: { userId, filterType: 'FOLLOWS', limit: 100 } });
  const body = setupOk(ex, [200], 'list the feed (GET /v1/feed)');
  const threads = (asArray(body.data) ?? []).map(asObject).filter((t): t is Record<string, unknown> => !!t && t.about === about && Number(t.threadTs ?? t.updatedAt ?? 0) >= since);
  return { threads, ex };
}

export const changeEvents: Scenario = {
  name: 'change-events',
  rules: ['events.one-per-write', 'events.rejected-write-none', 'events.followers-notified', 'events.order', 'events.entity-after-write', 'events.change-description'],
  async run(s, m) {
    const { entity: service } = await createEntity(s, m, KINDS.storageService, null);
    if (!service) throw new SetupError('could not create a storage service');
    const created = await createEntity(s, m, KINDS.container, service);
    const c = created.entity;
    if (!c) throw new SetupError('could not create a container');
    const createdAt = Number(asObject(created.ex.json)?.updatedAt);
    // The server's clock, a minute early: the events are picked out by entity id anyway.
    const since = (Number.isFinite(createdAt) ? createdAt : Date.now()) - 60_000;
    const path = `${KINDS.container.path}/${c.id}`;

    let types = await expectOneMore(s, c, since, [], 'entityCreated', 'POST');
    const patch = async (value: string) => s.send({ method: 'PATCH', path, contentType: 'application/json-patch+json', body: [{ op: 'add', path: '/description', value }] });
    const patched = setupOk(await patch('changed by catalog-kit conform'), [200], 'PATCH the container');
    types = await expectOneMore(s, c, since, types, 'entityUpdated', 'PATCH');
    const createdBody = asObject(created.ex.json);
    await checkUpdateEvent(s, c, since, {
      from: createdBody?.description,
      to: 'changed by catalog-kit conform',
      before: Number(createdBody?.version),
      after: Number(patched.version),
    });

    // Refused writes: a duplicate name (409), an unknown service (404), a restore of a live entity (400).
    const refused = [
      await s.send({ method: 'POST', path: KINDS.container.path, body: { name: c.name, service: service.fqn } }),
      await s.send({ method: 'POST', path: KINDS.container.path, body: { name: m.freshName('nosvc'), service: m.freshName('missing') } }),
      await s.send({ method: 'PUT', path: `${KINDS.container.path}/restore`, body: { id: c.id } }),
    ];
    for (const ex of refused) if (ex.status < 400) throw new SetupError(`${ex.method} ${ex.url} was expected to be refused, answered ${ex.status}`);
    await sleep(200);
    const after = await eventsAbout(s, c.kind.id, c.id, since);
    s.checker.check(
      'events.rejected-write-none',
      JSON.stringify(after.types) === JSON.stringify(types),
      `after three refused writes (${refused.map((ex) => ex.status).join(', ')}), the events about ${c.fqn} unchanged: ${types.join(', ')}`,
      () => after.types.join(', '),
      after.ex,
    );

    setupOk(await s.send({ method: 'DELETE', path }), [200], 'soft delete the container');
    types = await expectOneMore(s, c, since, types, 'entitySoftDeleted', 'a soft delete');
    setupOk(await s.send({ method: 'PUT', path: `${KINDS.container.path}/restore`, body: { id: c.id } }), [200], 'restore the container');
    types = await expectOneMore(s, c, since, types, 'entityRestored', 'a restore');

    // A user who follows the container hears of a change made by someone else; one who does not, hears nothing.
    const name = m.freshName('follower');
    const user = await s.send({ method: 'POST', path: '/v1/users', body: { name, email: `${name}@example.com` } });
    const follower = setupOk(user, [200, 201], 'create a user to follow the container');
    if (typeof follower.id !== 'string') throw new SetupError('the created user has no id');
    s.registerExtra(`/v1/users/${follower.id}`);
    const followed = await s.send({ method: 'PUT', path: `${path}/followers`, body: follower.id });
    setupOk(followed, [200], 'make the user follow the container');
    const changed = setupOk(await patch('changed again by catalog-kit conform'), [200], 'PATCH the followed container');
    const changedAt = Number(changed.updatedAt ?? since);
    const about = `<#E::${c.kind.id}::${c.fqn}>`;
    const deadline = Date.now() + (s.ctx.settleTimeoutMs ?? PATIENCE_MS);
    let feed = await followsFeed(s, follower.id, about, changedAt);
    while (feed.threads.length === 0 && Date.now() < deadline) {
      await sleep(200);
      feed = await followsFeed(s, follower.id, about, changedAt);
    }
    s.checker.check(
      'events.followers-notified',
      feed.threads.length > 0,
      `the follower's feed (userId=${follower.id}, filterType=FOLLOWS) has a thread about ${about} from the change`,
      () => `${feed.threads.length} such threads`,
      feed.ex,
    );
    const me = s.ctx.userId;
    if (me && me !== follower.id) {
      const mine = await followsFeed(s, me, about, since);
      s.checker.check(
        'events.followers-notified',
        mine.threads.length === 0,
        `the feed of a user who does not follow ${c.fqn} has no thread about it`,
        () => `${mine.threads.length} threads`,
        mine.ex,
      );
    }

    // The follow and the second PATCH were writes too: the hard delete adds one event to whatever they added.
    const beforeDelete = await awaitEvents(s, c.kind.id, c.id, since, types.length + 2);
    setupOk(await s.send({ method: 'DELETE', path, query: { hardDelete: true } }), [200, 204], 'hard delete the container');
    await expectOneMore(s, c, since, beforeDelete.types, 'entityDeleted', 'a hard delete');
  },
};
