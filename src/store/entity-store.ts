/**
 * The generic in-memory entity store: O(1) lookup by id and by FQN, uniqueness per kind and FQN, a
 * parent→children index for recursive delete and restore, version history per entity, FQN-ordered
 * keys per kind so that a list page costs O(log n + page), and the data kept beside entities in
 * named areas (src/store/side-data.ts), dropped with its entity and carried by export and import.
 * The store is the whole state: clearing it, exporting it and importing it covers everything.
 *
 * Every method is synchronous: a handler that checks and then writes (409 on a duplicate, a
 * recursive delete) does so without yielding, so concurrent requests cannot interleave with it.
 */
import type { Entity } from '../domain/entity.ts';
import { compactEntity } from './compact.ts';
import type { SideData, SideDataExport } from './side-data.ts';
import { declaredSideData } from './side-data.ts';
import { SortedKeys } from './sorted-keys.ts';

export interface StoredEntity {
  /** The entity as the API returns it when every field is asked for. */
  entity: Entity;
  readonly type: string;
  /** The containing entity (service, parent container, database...) for recursive operations. */
  readonly parentId: string | undefined;
  /** JSON snapshots of earlier versions, oldest first (docs/behaviour.md "Versions"). */
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
  /** Side data: per area (by key), the value of each entity id. Values are frozen: a write replaces them. */
  private readonly side = new Map<string, { area: SideData<unknown>; values: Map<string, unknown> }>();

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
    for (const { values } of this.side.values()) values.delete(entity.id);
  }

  /** The value an area holds for an entity. Frozen: change it by `setSide` with a new value. */
  getSide<T>(area: SideData<T>, id: string): T | undefined {
    return this.side.get(area.key)?.values.get(id) as T | undefined;
  }

  /**
   * Replaces the value an area holds for an entity; `undefined` (or an empty series) removes it.
   * The value is frozen (its top level), so a change made in place fails loudly instead of
   * escaping the `--data` journal, which sees a write as a new value (src/persistence/changes.ts).
   */
  setSide<T>(area: SideData<T>, id: string, value: T | undefined): void {
    let slot = this.side.get(area.key);
    if (value === undefined || (area.series && (value as readonly unknown[]).length === 0)) {
      slot?.values.delete(id);
      return;
    }
    if (!slot) this.side.set(area.key, (slot = { area: area as SideData<unknown>, values: new Map() }));
    slot.values.set(id, typeof value === 'object' && value !== null ? Object.freeze(value) : value);
  }

  /** Every side data value with its area and entity id (the `--data` journal compares them). */
  *sideEntries(): IterableIterator<{ area: SideData<unknown>; id: string; value: unknown }> {
    for (const { area, values } of this.side.values()) {
      for (const [id, value] of values) yield { area, id, value };
    }
  }

  /**
   * The side data in the export layout (src/store/side-data.ts), a copy: every declared group, and
   * in an entry of a group with fields, every series of the group (`[]` when it has none).
   */
  exportSideData(): SideDataExport {
    const declared = declaredSideData();
    const out: SideDataExport = {};
    for (const area of declared) out[area.group] ??= {};
    for (const { area, id, value } of this.sideEntries()) {
      const group = (out[area.group] ??= {});
      if (area.field === undefined) group[id] = structuredClone(value);
      else ((group[id] ??= {}) as Record<string, unknown>)[area.field] = structuredClone(value);
    }
    for (const area of declared) {
      if (area.field === undefined || !area.series) continue;
      for (const entry of Object.values(out[area.group]!)) (entry as Record<string, unknown>)[area.field] ??= [];
    }
    return out;
  }

  /**
   * Replaces the side data with an export's (checked by the caller: src/admin/side-data.ts), read
   * through the declared areas; series are put in timestamp order. Groups and fields no area
   * declares are ignored. The values are copied: the export can be imported again.
   */
  importSideData(data: SideDataExport): void {
    this.side.clear();
    for (const area of declaredSideData()) {
      for (const [id, entry] of Object.entries(data[area.group] ?? {})) {
        const raw = area.field === undefined ? entry : (entry as Record<string, unknown> | undefined)?.[area.field];
        if (raw === undefined) continue;
        const value = structuredClone(raw);
        if (area.series) (value as { timestamp: number }[]).sort((a, b) => a.timestamp - b.timestamp);
        this.setSide(area, id, value);
      }
    }
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
    this.side.clear();
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
