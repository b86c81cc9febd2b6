/**
 * Operations that must be atomic (the check-then-insert behind a 409, a recursive delete or
 * restore, follows and votes) stay atomic under concurrent clients. Against the real HTTP server on 127.0.0.1 (port 0), with requests in flight
 * together; no timing is asserted, only outcomes and the final state.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogContext } from '../../src/core/context.ts';
import type { TestApp } from '../kit.ts';
import { startApp, tokenFor } from '../kit.ts';

let server: TestApp;
let admin: string;

beforeAll(async () => {
  server = await startApp({ validateResponses: false });
  admin = server.tokens.admin;
});

type Ref = { id: string };
/** The fields of a response body this file reads (an entity, an error, or an entity with its followers and votes). */
type Body = { id: string; message: string; version: number; followers: Ref[]; votes: { upVotes: number; downVotes: number; upVoters: Ref[]; downVoters: Ref[] } };

async function call(method: string, path: string, body?: unknown, token = admin): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const service = (name: string) => ({ name, serviceType: 'CustomStorage', connection: { config: { type: 'CustomStorage' } } });
const countBy = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

/** Every stored child's parent exists, and a live child never has a deleted parent. */
function orphans(ctx: CatalogContext): string[] {
  const out: string[] = [];
  for (const stored of ctx.store.all()) {
    if (!stored.parentId) continue;
    const parent = ctx.store.get(stored.parentId);
    if (!parent) out.push(`${stored.entity.fullyQualifiedName}: parent gone`);
    else if (parent.entity.deleted && !stored.entity.deleted) out.push(`${stored.entity.fullyQualifiedName}: live under a deleted parent`);
  }
  return out;
}

describe('creating one name from many clients at once', () => {
  it('50 parallel POSTs of one name give exactly one 201 and 49 × 409, and one stored entity', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => call('POST', '/v1/services/storageServices', service('race-post'))));
    expect(countBy(results.map((r) => r.status))).toEqual({ 201: 1, 409: 49 });
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ code: 409, errorType: 'ENTITY_ALREADY_EXISTS', message: 'Entity already exists' });
    const stored = [...server.ctx.store.all()].filter((s) => s.entity.name === 'race-post');
    expect(stored.map((s) => s.entity.version)).toEqual([0.1]);
  });

  it('50 parallel PUT upserts of one new FQN create exactly one entity (one 201, 49 × 200 unchanged)', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => call('PUT', '/v1/services/storageServices', service('race-put'))));
    expect(countBy(results.map((r) => r.status))).toEqual({ 200: 49, 201: 1 });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const stored = [...server.ctx.store.all()].filter((s) => s.entity.name === 'race-put');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.entity.version).toBe(0.1);
  });

  it('50 parallel POSTs of one container name under one service give one 201', async () => {
    await call('POST', '/v1/services/storageServices', service('race-parent'));
    const results = await Promise.all(Array.from({ length: 50 }, () => call('POST', '/v1/containers', { name: 'same', service: 'race-parent' })));
    expect(countBy(results.map((r) => r.status))).toEqual({ 201: 1, 409: 49 });
  });
});

describe('a recursive delete racing with child creation', () => {
  it.each([
    ['hard', 'hardDelete=true&recursive=true'],
    ['soft', 'recursive=true'],
  ])('a %s recursive delete in the middle of 40 child creations leaves no orphan', async (kind, query) => {
    const name = `race-delete-${kind}`;
    const svc = await call('POST', '/v1/services/storageServices', service(name));
    const creates = Array.from({ length: 40 }, (_, i) => call('POST', '/v1/containers', { name: `c${i}`, service: name }));
    const nested = Array.from({ length: 10 }, (_, i) => call('POST', '/v1/containers', { name: `n${i}`, service: name, parent: { id: svc.body.id, type: 'container' } }));
    const removal = call('DELETE', `/v1/services/storageServices/${svc.body.id}?${query}`);
    const results = await Promise.all([...creates.slice(0, 20), removal, ...creates.slice(20), ...nested]);
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    expect([200, 204]).toContain((await removal).status);
    expect(orphans(server.ctx)).toEqual([]);
    const survivors = [...server.ctx.store.all()].filter((s) => s.entity.fullyQualifiedName.startsWith(`${name}.`));
    if (kind === 'hard') expect(survivors).toEqual([]);
    else expect(survivors.every((s) => s.entity.deleted)).toBe(true);
    // Creations after the delete were refused with a client error naming the missing or deleted service.
    for (const r of results.filter((x) => x.status >= 400)) expect(r.body.message).toMatch(new RegExp(`${name}|not found|deleted`));
  });
});

describe('followers and votes from many clients at once', () => {
  const USERS = Array.from({ length: 20 }, (_, i) => `fan${i}`);
  let containerId: string;
  const tokens: Record<string, string> = {};
  const userIds: Record<string, string> = {};

  beforeAll(async () => {
    await call('POST', '/v1/services/storageServices', service('social'));
    containerId = (await call('POST', '/v1/containers', { name: 'popular', service: 'social' })).body.id;
    for (const user of USERS) {
      tokens[user] = await tokenFor('DataConsumer', user);
      userIds[user] = (await call('GET', `/v1/users/name/${user}`, undefined, tokens[user])).body.id;
    }
  });

  const followers = async () => (await call('GET', `/v1/containers/${containerId}?fields=followers,votes`)).body;

  it('20 users following in parallel (each twice) are 20 followers', async () => {
    const results = await Promise.all(USERS.flatMap((u) => [0, 1].map(() => call('PUT', `/v1/containers/${containerId}/followers`, userIds[u], tokens[u]))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = (await followers()).followers.map((f: { id: string }) => f.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids)).toEqual(new Set(Object.values(userIds)));
  });

  it('parallel unfollows of half and re-follows of the other half leave exactly the other half', async () => {
    const leaving = USERS.slice(0, 10);
    const staying = USERS.slice(10);
    await Promise.all([
      ...leaving.map((u) => call('DELETE', `/v1/containers/${containerId}/followers/${userIds[u]}`, undefined, tokens[u])),
      ...staying.map((u) => call('PUT', `/v1/containers/${containerId}/followers`, userIds[u], tokens[u])),
    ]);
    const ids = (await followers()).followers.map((f: { id: string }) => f.id).sort();
    expect(ids).toEqual(staying.map((u) => userIds[u]).sort());
  });

  it('parallel votes leave counts equal to the voter lists, one vote per user', async () => {
    const version = (await followers()).version;
    await Promise.all(USERS.map((u, i) => call('PUT', `/v1/containers/${containerId}/vote`, { updatedVoteType: i % 4 === 0 ? 'votedDown' : 'votedUp' }, tokens[u])));
    // Then everyone changes their mind at once: up ↔ down, and the first two withdraw.
    await Promise.all(
      USERS.map((u, i) => call('PUT', `/v1/containers/${containerId}/vote`, { updatedVoteType: i < 2 ? 'unVoted' : i % 4 === 0 ? 'votedUp' : 'votedDown' }, tokens[u])),
    );
    const { votes, version: after } = await followers();
    expect(votes.upVotes).toBe(votes.upVoters.length);
    expect(votes.downVotes).toBe(votes.downVoters.length);
    const ups = USERS.filter((_, i) => i >= 2 && i % 4 === 0)
      .map((u) => userIds[u])
      .sort();
    const downs = USERS.filter((_, i) => i >= 2 && i % 4 !== 0)
      .map((u) => userIds[u])
      .sort();
    expect(votes.upVoters.map((v: { id: string }) => v.id).sort()).toEqual(ups);
    expect(votes.downVoters.map((v: { id: string }) => v.id).sort()).toEqual(downs);
    expect(after).toBe(version); // votes never change the version (docs/behaviour.md "Followers and votes")
  });
});
