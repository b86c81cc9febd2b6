/**
 * All or nothing for a CSV import (docs/behaviour.md "CSV import and export"): a savepoint of the
 * store, and the way back to it. The import writes through the lifecycle as any request does; when
 * a row fails, or the import is a dry run, the store is put back as it was.
 *
 * Taking one costs a pass over the store copying pointers, not entities: a write never changes a
 * stored entity in place, it puts a new object in `stored.entity` (src/core/compact.ts), grows the
 * history and replaces side data values (frozen); so the objects held here are the state as it was.
 * Going back puts those very objects back, so the `--data` journal, which compares pointers with
 * what it last recorded (src/app/persistence/changes.ts), sees no change at all.
 */
import type { Entity } from '../../core/entity.ts';
import type { EntityStore, StoredEntity } from '../../core/entity-store.ts';
import type { SideData } from '../../core/side-data.ts';

interface EntityBefore {
  stored: StoredEntity;
  entity: Entity;
  deletedBy: string | undefined;
  historyLength: number;
}

interface SideBefore {
  area: SideData<unknown>;
  id: string;
  value: unknown;
}

const sideKey = (area: SideData<unknown>, id: string): string => `${area.key}\u0000${id}`;

/** Marks the store's state now; the function returned puts the store back to it. */
export function savepoint(store: EntityStore): () => void {
  const entities = new Map<string, EntityBefore>();
  for (const stored of store.all()) {
    entities.set(stored.entity.id, { stored, entity: stored.entity, deletedBy: stored.deletedBy, historyLength: stored.history.length });
  }
  const side = new Map<string, SideBefore>();
  for (const { area, id, value } of store.sideEntries()) side.set(sideKey(area, id), { area, id, value });

  return () => {
    // Entities created since: gone (with the side data the store drops with them).
    for (const stored of [...store.all()]) if (!entities.has(stored.entity.id)) store.remove(stored);
    for (const before of entities.values()) {
      let stored = store.get(before.entity.id);
      if (!stored) {
        // Removed since: back in every index, with its history as it was.
        stored = store.insert(before.stored.type, before.entity, before.stored.parentId);
        stored.history.push(...before.stored.history.slice(0, before.historyLength));
      } else if (stored.history.length > before.historyLength) {
        stored.history.length = before.historyLength;
      }
      if (stored.entity !== before.entity) {
        // `update` keeps the store's count of deleted entities right; the object put back is the one held.
        if (stored.entity.deleted !== before.entity.deleted) store.update(stored, before.entity, false);
        stored.entity = before.entity;
      }
      stored.deletedBy = before.deletedBy;
    }
    for (const { area, id } of [...store.sideEntries()]) if (!side.has(sideKey(area, id))) store.setSide(area, id, undefined);
    const reordered = new Set<SideData<unknown>>();
    for (const { area, id, value } of side.values()) {
      const now = store.getSide(area, id);
      if (now === value) continue;
      // A value the import dropped (the oldest change events, when the log is full) would come back last: the area is rebuilt in its order.
      if (now === undefined) reordered.add(area);
      else store.setSide(area, id, value);
    }
    for (const area of reordered) {
      for (const [id] of [...store.sideValuesOf(area)]) store.setSide(area, id, undefined);
      for (const before of side.values()) if (before.area === area) store.setSide(area, before.id, before.value);
    }
  };
}
