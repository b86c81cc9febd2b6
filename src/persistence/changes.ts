/**
 * What one journal record of the data file holds (src/persistence/data-file.ts): the stored
 * entities that changed since the previous record, whole, the ids that are gone, and the side data
 * when it changed. Records are found by comparing the store with what was last recorded rather
 * than by hooks in every write path: handlers replace `stored.entity` in several places
 * (src/domain/lifecycle.ts, social.ts, dependents.ts) and never change a stored entity in place
 * (src/store/compact.ts), so a new object, a new `deletedBy` or a longer history is exactly "this
 * entity changed". The comparison is a pass over the store per group of writes (pointer checks),
 * far cheaper than exporting the state.
 */
import type { CatalogContext } from '../domain/context.ts';
import type { Entity } from '../domain/entity.ts';
import type { SideDataJson } from '../admin/side-data.ts';
import { exportSideData } from '../admin/side-data.ts';
import type { StateJson, StoredEntityJson } from '../admin/state.ts';

/** One changed entity. Its history only grows, so only the versions added since `historyBase` are written. */
export interface PutJson {
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
  private sideJson = '';

  constructor(private readonly ctx: CatalogContext) {
    this.rebase();
  }

  /** The store as it is now counts as recorded (after a load or a snapshot of it). */
  rebase(): void {
    this.recorded = new Map();
    for (const stored of this.ctx.store.all()) {
      this.recorded.set(stored.entity.id, { entity: stored.entity, deletedBy: stored.deletedBy, historyLength: stored.history.length });
    }
    this.sideJson = JSON.stringify(exportSideData(this.ctx));
  }

  /** The changes since the last call (or rebase), or undefined when there are none. */
  capture(seq: number): ChangeRecord | undefined {
    const put: PutJson[] = [];
    const recordedBefore = this.recorded.size;
    let seen = 0;
    for (const stored of this.ctx.store.all()) {
      const id = stored.entity.id;
      const before = this.recorded.get(id);
      if (before) seen++;
      if (before && before.entity === stored.entity && before.deletedBy === stored.deletedBy && before.historyLength === stored.history.length) continue;
      // A history that shrank (cannot happen outside an import) is written whole.
      const base = before && before.historyLength <= stored.history.length ? before.historyLength : 0;
      put.push({
        type: stored.type,
        ...(stored.parentId ? { parentId: stored.parentId } : {}),
        ...(stored.deletedBy ? { deletedBy: stored.deletedBy } : {}),
        // Not copied: the record is serialised in the same synchronous step (src/persistence/data-file.ts).
        entity: stored.entity,
        historyBase: base,
        history: stored.history.slice(base),
      });
      this.recorded.set(id, { entity: stored.entity, deletedBy: stored.deletedBy, historyLength: stored.history.length });
    }
    const del: string[] = [];
    // Every recorded id still in the store was seen above: only when some were not is the second pass needed.
    if (seen < recordedBefore) {
      for (const id of this.recorded.keys()) {
        if (!this.ctx.store.get(id)) del.push(id);
      }
      for (const id of del) this.recorded.delete(id);
    }
    // Side data lives in maps of src/domain/*.ts that are changed in place; comparing its JSON is
    // the one way to see a change without touching them. It is small next to the entities.
    const sideJson = JSON.stringify(exportSideData(this.ctx));
    const sideChanged = sideJson !== this.sideJson;
    this.sideJson = sideJson;
    if (!put.length && !del.length && !sideChanged) return undefined;
    return {
      seq,
      ...(put.length ? { put } : {}),
      ...(del.length ? { del } : {}),
      ...(sideChanged ? { sideData: JSON.parse(sideJson) as SideDataJson } : {}),
    };
  }
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
}
