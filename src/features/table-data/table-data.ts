/**
 * Data kept beside a table (docs/behaviour.md "Table data"): its profiler configuration, its sample
 * data and its table / column / system profiles. Held in the store (src/core/side-data.ts areas),
 * keyed by table id, dropped with the table when it is removed for good, and shown on the table
 * through `fields=` (src/kinds/table.ts `extraFields`).
 */
import { CatalogError } from '../../core/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideSeries, sideValue } from '../../core/side-data.ts';
import type { SideData } from '../../core/side-data.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, Paging, Schemas } from '../../core/entity.ts';
import { timeRange, upsertByTimestamp } from '../../core/time-series.ts';
import type { TimeRange } from '../../core/time-series.ts';

export type TableProfilerConfig = Schemas['TableProfilerConfig'];
export type TableData = Schemas['TableData'];
export type ContractSampleData = Schemas['ContractSampleData'];
export type TableProfile = Schemas['TableProfile'];
export type ColumnProfile = Schemas['ColumnProfile'];
export type SystemProfile = Schemas['SystemProfile'];
export type CreateTableProfile = Schemas['CreateTableProfile'];
export type ProfileKind = 'table' | 'column' | 'system';

/** What the state export holds for one table (`sideData.tables.<table id>`): each series oldest first. */
export interface TableSideData {
  profilerConfig?: TableProfilerConfig;
  sampleData?: TableData;
  tableProfiles: TableProfile[];
  columnProfiles: ColumnProfile[];
  systemProfiles: SystemProfile[];
}

// Kept in the store, beside the table, keyed by its id: dropped when the table is removed for good,
// carried by the state export (`sideData.tables`) and the `--data` journal.
const side = { group: 'tables', owner: 'table' } as const;
const PROFILER_CONFIG = sideValue<TableProfilerConfig>({ ...side, field: 'profilerConfig', schema: 'TableProfilerConfig' });
const SAMPLE_DATA = sideValue<TableData>({ ...side, field: 'sampleData', schema: 'TableData' });
const TABLE_PROFILES = sideSeries<TableProfile>({ ...side, field: 'tableProfiles', schema: 'TableProfile' });
const COLUMN_PROFILES = sideSeries<ColumnProfile>({ ...side, field: 'columnProfiles', schema: 'ColumnProfile' });
const SYSTEM_PROFILES = sideSeries<SystemProfile>({ ...side, field: 'systemProfiles', schema: 'SystemProfile' });

type ColumnLike = { name: string; dataType: string };

export function columnsOf(table: Entity): ColumnLike[] {
  return (table.columns as ColumnLike[] | undefined) ?? [];
}

/** docs/behaviour.md "Table data": a name that is not a column of the table is 400 `Invalid column name <c>`. */
function checkColumn(table: Entity, name: string): void {
  if (!columnsOf(table).some((c) => c.name === name)) throw CatalogError.badRequest(`Invalid column name ${name}`);
}

export function profilerConfigOf(ctx: CatalogContext, tableId: string): TableProfilerConfig | undefined {
  return ctx.store.getSide(PROFILER_CONFIG, tableId);
}

/** Contract "Table profiler" (set): replaces the configuration; its columns must exist (docs/behaviour.md "Table data"). */
export function setProfilerConfig(ctx: CatalogContext, table: StoredEntity, config: TableProfilerConfig): TableProfilerConfig {
  for (const name of config.excludeColumns ?? []) checkColumn(table.entity, name);
  for (const include of config.includeColumns ?? []) checkColumn(table.entity, include.columnName);
  ctx.store.setSide(PROFILER_CONFIG, table.entity.id, structuredClone(config));
  return config;
}

export function deleteProfilerConfig(ctx: CatalogContext, tableId: string): void {
  ctx.store.setSide(PROFILER_CONFIG, tableId, undefined);
}

export function sampleDataOf(ctx: CatalogContext, tableId: string): TableData | undefined {
  return ctx.store.getSide(SAMPLE_DATA, tableId);
}

/**
 * Contract "Table sample data" (add; docs/behaviour.md "Table data"): `columns` as names (OpenMetadata's TableData)
 * or as `{name, dataType}` (the contract's shape) — both are accepted in both profiles. Unknown
 * column → 400; a row whose length differs from the columns → 400 with OpenMetadata's text.
 */
export function setSampleData(ctx: CatalogContext, table: StoredEntity, body: { columns: (string | ColumnLike)[]; rows: unknown[][] }): TableData {
  const columns = body.columns.map((c) => (typeof c === 'string' ? c : c.name));
  for (const name of columns) checkColumn(table.entity, name);
  for (const row of body.rows) {
    if (row.length !== columns.length) throw CatalogError.badRequest(`Number of columns is ${columns.length} but row has ${row.length} sample values`);
  }
  const stored: TableData = { columns, rows: structuredClone(body.rows) };
  ctx.store.setSide(SAMPLE_DATA, table.entity.id, stored);
  return stored;
}

export function deleteSampleData(ctx: CatalogContext, tableId: string): void {
  ctx.store.setSide(SAMPLE_DATA, tableId, undefined);
}

/** The contract's shape: each column with the data type the table gives it now. */
export function toContractSampleData(table: Entity, data: TableData): ContractSampleData {
  const types = new Map(columnsOf(table).map((c) => [c.name, c.dataType]));
  return { columns: data.columns.map((name) => ({ name, dataType: types.get(name) ?? 'UNKNOWN' })), rows: data.rows };
}

/**
 * OpenMetadata's `validateTimestamp` (docs/behaviour.md "Table data"): an epoch-millisecond timestamp has 13 digits;
 * seconds (10 digits) or microseconds (16) are 400.
 */
export function checkMillis(timestamp: number): void {
  if (String(timestamp).length !== 13) throw CatalogError.badRequest(`Timestamp ${timestamp} is not valid, it should be in milliseconds since epoch`);
}

/**
 * `PUT /v1/tables/{id}/tableProfile` (docs/behaviour.md "Table data"): stores the table profile and the optional column
 * and system profiles. A profile with the same timestamp (and column / operation) replaces the old.
 */
export function addProfiles(ctx: CatalogContext, table: StoredEntity, body: CreateTableProfile): void {
  const all = [body.tableProfile, ...(body.columnProfile ?? []), ...(body.systemProfile ?? [])];
  for (const profile of all) checkMillis(profile.timestamp);
  for (const column of body.columnProfile ?? []) checkColumn(table.entity, column.name);
  const id = table.entity.id;
  // Stored lists are frozen: each write stores a new list.
  const tableProfiles = [...(ctx.store.getSide(TABLE_PROFILES, id) ?? [])];
  upsertByTimestamp(tableProfiles, structuredClone(body.tableProfile), () => true);
  ctx.store.setSide(TABLE_PROFILES, id, tableProfiles);
  if (body.columnProfile?.length) {
    const columnProfiles = [...(ctx.store.getSide(COLUMN_PROFILES, id) ?? [])];
    for (const column of body.columnProfile) upsertByTimestamp(columnProfiles, structuredClone(column), (p) => p.name === column.name);
    ctx.store.setSide(COLUMN_PROFILES, id, columnProfiles);
  }
  if (body.systemProfile?.length) {
    const systemProfiles = [...(ctx.store.getSide(SYSTEM_PROFILES, id) ?? [])];
    for (const system of body.systemProfile) upsertByTimestamp(systemProfiles, structuredClone(system), (p) => p.operation === system.operation);
    ctx.store.setSide(SYSTEM_PROFILES, id, systemProfiles);
  }
}

export function latestTableProfile(ctx: CatalogContext, tableId: string): TableProfile | undefined {
  return ctx.store.getSide(TABLE_PROFILES, tableId)?.at(-1);
}

/** Profiles of one kind in `[startTs, endTs]`, newest first; `column` narrows column profiles. */
export function listProfiles(
  ctx: CatalogContext,
  tableId: string,
  kind: ProfileKind,
  range: TimeRange,
  column?: string,
): { data: (TableProfile | ColumnProfile | SystemProfile)[]; paging: Paging } {
  const source: readonly (TableProfile | ColumnProfile | SystemProfile)[] =
    kind === 'table'
      ? (ctx.store.getSide(TABLE_PROFILES, tableId) ?? [])
      : kind === 'system'
        ? (ctx.store.getSide(SYSTEM_PROFILES, tableId) ?? [])
        : (ctx.store.getSide(COLUMN_PROFILES, tableId) ?? []).filter((p) => column === undefined || p.name === column);
  return timeRange(source, range);
}

/**
 * `DELETE /v1/tables/{fqn}/{entityType}/{timestamp}/profile` (docs/behaviour.md "Table data";
 * OpenMetadata's TableRepository `deleteTableProfile`): removes the profiles at that timestamp — a
 * table's table profile with its system profiles, a column's column profile, or the system
 * profiles. Returns how many were removed.
 */
export function deleteProfilesAt(ctx: CatalogContext, tableId: string, kind: ProfileKind, timestamp: number, column?: string): number {
  if (kind === 'column') return dropProfiles(ctx, COLUMN_PROFILES, tableId, (p) => p.timestamp !== timestamp || p.name !== column);
  const system = dropProfiles(ctx, SYSTEM_PROFILES, tableId, (p) => p.timestamp !== timestamp);
  return kind === 'table' ? system + dropProfiles(ctx, TABLE_PROFILES, tableId, (p) => p.timestamp !== timestamp) : system;
}

function dropProfiles<T extends { timestamp: number }>(ctx: CatalogContext, area: SideData<readonly T[]>, tableId: string, keep: (profile: T) => boolean): number {
  const list = ctx.store.getSide(area, tableId) ?? [];
  const kept = list.filter(keep);
  if (kept.length !== list.length) ctx.store.setSide(area, tableId, kept.length ? kept : undefined);
  return list.length - kept.length;
}
