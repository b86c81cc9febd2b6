/**
 * Data kept beside a table (contract "Table profiler", "Table sample data"; observed §9): its
 * profiler configuration, its sample data and its table / column / system profiles. Held in
 * memory per CatalogContext, keyed by table id, dropped when the table is removed for good
 * (kind-rules.ts `afterHardDelete`), and shown on the table through `fields=` (field providers).
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { Entity, Paging, Schemas } from './entity.ts';
import { timeRange, upsertByTimestamp } from './time-series.ts';
import type { TimeRange } from './time-series.ts';

export type TableProfilerConfig = Schemas['TableProfilerConfig'];
export type TableData = Schemas['TableData'];
export type ContractSampleData = Schemas['ContractSampleData'];
export type TableProfile = Schemas['TableProfile'];
export type ColumnProfile = Schemas['ColumnProfile'];
export type SystemProfile = Schemas['SystemProfile'];
export type CreateTableProfile = Schemas['CreateTableProfile'];
export type ProfileKind = 'table' | 'column' | 'system';

export interface TableSideData {
  profilerConfig?: TableProfilerConfig;
  sampleData?: TableData;
  /** Each list is kept in ascending timestamp order. */
  tableProfiles: TableProfile[];
  columnProfiles: ColumnProfile[];
  systemProfiles: SystemProfile[];
}

const DATA = new WeakMap<CatalogContext, Map<string, TableSideData>>();

function dataOf(ctx: CatalogContext, tableId: string): TableSideData {
  let byTable = DATA.get(ctx);
  if (!byTable) DATA.set(ctx, (byTable = new Map()));
  let data = byTable.get(tableId);
  if (!data) byTable.set(tableId, (data = { tableProfiles: [], columnProfiles: [], systemProfiles: [] }));
  return data;
}

function peek(ctx: CatalogContext, tableId: string): TableSideData | undefined {
  return DATA.get(ctx)?.get(tableId);
}

/** Called when the table is hard-deleted (its side data goes with it). */
export function dropTableData(ctx: CatalogContext, tableId: string): void {
  DATA.get(ctx)?.delete(tableId);
}

/** Everything kept beside the tables, keyed by table id (admin state export, `--data`). */
export type TableSideDataJson = Record<string, TableSideData>;

export function exportTableData(ctx: CatalogContext): TableSideDataJson {
  return Object.fromEntries(structuredClone([...(DATA.get(ctx) ?? new Map<string, TableSideData>())]));
}

/** Replaces all table side data with an export (already checked by the caller). */
export function importTableData(ctx: CatalogContext, data: TableSideDataJson): void {
  DATA.set(ctx, new Map(Object.entries(structuredClone(data))));
}

export function clearTableData(ctx: CatalogContext): void {
  DATA.delete(ctx);
}

type ColumnLike = { name: string; dataType: string };

export function columnsOf(table: Entity): ColumnLike[] {
  return (table.columns as ColumnLike[] | undefined) ?? [];
}

/** Observed §9: a name that is not a column of the table is 400 `Invalid column name <c>`. */
function checkColumn(table: Entity, name: string): void {
  if (!columnsOf(table).some((c) => c.name === name)) throw CatalogError.badRequest(`Invalid column name ${name}`);
}

export function profilerConfigOf(ctx: CatalogContext, tableId: string): TableProfilerConfig | undefined {
  return peek(ctx, tableId)?.profilerConfig;
}

/** Contract "Table profiler" (set): replaces the configuration; its columns must exist (observed §9). */
export function setProfilerConfig(ctx: CatalogContext, table: StoredEntity, config: TableProfilerConfig): TableProfilerConfig {
  for (const name of config.excludeColumns ?? []) checkColumn(table.entity, name);
  for (const include of config.includeColumns ?? []) checkColumn(table.entity, include.columnName);
  dataOf(ctx, table.entity.id).profilerConfig = structuredClone(config);
  return config;
}

export function deleteProfilerConfig(ctx: CatalogContext, tableId: string): void {
  const data = peek(ctx, tableId);
  if (data) delete data.profilerConfig;
}

export function sampleDataOf(ctx: CatalogContext, tableId: string): TableData | undefined {
  return peek(ctx, tableId)?.sampleData;
}

/**
 * Contract "Table sample data" (add) and observed §9: `columns` as names (OpenMetadata's TableData)
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
  dataOf(ctx, table.entity.id).sampleData = stored;
  return stored;
}

export function deleteSampleData(ctx: CatalogContext, tableId: string): void {
  const data = peek(ctx, tableId);
  if (data) delete data.sampleData;
}

/** The contract's shape: each column with the data type the table gives it now. */
export function toContractSampleData(table: Entity, data: TableData): ContractSampleData {
  const types = new Map(columnsOf(table).map((c) => [c.name, c.dataType]));
  return { columns: data.columns.map((name) => ({ name, dataType: types.get(name) ?? 'UNKNOWN' })), rows: data.rows };
}

/**
 * OpenMetadata's `validateTimestamp` (observed §9): an epoch-millisecond timestamp has 13 digits;
 * seconds (10 digits) or microseconds (16) are 400.
 */
export function checkMillis(timestamp: number): void {
  if (String(timestamp).length !== 13) throw CatalogError.badRequest(`Timestamp ${timestamp} is not valid, it should be in milliseconds since epoch`);
}

/**
 * `PUT /v1/tables/{id}/tableProfile` (observed §9): stores the table profile and the optional column
 * and system profiles. A profile with the same timestamp (and column / operation) replaces the old.
 */
export function addProfiles(ctx: CatalogContext, table: StoredEntity, body: CreateTableProfile): void {
  const all = [body.tableProfile, ...(body.columnProfile ?? []), ...(body.systemProfile ?? [])];
  for (const profile of all) checkMillis(profile.timestamp);
  for (const column of body.columnProfile ?? []) checkColumn(table.entity, column.name);
  const data = dataOf(ctx, table.entity.id);
  upsertByTimestamp(data.tableProfiles, structuredClone(body.tableProfile), () => true);
  for (const column of body.columnProfile ?? []) upsertByTimestamp(data.columnProfiles, structuredClone(column), (p) => p.name === column.name);
  for (const system of body.systemProfile ?? []) upsertByTimestamp(data.systemProfiles, structuredClone(system), (p) => p.operation === system.operation);
}

export function latestTableProfile(ctx: CatalogContext, tableId: string): TableProfile | undefined {
  const profiles = peek(ctx, tableId)?.tableProfiles ?? [];
  return profiles[profiles.length - 1];
}

/** Profiles of one kind in `[startTs, endTs]`, newest first; `column` narrows column profiles. */
export function listProfiles(ctx: CatalogContext, tableId: string, kind: ProfileKind, range: TimeRange, column?: string): { data: (TableProfile | ColumnProfile | SystemProfile)[]; paging: Paging } {
  const data = peek(ctx, tableId);
  const source: (TableProfile | ColumnProfile | SystemProfile)[] =
    kind === 'table' ? (data?.tableProfiles ?? []) : kind === 'system' ? (data?.systemProfiles ?? []) : (data?.columnProfiles ?? []).filter((p) => column === undefined || p.name === column);
  return timeRange(source, range);
}

/** `fields=tableProfilerConfig,sampleData,profile` on a table (observed §9, §7.9). */
export function registerTableDataFields(ctx: CatalogContext): void {
  ctx.fieldProviders.set('table.tableProfilerConfig', (stored, c) => structuredClone(profilerConfigOf(c, stored.entity.id)));
  ctx.fieldProviders.set('table.sampleData', (stored, c) => structuredClone(sampleDataOf(c, stored.entity.id)));
  ctx.fieldProviders.set('table.profile', (stored, c) => structuredClone(latestTableProfile(c, stored.entity.id)));
}
