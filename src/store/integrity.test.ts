import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';
import type { Entity } from '../domain/entity.ts';
import { EntityStore, type StoredEntity } from './entity-store.ts';
import { checkIntegrity } from './integrity.ts';
import { sideValue } from './side-data.ts';

const LABEL = sideValue<{ text: string }>({ group: 'containerLabels', owner: 'container', schema: 'Label' });

let n = 0;
function entity(fqn: string, extra: Record<string, unknown> = {}): Entity {
  n += 1;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return { id, name: fqn.split('.').pop()!, fullyQualifiedName: fqn, version: 0.1, updatedAt: 1, updatedBy: 'admin', deleted: false, ...extra } as Entity;
}

/** A service with a container holding a nested container, and a second service: a sound state. */
function tree() {
  const store = new EntityStore();
  const service = store.insert('storageService', entity('svc'), undefined);
  const container = store.insert('container', entity('svc.c'), service.entity.id);
  const nested = store.insert('container', entity('svc.c.n'), container.entity.id);
  const other = store.insert('storageService', entity('other'), undefined);
  return { store, service, container, nested, other };
}

/** What the lifecycle does on a recursive soft delete: each descendant deleted, marked as taken. */
function softDeleteTree(store: EntityStore, root: StoredEntity): void {
  for (const child of store.descendants(root.entity.id)) {
    store.update(child, { ...child.entity, deleted: true }, JSON.stringify(child.entity));
    child.deletedBy = root.entity.id;
  }
  store.update(root, { ...root.entity, deleted: true }, JSON.stringify(root.entity));
}

describe('checkIntegrity: a sound store passes', () => {
  it('a fresh tree has no problems', () => {
    expect(checkIntegrity(tree().store)).toEqual([]);
  });

  it('a recursive soft delete, then a hard delete of another subtree, has no problems', () => {
    const { store, service, other } = tree();
    softDeleteTree(store, service);
    const leaf = store.insert('container', entity('other.x'), other.entity.id);
    store.remove(leaf);
    store.remove(other);
    expect(checkIntegrity(store)).toEqual([]);
  });

  it('the state the server builds through its API (creates, recursive delete, restore, votes) has no problems', async () => {
    const { app, ctx } = await createApp({ log: () => {} });
    const auth = `Bearer ${await signToken({ user: 'admin', role: 'Admin' })}`;
    const api = (method: 'post' | 'put' | 'delete', path: string, body?: unknown) =>
      request(app)
        [method](`/api/v1${path}`)
        .set('Authorization', auth)
        .send(body as object);
    await api('post', '/services/storageServices', { name: 's', serviceType: 'CustomStorage', connection: { config: { type: 'CustomStorage' } } }).expect(201);
    const c = (await api('post', '/containers', { name: 'c', service: 's' }).expect(201)).body as Entity;
    await api('post', '/containers', { name: 'n', service: 's', parent: { id: c.id, type: 'container' } }).expect(201);
    await api('put', `/containers/${c.id}/vote`, { updatedVoteType: 'votedUp' }).expect(200);
    const svc = (await api('delete', '/services/storageServices/name/s?recursive=true').expect(200)).body as Entity;
    expect(checkIntegrity(ctx.store)).toEqual([]);
    await api('put', '/services/storageServices/restore', { id: svc.id }).expect(200);
    expect(checkIntegrity(ctx.store)).toEqual([]);
    expect([...ctx.store.all()].filter((s) => s.entity.deleted)).toEqual([]);
  });
});

describe('checkIntegrity: a corrupted store is caught', () => {
  it('a parent removed under its children leaves orphans, which are named', () => {
    const { store, container } = tree();
    store.remove(container);
    expect(checkIntegrity(store)).toEqual([expect.stringMatching(/^orphan: the parent .* of container svc\.c\.n /)]);
  });

  it('a soft-deleted parent with a live child is caught', () => {
    const { store, service } = tree();
    store.update(service, { ...service.entity, deleted: true }, undefined);
    expect(checkIntegrity(store)).toEqual([expect.stringMatching(/^live under deleted: container svc\.c .* its parent storageService svc/)]);
  });

  it('an entity renamed behind the indexes is caught by the FQN index, the ordered keys and the totals', () => {
    const { store, nested } = tree();
    nested.entity = { ...nested.entity, fullyQualifiedName: 'svc.c.renamed' };
    const problems = checkIntegrity(store);
    expect(problems).toContainEqual(expect.stringMatching(/^FQN index: container svc\.c\.renamed .* not found under its FQN/));
    expect(problems).toContainEqual(expect.stringMatching(/^ordered keys: the key of container svc\.c\.renamed .* is stale/));
  });

  it('two entities of one kind under one FQN are caught', () => {
    const { store, service } = tree();
    store.insert('container', entity('svc.c'), service.entity.id);
    const problems = checkIntegrity(store);
    expect(problems).toContainEqual(expect.stringMatching(/^FQN index: container svc\.c .* is not found under its FQN \(it finds container svc\.c/));
  });

  it('a deleted flag set without the store knowing breaks the deleted count', () => {
    const { store, nested } = tree();
    nested.entity = { ...nested.entity, deleted: true };
    expect(checkIntegrity(store)).toEqual(['deleted count: container counts 0 deleted, the data has 1', 'deleted index: holds 0 entries for 1 deleted entities (stale entries)']);
  });

  it('a stray ordered key is caught, by kind and in the totals', () => {
    const { store } = tree();
    store.orderedKeys('container').insert('svc.zzz', 'ghost');
    const problems = checkIntegrity(store);
    expect(problems).toContain('ordered keys: container holds 3 keys for 2 entities');
    expect(problems).toContain('ordered keys: container key 2 names ghost, not a stored container');
    expect(problems).toContain('orderedKeys index: holds 5 entries for 4 entities (stale entries)');
  });

  it('a deletedBy that names a live entity outside the ancestors is caught', () => {
    const { store, service, nested, other } = tree();
    softDeleteTree(store, service);
    nested.deletedBy = other.entity.id;
    const problems = checkIntegrity(store);
    expect(problems).toContainEqual(expect.stringMatching(/^deletedBy: container svc\.c\.n .* names storageService other .*, which is not deleted/));
    expect(problems).toContainEqual(expect.stringMatching(/^deletedBy: container svc\.c\.n .* which is not one of its ancestors/));
  });

  it('vote counts that disagree with the voter lists, and a follower listed twice, are caught', () => {
    const { store, container } = tree();
    const fan = { id: '11111111-1111-4111-8111-111111111111', type: 'user' };
    container.entity = { ...container.entity, followers: [fan, fan], votes: { upVotes: 2, downVotes: 0, upVoters: [fan], downVoters: [] } };
    expect(checkIntegrity(store)).toEqual([
      expect.stringMatching(/^followers: container svc\.c .* lists a follower twice/),
      expect.stringMatching(/^votes: container svc\.c .* counts 2 up \/ 0 down for 1 \/ 0 voters/),
    ]);
  });
  it('side data beside an entity that is not stored, or of another type, is caught; beside its own entity it is sound', () => {
    const { store, container, service } = tree();
    store.setSide(LABEL, container.entity.id, { text: 'fine' });
    expect(checkIntegrity(store)).toEqual([]);
    store.setSide(LABEL, service.entity.id, { text: 'wrong owner' });
    store.setSide(LABEL, '22222222-2222-4222-8222-222222222222', { text: 'nobody' });
    expect(checkIntegrity(store)).toEqual([
      `side data: containerLabels holds a value for ${service.entity.id}, which is not a stored container (it is a storageService)`,
      'side data: containerLabels holds a value for 22222222-2222-4222-8222-222222222222, which is not a stored container',
    ]);
  });
});
