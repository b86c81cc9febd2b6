/**
 * The integrity check of the entity store (run by the soak test, test/robustness/soak.ts): the data and
 * every index agree, and the tree is whole. A pure function over the store's public methods: it
 * reads, never writes, and returns one line per problem (an empty list means the state is sound).
 *
 * What must hold, and why:
 * - the id index and the FQN index find each entity under its own id and FQN (O(1) lookups, 409 on
 *   a duplicate FQN: contract "Create" rules), and hold nothing else;
 * - the FQN-ordered keys of each kind are sorted, one per entity, nothing else (list paging);
 * - the parent→children index is exactly the set of `parentId` links (recursive delete/restore);
 * - every child's parent exists, and a live child never sits under a soft-deleted parent
 *   (contract "Delete and restore" rules 1–4: a recursive delete takes the subtree along);
 * - `deletedBy` names an existing, deleted ancestor of a deleted entity (docs/behaviour.md "Restore":
 *   brings back what that delete took);
 * - the deleted counters equal the number of deleted entities per kind;
 * - followers and votes are consistent (docs/behaviour.md "Followers and votes");
 * - side data is kept only beside a stored entity of its area's owner type (it goes with the
 *   entity, src/core/side-data.ts).
 */
import type { EntityReference, Votes } from './entity.ts';
import type { EntityStore, StoredEntity } from './entity-store.ts';
import { ownerHolds } from './side-data.ts';

export function checkIntegrity(store: EntityStore): string[] {
  const problems: string[] = [];
  const entities = [...store.all()];
  const byType = new Map<string, StoredEntity[]>();
  const childrenOf = new Map<string, Set<string>>();
  for (const s of entities) {
    const list = byType.get(s.type);
    if (list) list.push(s);
    else byType.set(s.type, [s]);
    if (s.parentId !== undefined) {
      const set = childrenOf.get(s.parentId);
      if (set) set.add(s.entity.id);
      else childrenOf.set(s.parentId, new Set([s.entity.id]));
    }
  }
  for (const s of entities) {
    checkIndexes(store, s, problems);
    checkTree(store, s, childrenOf, problems);
    checkSocial(s, problems);
  }
  for (const [type, list] of byType) checkKind(store, type, list, problems);
  checkTotals(store, entities, problems);
  for (const { area, id } of store.sideEntries()) {
    const owner = store.get(id);
    if (!ownerHolds(area.owner, owner?.type))
      problems.push(`side data: ${area.key} holds a value for ${id}, which is not a stored ${area.owner}${owner ? ` (it is a ${owner.type})` : ''}`);
  }
  return problems;
}

const label = (s: StoredEntity) => `${s.type} ${s.entity.fullyQualifiedName} (${s.entity.id})`;

function checkIndexes(store: EntityStore, s: StoredEntity, problems: string[]): void {
  if (store.get(s.entity.id) !== s) problems.push(`id index: ${label(s)} is not found under its id`);
  const byFqn = store.getByFqn(s.type, s.entity.fullyQualifiedName);
  if (byFqn !== s) {
    problems.push(`FQN index: ${label(s)} is not found under its FQN${byFqn ? ` (it finds ${label(byFqn)})` : ''}`);
  }
}

function checkTree(store: EntityStore, s: StoredEntity, childrenOf: Map<string, Set<string>>, problems: string[]): void {
  const expected = childrenOf.get(s.entity.id) ?? new Set<string>();
  const indexed = new Set(store.children(s.entity.id).map((c) => c.entity.id));
  const missing = [...expected].filter((id) => !indexed.has(id));
  const extra = [...indexed].filter((id) => !expected.has(id));
  if (missing.length) problems.push(`children index: ${label(s)} lacks its children ${missing.join(', ')}`);
  if (extra.length) problems.push(`children index: ${label(s)} lists ${extra.join(', ')}, whose parent is another entity`);
  if (store.hasChildren(s.entity.id) !== expected.size > 0) problems.push(`children index: hasChildren(${label(s)}) disagrees with the data`);

  if (s.parentId !== undefined) {
    const parent = store.get(s.parentId);
    if (!parent) problems.push(`orphan: the parent ${s.parentId} of ${label(s)} does not exist`);
    else if (parent.entity.deleted && !s.entity.deleted) problems.push(`live under deleted: ${label(s)} is live, its parent ${label(parent)} is deleted`);
  }
  if (s.deletedBy !== undefined) {
    if (!s.entity.deleted) problems.push(`deletedBy: ${label(s)} is live but marked as taken by the delete of ${s.deletedBy}`);
    const by = store.get(s.deletedBy);
    if (!by) problems.push(`deletedBy: ${label(s)} names ${s.deletedBy}, which does not exist`);
    else if (!by.entity.deleted) problems.push(`deletedBy: ${label(s)} names ${label(by)}, which is not deleted`);
    if (!ancestorIds(store, s, problems).includes(s.deletedBy)) problems.push(`deletedBy: ${label(s)} names ${s.deletedBy}, which is not one of its ancestors`);
  }
}

/** Ids up the parent chain; a cycle is a problem of its own (and stops the walk). */
function ancestorIds(store: EntityStore, s: StoredEntity, problems: string[]): string[] {
  const out: string[] = [];
  let next = s.parentId;
  while (next !== undefined) {
    if (out.includes(next) || next === s.entity.id) {
      problems.push(`cycle: the parent chain of ${label(s)} loops through ${next}`);
      break;
    }
    out.push(next);
    next = store.get(next)?.parentId;
  }
  return out;
}

function checkSocial(s: StoredEntity, problems: string[]): void {
  const followers = (s.entity.followers as EntityReference[] | undefined) ?? [];
  if (new Set(followers.map((f) => f.id)).size !== followers.length) problems.push(`followers: ${label(s)} lists a follower twice`);
  const votes = s.entity.votes as Votes | undefined;
  if (!votes) return;
  const up = (votes.upVoters ?? []).map((v) => v.id);
  const down = (votes.downVoters ?? []).map((v) => v.id);
  if (votes.upVotes !== up.length || votes.downVotes !== down.length) {
    problems.push(`votes: ${label(s)} counts ${votes.upVotes} up / ${votes.downVotes} down for ${up.length} / ${down.length} voters`);
  }
  const all = [...up, ...down];
  if (new Set(all).size !== all.length) problems.push(`votes: ${label(s)} has a voter counted twice (or both up and down)`);
}

function checkKind(store: EntityStore, type: string, list: StoredEntity[], problems: string[]): void {
  const deleted = list.filter((s) => s.entity.deleted).length;
  if (store.deletedCount(type) !== deleted) problems.push(`deleted count: ${type} counts ${store.deletedCount(type)} deleted, the data has ${deleted}`);
  if (store.count(type) !== list.length) problems.push(`ordered keys: ${type} holds ${store.count(type)} keys for ${list.length} entities`);
  if (store.count(type) === 0) return;
  const keys = store.orderedKeys(type);
  const seen = new Set<string>();
  let previous: string | undefined;
  for (let i = 0; i < keys.size; i++) {
    const key = keys.at(i);
    if (key === undefined) break;
    if (previous !== undefined && !(previous < key)) problems.push(`ordered keys: ${type} keys out of order at ${i}`);
    previous = key;
    const s = store.getByFqn(type, key);
    if (!s || s.type !== type) problems.push(`ordered keys: ${type} key ${i} names ${key}, not a stored ${type}`);
    else if (s.entity.fullyQualifiedName !== key) problems.push(`ordered keys: the key of ${label(s)} is stale`);
    else if (store.orderedAt(type, i) !== s) problems.push(`ordered keys: ${type} key ${i} holds another entity than the one stored as ${key}`);
    if (seen.has(key)) problems.push(`ordered keys: ${type} lists ${key} twice`);
    seen.add(key);
  }
}

/** With every entity found in each index, equal totals mean no index holds anything else. */
function checkTotals(store: EntityStore, entities: StoredEntity[], problems: string[]): void {
  const sizes = store.indexSizes();
  // An orphan's link went with its parent; the orphan itself is reported by checkTree.
  const withParent = entities.filter((s) => s.parentId !== undefined && store.get(s.parentId) !== undefined).length;
  const deleted = entities.filter((s) => s.entity.deleted).length;
  const expect: [keyof typeof sizes, number, string][] = [
    ['ids', entities.length, 'entities'],
    ['fqns', entities.length, 'entities'],
    ['orderedKeys', entities.length, 'entities'],
    ['childLinks', withParent, 'entities with a parent'],
    ['deleted', deleted, 'deleted entities'],
  ];
  for (const [index, want, what] of expect) {
    if (sizes[index] !== want) problems.push(`${index} index: holds ${sizes[index]} entries for ${want} ${what} (stale entries)`);
  }
}
