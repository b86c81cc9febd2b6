/**
 * The generic in-memory entity store: O(1) lookup by id and by FQN, uniqueness per kind and FQN, a
 * parent→children index for recursive delete and restore, version history per entity, FQN-ordered
 * keys per kind so that a list page costs O(log n + page), and the data kept beside entities in
 * named areas (src/core/side-data.ts), dropped with its entity and carried by export and import.
 * The store is the whole state: clearing it, exporting it and importing it covers everything.
 *
 * Every method is synchronous: a handler that checks and then writes (409 on a duplicate, a
 * recursive delete) does so without yielding, so concurrent requests cannot interleave with it.
 */
import type { Entity } from './entity.ts';
import { SharedReferences, compactEntity } from './compact.ts';
import type { SideData, SideDataExport } from './side-data.ts';
import { declaredSideData } from './side-data.ts';
import { SortedKeys } from './sorted-keys.ts';

export interface StoredEntity {
  /** The entity as the API returns it when every field is asked for. */
  entity: Entity;
  readonly type: string;
  /** The containing entity (service, parent container, database...) for recursive operations. */
  readonly parentId: string | undefined;
  /**
   * Earlier versions, oldest first (docs/behaviour.md "Versions"): each the very object that was
   * `entity` before a write replaced it. A stored entity is never changed in place (a write builds
   * a new one), so each is a snapshot; keeping the object, instead of its JSON, costs a write
   * nothing.
   */
  readonly history: Entity[];
  /** Id of the entity whose recursive soft delete took this one (restored together with it). */
  deletedBy: string | undefined;
  /**
   * The entity tag of `taggedEntity` (src/core/projection.ts `entityTag` computes and keeps it):
   * it names `entity` only while `taggedEntity` is `entity`. Kept here rather than in a map by
   * entity, so a write's new version replaces the last tag instead of adding one for every version
   * the history keeps.
   */
  tag?: string | undefined;
  taggedEntity?: Entity | undefined;
}

/** The whole state of a store at one moment, kept apart from it (`EntityStore.snapshot`). */
export interface StoreSnapshot {
  readonly entities: readonly { entity: Entity; type: string; parentId: string | undefined; history: readonly Entity[]; deletedBy: string | undefined }[];
  readonly side: ReadonlyMap<string, { area: SideData<unknown>; values: ReadonlyMap<string, unknown> }>;
}

/** A change to the stored entities: one stored or replaced (`put`), one removed for good (`remove`), or all dropped (`clear`). */
export type StoreChange = { readonly op: 'put' | 'remove'; readonly stored: StoredEntity } | { readonly op: 'clear' };
export type StoreListener = (change: StoreChange) => void;

/** One side data area's values, by entity id, in the order they were first set. */
interface SideSlot {
  area: SideData<unknown>;
  values: Map<string, unknown>;
  /** Where `dropOldestSide` stopped: the first value it has not dropped. */
  oldest?: MapIterator<string>;
}

/**
 * A stored entity. Writes replace `entity` whole, in several places (src/core/lifecycle.ts,
 * social.ts, dependents.ts), so its setter is the one place that sees every change: it tells the
 * store, which tells its listeners (derived state such as the search index, src/features/search/).
 */
class Slot implements StoredEntity {
  #entity: Entity;
  readonly history: Entity[] = [];
  deletedBy: string | undefined = undefined;
  tag: string | undefined = undefined;
  taggedEntity: Entity | undefined = undefined;

  constructor(
    entity: Entity,
    readonly type: string,
    readonly parentId: string | undefined,
    private readonly changed: (stored: StoredEntity) => void,
  ) {
    this.#entity = entity;
  }

  get entity(): Entity {
    return this.#entity;
  }

  set entity(next: Entity) {
    this.#entity = next;
    this.changed(this);
  }
}

export class EntityStore {
  private readonly byId = new Map<string, StoredEntity>();
  private readonly byFqn = new Map<string, Map<string, string>>();
  private readonly childIds = new Map<string, Set<string>>();
  private readonly ordered = new Map<string, SortedKeys<StoredEntity>>();
  private readonly deletedCounts = new Map<string, number>();
  /** Side data: per area (by key), the value of each entity id. Values are frozen: a write replaces them. */
  private readonly side = new Map<string, SideSlot>();
  private listeners: readonly StoreListener[] = [];
  /**
   * Side data values changed since the last `takeSideChanges()` (per area, the keys), or 'all'
   * after a clear or an import; undefined while nobody tracks them (the `--data` journal does:
   * src/app/persistence/changes.ts reads only what changed instead of comparing every value).
   */
  private sideDirty: Map<SideData<unknown>, Set<string>> | 'all' | undefined;
  /** While `atomically` runs: how to undo each change made so far, in order; and the entities already snapshotted. */
  private undo: (() => void)[] | undefined;
  private readonly touched = new Set<StoredEntity>();
  /** Equal entity references held by the stored entities, one object each (src/core/compact.ts). */
  private readonly references = new SharedReferences();

  /**
   * Runs `write`; when it throws, every change it made to the stored entities and the side data is
   * undone before the error goes on, so a refused write leaves nothing behind (the API's write
   * routes run in one: src/http/operation-routes.ts). The entities are restored as the very
   * objects they were, so the `--data` journal, which compares objects (src/app/persistence/changes.ts),
   * sees no change; the listeners hear of each restored entity. An entity is snapshotted when a
   * write first reads it from the store (`get`, `getByFqn`, `children`, `ofType`, `all`): writes
   * reach entities only through those. `clear` and `importSideData` are not undone. A nested call
   * is part of the outer one. `write` must be synchronous (what it does after an `await` is not covered).
   */
  atomically<T>(write: () => T): T {
    if (this.undo) return write();
    const undo: (() => void)[] = (this.undo = []);
    try {
      return write();
    } catch (error) {
      this.undo = undefined;
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
      throw error;
    } finally {
      this.undo = undefined;
      this.touched.clear();
    }
  }

  /** Within `atomically`: remembers the entity as it is, once, so that it can be put back. */
  private touch<S extends StoredEntity | undefined>(stored: S): S {
    if (!this.undo || !stored || this.touched.has(stored)) return stored;
    this.touched.add(stored);
    const { entity, deletedBy } = stored;
    const historyLength = stored.history.length;
    this.undo.push(() => {
      if (stored.entity !== entity) {
        if (stored.entity.deleted !== entity.deleted && this.byId.get(entity.id) === stored) this.countDeleted(stored.type, entity.deleted ? 1 : -1);
        stored.entity = entity;
      }
      stored.deletedBy = deletedBy;
      stored.history.length = historyLength;
    });
    return stored;
  }

  /**
   * Within `atomically`: how to put back the value an area held for a key before it changes.
   * `first`: whether the key is the area's first (oldest), when the caller knows.
   */
  private rememberSide(values: Map<string, unknown>, key: string, first?: boolean): void {
    if (!this.undo) return;
    if (!values.has(key)) {
      this.undo.push(() => void values.delete(key));
      return;
    }
    const value = values.get(key);
    // A series trimmed from its oldest end (change events) gets its first entries back first, in order.
    first ??= values.keys().next().value === key;
    this.undo.push(() => {
      if (!first || values.has(key)) return void values.set(key, value);
      const rest = [...values];
      values.clear();
      values.set(key, value);
      for (const [k, v] of rest) values.set(k, v);
    });
  }

  get(id: string): StoredEntity | undefined {
    return this.touch(this.byId.get(id));
  }

  getByFqn(type: string, fqn: string): StoredEntity | undefined {
    const id = this.byFqn.get(type)?.get(fqn);
    return id === undefined ? undefined : this.touch(this.byId.get(id));
  }

  /** Stores a new entity. The caller has checked uniqueness in the same synchronous step. */
  insert(type: string, created: Entity, parentId: string | undefined): StoredEntity {
    const entity = compactEntity(created, this.references);
    const stored: StoredEntity = new Slot(entity, type, parentId, this.entityChanged);
    this.index(stored, entity);
    if (entity.deleted) this.countDeleted(type, 1);
    if (this.undo) {
      this.undo.push(() => this.unindex(stored));
      this.touch(stored);
    }
    this.tell({ op: 'put', stored });
    return stored;
  }

  /** Replaces the current version; with `keepPrevious`, the version it replaces joins the history. */
  update(stored: StoredEntity, next: Entity, keepPrevious: boolean): void {
    this.touch(stored);
    if (keepPrevious) stored.history.push(stored.entity);
    if (stored.entity.deleted !== next.deleted) this.countDeleted(stored.type, next.deleted ? 1 : -1);
    stored.entity = compactEntity(next, this.references, stored.entity);
  }

  /** Removes an entity for good (hard delete). Children must be removed first by the caller. */
  remove(stored: StoredEntity): void {
    this.touch(stored);
    const { entity, type, parentId } = stored;
    if (this.undo) {
      const children = this.childIds.get(entity.id);
      this.undo.push(() => this.reindex(stored, entity, children));
    }
    this.byId.delete(entity.id);
    this.byFqn.get(type)?.delete(entity.fullyQualifiedName);
    this.ordered.get(type)?.remove(entity.fullyQualifiedName);
    if (parentId) this.childIds.get(parentId)?.delete(entity.id);
    this.childIds.delete(entity.id);
    if (entity.deleted) this.countDeleted(type, -1);
    this.tell({ op: 'remove', stored });
    for (const { area, values } of this.side.values()) {
      if (values.has(entity.id)) {
        this.rememberSide(values, entity.id);
        this.markSide(area, entity.id);
      }
      values.delete(entity.id);
      if (area.withoutEntity) this.dropMentions(area, values, entity.id);
    }
  }

  /** The values of an area that name other entities lose what names the removed one (a new value each: the journal sees it). */
  private dropMentions(area: SideData<unknown>, values: Map<string, unknown>, removedId: string): void {
    const without = area.withoutEntity as (value: unknown, id: string) => unknown;
    for (const [key, value] of values) {
      const next = without(value, removedId);
      if (next === value) continue;
      this.rememberSide(values, key);
      this.markSide(area, key);
      if (next === undefined || (area.series && (next as readonly unknown[]).length === 0)) values.delete(key);
      else values.set(key, typeof next === 'object' && next !== null ? Object.freeze(next) : next);
    }
  }

  /** The value an area holds for an entity. Frozen: change it by `setSide` with a new value. */
  getSide<T>(area: SideData<T>, id: string): T | undefined {
    return this.side.get(area.key)?.values.get(id) as T | undefined;
  }

  /**
   * Replaces the value an area holds for an entity; `undefined` (or an empty series) removes it.
   * The value is frozen (its top level), so a change made in place fails loudly instead of
   * escaping the `--data` journal, which sees a write as a new value (src/app/persistence/changes.ts).
   */
  setSide<T>(area: SideData<T>, id: string, value: T | undefined): void {
    this.markSide(area as SideData<unknown>, id);
    let slot = this.side.get(area.key);
    if (value === undefined || (area.series && (value as readonly unknown[]).length === 0)) {
      if (slot?.values.has(id)) this.rememberSide(slot.values, id);
      slot?.values.delete(id);
      return;
    }
    if (!slot) this.side.set(area.key, (slot = { area: area as SideData<unknown>, values: new Map() }));
    this.rememberSide(slot.values, id);
    slot.values.set(id, typeof value === 'object' && value !== null ? Object.freeze(value) : value);
  }

  /** Starts (or restarts) remembering which side data values change: see `takeSideChanges`. */
  trackSideChanges(): void {
    this.sideDirty = new Map();
  }

  /** The side data values changed since the last call (or `trackSideChanges`), or 'all'; then forgets them. */
  takeSideChanges(): Map<SideData<unknown>, Set<string>> | 'all' {
    const changed = this.sideDirty ?? 'all';
    this.sideDirty = new Map();
    return changed;
  }

  private markSide(area: SideData<unknown>, id: string): void {
    if (!(this.sideDirty instanceof Map)) return;
    let ids = this.sideDirty.get(area);
    if (!ids) this.sideDirty.set(area, (ids = new Set()));
    ids.add(id);
  }

  /**
   * Drops the first `count` values an area holds (the first written): the event log and the feed
   * keep their newest this way, one value per write once full. Walked from its start, a Map steps
   * over every entry deleted since V8 last rebuilt its table: thousands of steps per write for a
   * full log (bench: POST create). So the walk goes on from where the
   * last one stopped: a Map iterator stays valid across deletions and sees what is added after
   * it, and every value it has passed was dropped here.
   */
  dropOldestSide(area: SideData<unknown>, count: number): void {
    const slot = this.side.get(area.key);
    if (!slot) return;
    for (let n = 0; n < count; n++) {
      let step = slot.oldest?.next();
      if (!step || step.done) {
        slot.oldest = slot.values.keys();
        step = slot.oldest.next();
        if (step.done) return;
      }
      const key = step.value;
      this.markSide(area, key);
      this.rememberSide(slot.values, key, true);
      slot.values.delete(key);
    }
  }

  /** The values one area holds, with their keys. */
  *sideValuesOf<T>(area: SideData<T>): IterableIterator<[string, T]> {
    yield* (this.side.get(area.key)?.values ?? new Map<string, unknown>()) as Map<string, T>;
  }

  /** How many values one area holds. */
  sideCount(area: SideData<unknown>): number {
    return this.side.get(area.key)?.values.size ?? 0;
  }

  /** Every side data value with its area and entity id (the `--data` journal compares them). */
  *sideEntries(): IterableIterator<{ area: SideData<unknown>; id: string; value: unknown }> {
    for (const { area, values } of this.side.values()) {
      for (const [id, value] of values) yield { area, id, value };
    }
  }

  /**
   * The side data in the export layout (src/core/side-data.ts), a copy: every declared group, and
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
   * Replaces the side data with an export's (checked by the caller: src/app/state/side-data-json.ts), read
   * through the declared areas; series are put in timestamp order. Groups and fields no area
   * declares are ignored. The values are copied: the export can be imported again.
   */
  importSideData(data: SideDataExport): void {
    this.side.clear();
    if (this.sideDirty) this.sideDirty = 'all';
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
      if (child) out.push(this.touch(child));
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

  /** Keys of one kind in FQN order, for paging; `orderedAt` reads the entity at an index. */
  orderedKeys(type: string): SortedKeys<StoredEntity> {
    let keys = this.ordered.get(type);
    if (!keys) this.ordered.set(type, (keys = new SortedKeys()));
    return keys;
  }

  /** The stored entity at `index` of its kind's FQN order (`orderedKeys`), or undefined outside it. */
  orderedAt(type: string, index: number): StoredEntity | undefined {
    return this.touch(this.ordered.get(type)?.valueAt(index));
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
      if (stored) yield this.touch(stored);
    }
  }

  /** Every stored entity of every kind (export, integrity checks). */
  *all(): IterableIterator<StoredEntity> {
    if (!this.undo) return yield* this.byId.values();
    for (const stored of this.byId.values()) yield this.touch(stored);
  }

  /**
   * Entries held by each index, read-only, for src/core/integrity.ts: with the per-entity checks,
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

  /**
   * The whole state as it is now, for `restore` to put back however the store changes meanwhile
   * (a reset to the start state). Stored entities and side values are never changed in place (a
   * write replaces them), so only the records and maps that hold them are copied.
   */
  snapshot(): StoreSnapshot {
    const entities = [...this.byId.values()].map(({ entity, type, parentId, history, deletedBy }) => ({ entity, type, parentId, history: [...history], deletedBy }));
    const side = new Map([...this.side].map(([key, slot]) => [key, { area: slot.area, values: new Map(slot.values) }]));
    return { entities, side };
  }

  /** Replaces the state with a snapshot's; the listeners hear a clear, then each entity put back. */
  restore(snapshot: StoreSnapshot): void {
    this.clear();
    for (const record of snapshot.entities) {
      const stored = new Slot(record.entity, record.type, record.parentId, this.entityChanged);
      stored.history.push(...record.history);
      stored.deletedBy = record.deletedBy;
      this.index(stored, record.entity);
      if (record.entity.deleted) this.countDeleted(record.type, 1);
      this.tell({ op: 'put', stored });
    }
    for (const [key, slot] of snapshot.side) this.side.set(key, { area: slot.area, values: new Map(slot.values) });
  }

  clear(): void {
    this.byId.clear();
    this.byFqn.clear();
    this.childIds.clear();
    this.ordered.clear();
    this.deletedCounts.clear();
    this.side.clear();
    if (this.sideDirty) this.sideDirty = 'all';
    this.tell({ op: 'clear' });
  }

  /**
   * Calls `listener` after every change to the stored entities, synchronously, inside the write
   * (side data is not reported). Returns the function that stops it.
   */
  subscribe(listener: StoreListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private readonly entityChanged = (stored: StoredEntity): void => this.tell({ op: 'put', stored });

  private tell(change: StoreChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Undoes `insert`: the entity leaves every index (its side data is undone on its own). */
  private unindex(stored: StoredEntity): void {
    const { entity, type, parentId } = stored;
    this.byId.delete(entity.id);
    this.byFqn.get(type)?.delete(entity.fullyQualifiedName);
    this.ordered.get(type)?.remove(entity.fullyQualifiedName);
    if (parentId) {
      const siblings = this.childIds.get(parentId);
      siblings?.delete(entity.id);
      if (siblings?.size === 0) this.childIds.delete(parentId);
    }
    if (this.childIds.get(entity.id)?.size === 0) this.childIds.delete(entity.id);
    if (entity.deleted) this.countDeleted(type, -1);
    this.tell({ op: 'remove', stored });
  }

  /** Puts a stored entity in the id, FQN, ordered-key and parent indexes (insert, and undoing a remove). */
  private index(stored: StoredEntity, entity: Entity): void {
    const { type, parentId } = stored;
    this.byId.set(entity.id, stored);
    this.fqnIndex(type).set(entity.fullyQualifiedName, entity.id);
    this.orderedKeys(type).insert(entity.fullyQualifiedName, stored);
    if (parentId) {
      let set = this.childIds.get(parentId);
      if (!set) this.childIds.set(parentId, (set = new Set()));
      set.add(entity.id);
    }
  }

  /** Undoes `remove`: the same object back in every index, as it was when removed. */
  private reindex(stored: StoredEntity, entity: Entity, children: Set<string> | undefined): void {
    if (stored.entity !== entity) stored.entity = entity;
    this.index(stored, entity);
    if (children) this.childIds.set(entity.id, children);
    if (entity.deleted) this.countDeleted(stored.type, 1);
    this.tell({ op: 'put', stored });
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
