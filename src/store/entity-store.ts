/**
 * The generic in-memory entity store (DESIGN.md "Entity store"): O(1) lookup by id and by FQN,
 * uniqueness per kind and FQN, a parent→children index for recursive delete and restore, version
 * history per entity, and FQN-ordered keys per kind so that a list page costs O(log n + page).
 *
 * Every method is synchronous: a handler that checks and then writes (409 on a duplicate, a
 * recursive delete) does so without yielding, so concurrent requests cannot interleave with it.
 */
import type { Entity } from '../domain/entity.ts';
import { compactEntity } from './compact.ts';
import { SortedKeys } from './sorted-keys.ts';

export interface StoredEntity {
  /** The entity as the API returns it when every field is asked for. */
  entity: Entity;
  readonly type: string;
  /** The containing entity (service, parent container, database...) for recursive operations. */
  readonly parentId: string | undefined;
  /** JSON snapshots of earlier versions, oldest first (observed §1.9). */
  readonly history: string[];
  /** Id of the entity whose recursive soft delete took this one (restored together with it). */
  deletedBy: string | undefined;
}

export class EntityStore {
  private readonly byId = new Map<string, StoredEntity>();
  private readonly byFqn = new Map<string, Map<string, string>>();
  private readonly childIds = new Map<string, Set<string>>();
  private readonly ordered = new Map<string, SortedKeys>();
  private readonly deletedCounts = new Map<string, number>();

  get(id: string): StoredEntity | undefined {
    return this.byId.get(id);
  }

  getByFqn(type: string, fqn: string): StoredEntity | undefined {
    const id = this.byFqn.get(type)?.get(fqn);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Stores a new entity. The caller has checked uniqueness in the same synchronous step. */
  insert(type: string, created: Entity, parentId: string | undefined): StoredEntity {
    const entity = compactEntity(created);
    const stored: StoredEntity = { entity, type, parentId, history: [], deletedBy: undefined };
    this.byId.set(entity.id, stored);
    this.fqnIndex(type).set(entity.fullyQualifiedName, entity.id);
    this.orderedKeys(type).insert(entity.fullyQualifiedName, entity.id);
    if (parentId) {
      let set = this.childIds.get(parentId);
      if (!set) this.childIds.set(parentId, (set = new Set()));
      set.add(entity.id);
    }
    if (entity.deleted) this.countDeleted(type, 1);
    return stored;
  }

  /** Replaces the current version; `previous` (the JSON of the old version) joins the history. */
  update(stored: StoredEntity, next: Entity, previousJson: string | undefined): void {
    if (previousJson !== undefined) stored.history.push(previousJson);
    if (stored.entity.deleted !== next.deleted) this.countDeleted(stored.type, next.deleted ? 1 : -1);
    stored.entity = compactEntity(next);
  }

  /** Removes an entity for good (hard delete). Children must be removed first by the caller. */
  remove(stored: StoredEntity): void {
    const { entity, type, parentId } = stored;
    this.byId.delete(entity.id);
    this.byFqn.get(type)?.delete(entity.fullyQualifiedName);
    this.ordered.get(type)?.remove(entity.fullyQualifiedName, entity.id);
    if (parentId) this.childIds.get(parentId)?.delete(entity.id);
    this.childIds.delete(entity.id);
    if (entity.deleted) this.countDeleted(type, -1);
  }

  children(id: string): StoredEntity[] {
    const ids = this.childIds.get(id);
    if (!ids) return [];
    const out: StoredEntity[] = [];
    for (const childId of ids) {
      const child = this.byId.get(childId);
      if (child) out.push(child);
    }
    return out;
  }

  hasChildren(id: string): boolean {
    return (this.childIds.get(id)?.size ?? 0) > 0;
  }

  /** Every descendant, depth first, children before their parent (safe order for hard delete). */
  descendants(id: string): StoredEntity[] {
    const out: StoredEntity[] = [];
    const visit = (parentId: string): void => {
      for (const child of this.children(parentId)) {
        visit(child.entity.id);
        out.push(child);
      }
    };
    visit(id);
    return out;
  }

  /** Keys of one kind in FQN order, for paging. */
  orderedKeys(type: string): SortedKeys {
    let keys = this.ordered.get(type);
    if (!keys) this.ordered.set(type, (keys = new SortedKeys()));
    return keys;
  }

  count(type: string): number {
    return this.ordered.get(type)?.size ?? 0;
  }

  deletedCount(type: string): number {
    return this.deletedCounts.get(type) ?? 0;
  }

  /** Every stored entity of one kind, without visiting the others. */
  *ofType(type: string): IterableIterator<StoredEntity> {
    for (const id of this.byFqn.get(type)?.values() ?? []) {
      const stored = this.byId.get(id);
      if (stored) yield stored;
    }
  }

  /** Every stored entity of every kind (export, integrity checks). */
  *all(): IterableIterator<StoredEntity> {
    yield* this.byId.values();
  }

  /**
   * Entries held by each index, read-only, for src/store/integrity.ts: with the per-entity checks,
   * equal totals prove that no index keeps a stale entry (an FQN, key or child link of an entity
   * that is gone). Not for request handling.
   */
  indexSizes(): { ids: number; fqns: number; orderedKeys: number; childLinks: number; deleted: number } {
    let fqns = 0;
    for (const index of this.byFqn.values()) fqns += index.size;
    let orderedKeys = 0;
    for (const keys of this.ordered.values()) orderedKeys += keys.size;
    let childLinks = 0;
    for (const set of this.childIds.values()) childLinks += set.size;
    let deleted = 0;
    for (const n of this.deletedCounts.values()) deleted += n;
    return { ids: this.byId.size, fqns, orderedKeys, childLinks, deleted };
  }

  clear(): void {
    this.byId.clear();
    this.byFqn.clear();
    this.childIds.clear();
    this.ordered.clear();
    this.deletedCounts.clear();
  }

  private fqnIndex(type: string): Map<string, string> {
    let index = this.byFqn.get(type);
    if (!index) this.byFqn.set(type, (index = new Map()));
    return index;
  }

  private countDeleted(type: string, delta: number): void {
    this.deletedCounts.set(type, (this.deletedCounts.get(type) ?? 0) + delta);
  }
}
