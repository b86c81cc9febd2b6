/**
 * The profiler configuration of a database and of a database schema (docs/behaviour.md "Database
 * and schema profiler configuration"; OpenMetadata's `DatabaseResource` `/databaseProfilerConfig`
 * and `DatabaseSchemaResource` `/databaseSchemaProfilerConfig`): one value kept beside the entity
 * (a src/core/side-data.ts area), shown as a field of it, dropped with it; setting it does not
 * change the entity's version.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { sideValue } from '../../core/side-data.ts';
import type { SideData } from '../../core/side-data.ts';

export type DatabaseProfilerConfig = Schemas['DatabaseProfilerConfig'];

const AREAS: Record<string, SideData<DatabaseProfilerConfig>> = {
  database: sideValue<DatabaseProfilerConfig>({ group: 'databaseProfilerConfigs', owner: 'database', schema: 'DatabaseProfilerConfig' }),
  databaseSchema: sideValue<DatabaseProfilerConfig>({ group: 'databaseSchemaProfilerConfigs', owner: 'databaseSchema', schema: 'DatabaseProfilerConfig' }),
};

function area(type: string): SideData<DatabaseProfilerConfig> {
  const found = AREAS[type];
  if (!found) throw new Error(`no profiler configuration is kept for ${type}`);
  return found;
}

export function containerProfilerConfigOf(ctx: CatalogContext, type: string, id: string): DatabaseProfilerConfig | undefined {
  return structuredClone(ctx.store.getSide(area(type), id));
}

/** Replaces the configuration (`undefined`: removes it). */
export function setContainerProfilerConfig(ctx: CatalogContext, type: string, id: string, config: DatabaseProfilerConfig | undefined): void {
  ctx.store.setSide(area(type), id, config === undefined ? undefined : structuredClone(config));
}
