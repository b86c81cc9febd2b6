/**
 * What one journal record of the data file holds (src/app/persistence/data-file.ts): the stored
 * entities that changed since the previous record, whole, the ids that are gone, and the side data
 * values that were set or removed. Records are found by comparing what the store reports changed
 * (its change listener and `takeSideChanges`, src/core/entity-store.ts) with what was last
 * recorded: handlers replace `stored.entity` in several places (src/core/lifecycle.ts, social.ts,
 * dependents.ts) and never change a stored entity in place (src/core/compact.ts), so a new
 * object, a new `deletedBy` or a longer history is exactly "this entity changed". Side data values
 * are frozen by the store and replaced by each write (`setSide`), so a new value is exactly "this
 * value changed" too. A group of writes costs pointer checks of what it touched; after a clear or
 * an import, of everything.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { Entity } from '../../core/entity.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import type { SideDataJson } from '../state/side-data-json.ts';
import type { StateJson, StoredEntityJson } from '../state/state.ts';
import type { SideData, SideDataChange, SideDataExport } from '../../core/side-data.ts';
import { applySideDataChange } from '../../core/side-data.ts';

/** One changed entity. Its history only grows, so only the versions added since `historyBase` are written. */
interface PutJson {
  type: string;
  parentId?: string;
  deletedBy?: string;
  entity: Entity;
  historyBase: number;
  history: string[];
}

export interface ChangeRecord {
  seq: number;
  put?: PutJson[];
  del?: string[];
  /** Side data values set (with `value`) or removed (without). */
  side?: SideDataChange[];
  /** The whole side data: written by earlier versions of the journal, still replayed. */
  sideData?: SideDataJson;
}

interface Recorded {
  entity: Entity;
  deletedBy: string | undefined;
  historyLength: number;
}

/** Remembers what was last recorded and turns the difference with the store into a record. */
export class ChangeCapture {
  private recorded = new Map<string, Recorded>();
  /** Per side data area (by key): the value last recorded for each entity id. */
  private recordedSide = new Map<string, { area: SideData<unknown>; values: Map<string, unknown> }>();
  private recordedSideCount = 0;

  /** Ids of the entities the store reported changed since the last record, or 'all' after a clear. */
  private dirty: Set<string> | 'all' = 'all';

  constructor(private readonly ctx: CatalogContext) {
    // Only what the store reports changed is compared (a write costs O(its change), not O(store)).
    ctx.store.subscribe((change) => {
      if (this.dirty === 'all') return;
      if (change.op === 'clear') this.dirty = 'all';
      else this.dirty.add(change.stored.entity.id);
    });
    ctx.store.trackSideChanges();
    this.rebase();
  }

  /** The store as it is now counts as recorded (after a load or a snapshot of it). */
  rebase(): void {
    this.dirty = new Set();
    this.ctx.store.takeSideChanges();
    this.recorded = new Map();
    for (const stored of this.ctx.store.all()) {
      this.recorded.set(stored.entity.id, { entity: stored.entity, deletedBy: stored.deletedBy, historyLength: stored.history.length });
    }
    this.recordedSide = new Map();
    this.recordedSideCount = 0;
    for (const { area, id, value } of this.ctx.store.sideEntries()) this.recordSide(area, id, value);
  }

  private recordSide(area: SideData<unknown>, id: string, value: unknown): void {
    let slot = this.recordedSide.get(area.key);
    if (!slot) this.recordedSide.set(area.key, (slot = { area, values: new Map() }));
    if (!slot.values.has(id)) this.recordedSideCount++;
    slot.values.set(id, value);
  }

  /** The changes since the last call (or rebase), or undefined when there are none. */
  capture(seq: number): ChangeRecord | undefined {
    const dirty = this.dirty;
    this.dirty = new Set();
    const { put, del } = dirty === 'all' ? this.captureAllEntities() : this.captureEntities(dirty);
    const sideChanged = this.ctx.store.takeSideChanges();
    const side = sideChanged === 'all' ? this.captureAllSide() : this.captureSide(sideChanged);
    if (!put.length && !del.length && !side.length) return undefined;
    return { seq, ...(put.length ? { put } : {}), ...(del.length ? { del } : {}), ...(side.length ? { side } : {}) };
  }

  /** The entities the store reported changed: each one put again when it differs from its record, or deleted when gone. */
  private captureEntities(ids: ReadonlySet<string>): { put: PutJson[]; del: string[] } {
    const put: PutJson[] = [];
    const del: string[] = [];
    for (const id of ids) {
      const stored = this.ctx.store.get(id);
      if (stored) {
        const change = this.putIfChanged(stored);
        if (change) put.push(change);
      } else if (this.recorded.delete(id)) {
        del.push(id);
      }
    }
    return { put, del };
  }

  /** The stored entity as a put when it differs from what was recorded (which it then becomes). */
  private putIfChanged(stored: StoredEntity): PutJson | undefined {
    const id = stored.entity.id;
    const before = this.recorded.get(id);
    if (before && before.entity === stored.entity && before.deletedBy === stored.deletedBy && before.historyLength === stored.history.length) return undefined;
    // A history that shrank (a write undone) is written whole.
    const base = before && before.historyLength <= stored.history.length ? before.historyLength : 0;
    this.recorded.set(id, { entity: stored.entity, deletedBy: stored.deletedBy, historyLength: stored.history.length });
    return {
      type: stored.type,
      ...(stored.parentId ? { parentId: stored.parentId } : {}),
      ...(stored.deletedBy ? { deletedBy: stored.deletedBy } : {}),
      // Not copied: the record is serialised in the same synchronous step (src/app/persistence/data-file.ts).
      entity: stored.entity,
      historyBase: base,
      // The JSON texts of the versions, as a state export carries them (src/app/state/state.ts).
      history: stored.history.slice(base).map((version) => JSON.stringify(version)),
    };
  }

  /** Every entity compared with its record (after a clear or an import). */
  private captureAllEntities(): { put: PutJson[]; del: string[] } {
    const put: PutJson[] = [];
    const recordedBefore = this.recorded.size;
    let seen = 0;
    for (const stored of this.ctx.store.all()) {
      const id = stored.entity.id;
      const before = this.recorded.get(id);
      if (before) seen++;
      const change = this.putIfChanged(stored);
      if (change) put.push(change);
    }
    const del: string[] = [];
    // Every recorded id still in the store was seen above: only when some were not is the second pass needed.
    if (seen < recordedBefore) {
      for (const id of this.recorded.keys()) {
        if (!this.ctx.store.get(id)) del.push(id);
      }
      for (const id of del) this.recorded.delete(id);
    }
    return { put, del };
  }

  /** The side data values the store reported changed, compared with their records. */
  private captureSide(changed: ReadonlyMap<SideData<unknown>, ReadonlySet<string>>): SideDataChange[] {
    const changes: SideDataChange[] = [];
    for (const [area, ids] of changed) {
      for (const id of ids) {
        const value = this.ctx.store.getSide(area, id);
        const values = this.recordedSide.get(area.key)?.values;
        if (value === undefined) {
          if (!values?.has(id)) continue;
          changes.push(sideChange(area, id));
          values.delete(id);
          this.recordedSideCount--;
        } else if (values?.get(id) !== value) {
          // Not copied: frozen, and serialised in the same synchronous step.
          changes.push({ ...sideChange(area, id), value });
          this.recordSide(area, id, value);
        }
      }
    }
    return changes;
  }

  /** Every side data value compared with its record (after a clear or an import): pointer checks. */
  private captureAllSide(): SideDataChange[] {
    const changes: SideDataChange[] = [];
    const recordedBefore = this.recordedSideCount;
    let seen = 0;
    for (const { area, id, value } of this.ctx.store.sideEntries()) {
      const before = this.recordedSide.get(area.key)?.values;
      if (before?.has(id)) seen++;
      if (before?.get(id) === value) continue;
      // Not copied: frozen, and serialised in the same synchronous step.
      changes.push({ ...sideChange(area, id), value });
      this.recordSide(area, id, value);
    }
    // Every recorded value still in the store was seen above: only when some were not is this pass needed.
    if (seen < recordedBefore) {
      for (const { area, values } of this.recordedSide.values()) {
        for (const id of values.keys()) {
          if (this.ctx.store.getSide(area, id) !== undefined) continue;
          changes.push(sideChange(area, id));
          values.delete(id);
          this.recordedSideCount--;
        }
      }
    }
    return changes;
  }
}

function sideChange(area: SideData<unknown>, id: string): SideDataChange {
  return { group: area.group, ...(area.field !== undefined ? { field: area.field } : {}), id };
}

/** Applies a record to a state export (the snapshot being replayed), in place. */
export function applyRecord(entities: Map<string, StoredEntityJson>, state: StateJson, record: ChangeRecord): void {
  for (const put of record.put ?? []) {
    const id = put.entity?.id;
    if (typeof id !== 'string' || typeof put.type !== 'string' || !Array.isArray(put.history)) throw new Error('a put needs a type, an entity.id and a history');
    const before = entities.get(id);
    const base = put.historyBase ?? 0;
    if (base > 0 && (!before || before.history.length < base)) throw new Error(`entity ${id} adds to ${base} earlier versions that are not there`);
    entities.set(id, {
      type: put.type,
      ...(put.parentId ? { parentId: put.parentId } : {}),
      ...(put.deletedBy ? { deletedBy: put.deletedBy } : {}),
      history: [...(base > 0 ? before!.history.slice(0, base) : []), ...put.history],
      entity: put.entity,
    });
  }
  for (const id of record.del ?? []) entities.delete(id);
  if (record.sideData) state.sideData = record.sideData;
  for (const change of record.side ?? []) applySideDataChange((state.sideData ??= {} as SideDataJson) as SideDataExport, change);
}
