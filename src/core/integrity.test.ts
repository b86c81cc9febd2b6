import { describe, expect, it } from 'vitest';
import { startApp } from '../../test/kit.ts';
import type { Entity } from './entity.ts';
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
    store.update(child, { ...child.entity, deleted: true }, true);
    child.deletedBy = root.entity.id;
  }
  store.update(root, { ...root.entity, deleted: true }, true);
}

type Tree = ReturnType<typeof tree>;

describe('checkIntegrity: a sound store passes', () => {
  it.each<{ given: string; build: (t: Tree) => void }>([
    { given: 'a fresh tree', build: () => {} },
    {
      given: 'a recursive soft delete, then a hard delete of another subtree',
      build: ({ store, service, other }) => {
        softDeleteTree(store, service);
        store.remove(store.insert('container', entity('other.x'), other.entity.id));
        store.remove(other);
      },
    },
    { given: 'side data beside an entity of its owner type', build: ({ store, container }) => store.setSide(LABEL, container.entity.id, { text: 'fine' }) },
  ])('$given → no problems', ({ build }) => {
    const t = tree();
    build(t);
    expect(checkIntegrity(t.store)).toEqual([]);
  });

  it('the state the server builds through its API (creates, recursive delete, restore, votes) has no problems', async () => {
    const catalog = await startApp();
    const { ctx } = catalog;
    const api = (method: 'post' | 'put' | 'delete', path: string, body?: unknown) => catalog.request(method, `/api/v1${path}`).send(body as object);
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

describe('checkIntegrity: a corrupted store is caught (given a corruption, want the problems it names)', () => {
  const fan = { id: '11111111-1111-4111-8111-111111111111', type: 'user' };
  it.each<{ given: string; corrupt: (t: Tree) => void; want: (string | RegExp)[]; only?: true }>([
    {
      given: 'a parent removed under its children',
      corrupt: ({ store, container }) => store.remove(container),
      want: [/^orphan: the parent .* of container svc\.c\.n /],
      only: true,
    },
    {
      given: 'a soft-deleted parent with a live child',
      corrupt: ({ store, service }) => store.update(service, { ...service.entity, deleted: true }, false),
      want: [/^live under deleted: container svc\.c .* its parent storageService svc/],
      only: true,
    },
    {
      given: 'an entity renamed behind the indexes',
      corrupt: ({ nested }) => (nested.entity = { ...nested.entity, fullyQualifiedName: 'svc.c.renamed' }),
      want: [/^FQN index: container svc\.c\.renamed .* not found under its FQN/, /^ordered keys: the key of container svc\.c\.renamed .* is stale/],
    },
    {
      given: 'two entities of one kind under one FQN',
      corrupt: ({ store, service }) => store.insert('container', entity('svc.c'), service.entity.id),
      want: [/^FQN index: container svc\.c .* is not found under its FQN \(it finds container svc\.c/],
    },
    {
      given: 'a deleted flag set without the store knowing',
      corrupt: ({ nested }) => (nested.entity = { ...nested.entity, deleted: true }),
      want: ['deleted count: container counts 0 deleted, the data has 1', 'deleted index: holds 0 entries for 1 deleted entities (stale entries)'],
      only: true,
    },
    {
      given: 'a stray ordered key',
      corrupt: ({ store, nested }) => store.orderedKeys('container').insert('svc.zzz', nested),
      want: [
        'ordered keys: container holds 3 keys for 2 entities',
        'ordered keys: container key 2 names svc.zzz, not a stored container',
        'orderedKeys index: holds 5 entries for 4 entities (stale entries)',
      ],
    },
    {
      given: 'an ordered key holding another entity',
      corrupt: ({ store, container, nested }) => {
        store.orderedKeys('container').remove(container.entity.fullyQualifiedName);
        store.orderedKeys('container').insert(container.entity.fullyQualifiedName, nested);
      },
      want: [/^ordered keys: container key 0 holds another entity than the one stored as svc\.c$/],
      only: true,
    },
    {
      given: 'a deletedBy naming a live entity outside the ancestors',
      corrupt: ({ store, service, nested, other }) => {
        softDeleteTree(store, service);
        nested.deletedBy = other.entity.id;
      },
      want: [/^deletedBy: container svc\.c\.n .* names storageService other .*, which is not deleted/, /^deletedBy: container svc\.c\.n .* which is not one of its ancestors/],
    },
    {
      given: 'vote counts that disagree with the voter lists, and a follower listed twice',
      corrupt: ({ container }) => (container.entity = { ...container.entity, followers: [fan, fan], votes: { upVotes: 2, downVotes: 0, upVoters: [fan], downVoters: [] } }),
      want: [/^followers: container svc\.c .* lists a follower twice/, /^votes: container svc\.c .* counts 2 up \/ 0 down for 1 \/ 0 voters/],
      only: true,
    },
    {
      given: 'side data beside an entity of another type, and beside no entity',
      corrupt: ({ store, service }) => {
        store.setSide(LABEL, service.entity.id, { text: 'wrong owner' });
        store.setSide(LABEL, '22222222-2222-4222-8222-222222222222', { text: 'nobody' });
      },
      want: [
        /^side data: containerLabels holds a value for \S+, which is not a stored container \(it is a storageService\)$/,
        'side data: containerLabels holds a value for 22222222-2222-4222-8222-222222222222, which is not a stored container',
      ],
      only: true,
    },
  ])('$given', ({ corrupt, want, only }) => {
    const t = tree();
    corrupt(t);
    const matchers = want.map((w) => (typeof w === 'string' ? w : expect.stringMatching(w)));
    expect(checkIntegrity(t.store)).toEqual(only ? matchers : expect.arrayContaining(matchers));
  });
});
