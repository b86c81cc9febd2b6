/**
 * Data kept beside entities (a table's profiler configuration and profiles, a test case's results…):
 * the named areas the store holds it in (src/core/entity-store.ts), and the layout of the state
 * export they share (`GET /__admin/state`, the `--data` file).
 *
 * An area is declared once, by the module that owns the data, with where it goes in the export:
 * `sideData.<group>.<entity id>` holds the value, or, when the area has a `field`, an object that
 * holds it under that field beside the other areas of the group. Its `owner` is the type of the
 * entity whose id keys it, and its `schema` the component schema its value (each item, for a
 * series) is checked against on import (src/app/state/side-data-json.ts). A series is a list of timestamped
 * items in ascending timestamp order.
 *
 * The declarations are data about the export format, made when the owning modules load; the values
 * themselves live in each store, so reset, export, import, hard delete and the `--data` journal
 * cover them as they cover entities.
 */

export interface SideDataSpec {
  /** `sideData.<group>` in the export. */
  readonly group: string;
  /** The value's field in the group's per-entity object; absent: the value is that entry itself. */
  readonly field?: string;
  /**
   * The type of the entity whose id keys the value; `ANY_ENTITY`: an entity of any type;
   * `NO_ENTITY`: the keys name no entity (an entity type's name...), so an import checks the values only.
   */
  readonly owner: string;
  /** The component schema of the value, or of each item of a series. */
  readonly schema: string;
  /**
   * For values that name other entities (a lineage edge names its downstream end): the value
   * without what names the entity `id`, which was removed for good — the same value when nothing
   * names it, `undefined` when nothing is left. The store applies it to every value of the area.
   */
  readonly withoutEntity?: (value: never, id: string) => unknown;
}

/** `owner` of an area keyed by the id of an entity of any type. */
export const ANY_ENTITY = '*';
/** `owner` of an area whose keys are not entity ids. */
export const NO_ENTITY = '-';

/** Whether a key fits its area's `owner`, given the type of the exported entity with that id, if any. */
export function ownerHolds(owner: string, typeOfKey: string | undefined): boolean {
  if (owner === NO_ENTITY) return true;
  return owner === ANY_ENTITY ? typeOfKey !== undefined : typeOfKey === owner;
}

/** A declared area; `T` is the type of its values (a readonly list for a series). */
export interface SideData<T> extends SideDataSpec {
  /** `<group>` or `<group>.<field>`: unique among the areas. */
  readonly key: string;
  /** A list of `{timestamp}` items, kept in ascending timestamp order. */
  readonly series: boolean;
  /** The type of the values; never set (it only carries `T`). */
  readonly valueType?: T;
}

const DECLARED = new Map<string, SideData<unknown>>();

function declare<T>(spec: SideDataSpec, series: boolean): SideData<T> {
  const key = spec.field === undefined ? spec.group : `${spec.group}.${spec.field}`;
  for (const other of DECLARED.values()) {
    if (other.key === key) continue;
    if (other.group === spec.group && (other.field === undefined || spec.field === undefined)) {
      throw new Error(`side data ${key}: group ${spec.group} already holds ${other.key}; a group holds one value per entity, or fields`);
    }
    if (other.group === spec.group && other.owner !== spec.owner) throw new Error(`side data ${key}: the entries of group ${spec.group} belong to ${other.owner}s`);
  }
  const area: SideData<T> = Object.freeze({ ...spec, key, series });
  DECLARED.set(key, area);
  return area;
}

/** Declares an area that holds one value per entity. */
export function sideValue<T>(spec: SideDataSpec): SideData<T> {
  return declare<T>(spec, false);
}

/** Declares an area that holds a list of timestamped items per entity, oldest first. */
export function sideSeries<T extends { timestamp: number }>(spec: SideDataSpec): SideData<readonly T[]> {
  return declare<readonly T[]>(spec, true);
}

/** Every declared area, in declaration order. */
export function declaredSideData(): readonly SideData<unknown>[] {
  return [...DECLARED.values()];
}

/** The export layout: `{ <group>: { <entity id>: value, or { <field>: value } } }`. */
export type SideDataExport = Record<string, Record<string, unknown>>;

/** One value set, or removed (no `value`): a `--data` journal record holds a list of these. */
export interface SideDataChange {
  group: string;
  field?: string;
  id: string;
  value?: unknown;
}

/** Applies a change to an export, in place (replaying the `--data` journal onto a snapshot). */
export function applySideDataChange(data: SideDataExport, change: SideDataChange): void {
  const group = (data[change.group] ??= {});
  if (change.field === undefined) {
    if (change.value === undefined) delete group[change.id];
    else group[change.id] = change.value;
    return;
  }
  const entry = (group[change.id] ?? {}) as Record<string, unknown>;
  if (change.value === undefined) delete entry[change.field];
  else entry[change.field] = change.value;
  if (Object.keys(entry).length === 0) delete group[change.id];
  else group[change.id] = entry;
}
