/**
 * A table's columns read a page at a time, searched, and its custom metrics (docs/behaviour.md
 * "Table columns and custom metrics"; OpenMetadata's `TableResource` `/columns`, `/columns/search`,
 * `/customMetric`, `/tableProfile/latest`). Custom metrics are kept beside the table (a
 * src/core/side-data.ts area), so they leave with it and do not change its version, as the
 * profiler configuration does.
 */
import { CatalogError } from '../../core/errors.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, Schemas } from '../../core/entity.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideValue } from '../../core/side-data.ts';
import { listProfiles } from './table-data.ts';
import { resolveTagLabels } from '../../core/references.ts';
import { quoteName, splitFqn } from '../../core/fqn.ts';

type Column = Schemas['Column'];
export type CustomMetric = Schemas['CustomMetric'];
export type CreateCustomMetric = Schemas['CreateCustomMetric'];
export type TableColumnList = Schemas['TableColumnList'];

const CUSTOM_METRICS = sideValue<CustomMetric[]>({ group: 'tables', owner: 'table', field: 'customMetrics', schema: 'CustomMetricList' });

/** The `fields` a column page may ask for; any other name is 400 `Invalid field name <x>`. */
const COLUMN_FIELDS = new Set(['tags', 'customMetrics', 'profile']);

export interface ColumnPage {
  limit: number;
  offset: number;
  fields: readonly string[];
  /** Only columns whose name or display name contains this text, case-insensitively. */
  query?: string;
}

function columnsOf(table: Entity): Column[] {
  return (table.columns as Column[] | undefined) ?? [];
}

export function customMetricsOf(ctx: CatalogContext, tableId: string): CustomMetric[] | undefined {
  return ctx.store.getSide(CUSTOM_METRICS, tableId);
}

/**
 * A page of the table's top-level columns in their order: `{data, paging: {offset, limit, total}}`,
 * `total` counting every column that matches. A column carries `tags` only when `fields` asks for
 * them, its `customMetrics` and newest `profile` likewise.
 */
export function columnPage(ctx: CatalogContext, table: StoredEntity, page: ColumnPage): TableColumnList {
  for (const name of page.fields) if (!COLUMN_FIELDS.has(name)) throw CatalogError.badRequest(`Invalid field name ${name}`);
  const needle = page.query?.toLowerCase();
  const matching = columnsOf(table.entity).filter((c) => needle === undefined || c.name.toLowerCase().includes(needle) || (c.displayName ?? '').toLowerCase().includes(needle));
  const data = matching.slice(page.offset, page.offset + page.limit).map((column) => withFieldsOf(ctx, table.entity.id, structuredClone(column), page.fields));
  return { data, paging: { offset: page.offset, limit: page.limit, total: matching.length } };
}

function withFieldsOf(ctx: CatalogContext, tableId: string, column: Column, fields: readonly string[]): Column {
  if (!fields.includes('tags')) delete column.tags;
  else column.tags ??= [];
  if (fields.includes('customMetrics')) {
    const metrics = (customMetricsOf(ctx, tableId) ?? []).filter((m) => m.columnName === column.name);
    if (metrics.length) column.customMetrics = structuredClone(metrics);
  }
  if (fields.includes('profile')) {
    const profile = latestColumnProfile(ctx, tableId, column.name);
    if (profile) column.profile = profile;
  }
  return column;
}

function latestColumnProfile(ctx: CatalogContext, tableId: string, column: string): Column['profile'] {
  return listProfiles(ctx, tableId, 'column', { startTs: 0, endTs: Number.MAX_SAFE_INTEGER, now: ctx.now() }, column).data[0] as Column['profile'];
}

/** `GET /v1/tables/{fqn}/tableProfile/latest`: each column with its newest profile (the table's own is the `profile` field). */
export function withLatestColumnProfiles(ctx: CatalogContext, tableId: string, rendered: Entity): Entity {
  const columns = rendered.columns as Column[] | undefined;
  if (!columns) return rendered;
  rendered.columns = columns.map((column) => {
    const copy = structuredClone(column);
    const profile = latestColumnProfile(ctx, tableId, column.name);
    if (profile) copy.profile = profile;
    return copy;
  });
  return rendered;
}

/**
 * `PUT /v1/tables/{id}/customMetric`: adds the metric, or replaces the one with the same name on
 * the same column (or on the table, without `columnName`). An unknown column is 400.
 */
export function addCustomMetric(ctx: CatalogContext, table: StoredEntity, body: CreateCustomMetric, updatedBy: string): void {
  if (body.columnName !== undefined && !columnsOf(table.entity).some((c) => c.name === body.columnName)) {
    throw CatalogError.badRequest(`Invalid column name ${body.columnName}`);
  }
  const metric: CustomMetric = { id: ctx.newId(), ...structuredClone(body), updatedAt: ctx.now(), updatedBy };
  const metrics = (customMetricsOf(ctx, table.entity.id) ?? []).filter((m) => !(m.name === body.name && m.columnName === body.columnName));
  ctx.store.setSide(CUSTOM_METRICS, table.entity.id, [...metrics, metric]);
}

/** `DELETE /v1/tables/{id}/customMetric[/{columnName}]/{name}`: 404 when no such metric is there. */
export function deleteCustomMetric(ctx: CatalogContext, table: StoredEntity, name: string, columnName?: string): void {
  const metrics = customMetricsOf(ctx, table.entity.id) ?? [];
  const kept = metrics.filter((m) => !(m.name === name && m.columnName === columnName));
  if (kept.length === metrics.length) throw new CatalogError('notFound', `Failed to find custom metric ${name}${columnName === undefined ? '' : ` of column ${columnName}`}`);
  ctx.store.setSide(CUSTOM_METRICS, table.entity.id, kept.length ? kept : undefined);
}

export type UpdateColumn = Schemas['UpdateColumn'];

/** The column at that path of names (a top-level column, then its children). */
function findColumn(columns: Column[], path: readonly string[]): Column | undefined {
  const [first, ...rest] = path;
  const column = columns.find((c) => c.name === first);
  return column && rest.length ? findColumn(column.children ?? [], rest) : column;
}

/**
 * `PUT /v1/columns/name/{fqn}` (docs/behaviour.md "Table columns and custom metrics"; OpenMetadata's
 * ColumnResource): the table is the longest prefix of the column FQN that names a live table; the
 * given `displayName`, `description`, `tags` (replacing the column's) and `constraint` are set — a
 * change of the table, with a new version. Returns the table and the updated column.
 */
export function updateColumnByFqn(ctx: CatalogContext, fqn: string, update: UpdateColumn): { table: StoredEntity; next: Entity; column: Column } {
  const parts = splitFqn(fqn);
  for (let end = parts.length - 1; end > 0; end--) {
    const table = ctx.store.getByFqn('table', parts.slice(0, end).map(quoteName).join('.'));
    if (!table || table.entity.deleted) continue;
    const next = structuredClone(table.entity);
    const column = findColumn(columnsOf(next), parts.slice(end));
    if (!column) break;
    if (update.displayName !== undefined) column.displayName = update.displayName;
    if (update.description !== undefined) column.description = update.description;
    if (update.constraint !== undefined) column.constraint = update.constraint;
    if (update.tags !== undefined) column.tags = resolveTagLabels(ctx, update.tags);
    return { table, next, column: { ...structuredClone(column), fullyQualifiedName: fqn } };
  }
  throw CatalogError.notFound('column', fqn);
}
