/**
 * Databases of a database service; `databaseSchemas` lists the schemas inside one. Its CSV is its
 * schemas, one row each (OpenMetadata's `databaseCsvDocumentation.json`; docs/behaviour.md "CSV
 * import and export").
 */
import { entityRowsCsv } from '../features/csv/entity-rows.ts';
import { containerProfilerConfigOf } from '../features/table-data/profiler-configs.ts';
import { serviceAsset } from './shapes.ts';

export const database = serviceAsset('database', 'databases', 'Database', 'databaseService', {
  relationshipFields: ['databaseSchemas', 'usageSummary', 'location', 'databaseProfilerConfig'],
  childFields: { databaseSchemas: 'databaseSchema' },
  // docs/behaviour.md "Database and schema profiler configuration".
  extraFields: { databaseProfilerConfig: (stored, ctx) => containerProfilerConfigOf(ctx, 'database', stored.entity.id) },
  defaults: { default: false, entityStatus: 'Unprocessed' },
  csv: entityRowsCsv({
    rows: 'databaseSchema',
    parentField: 'database',
    columns: ['name', 'displayName', 'description', 'owner', 'tags', 'glossaryTerms', 'tiers', 'certification', 'retentionPeriod', 'sourceUrl', 'domains', 'extension'],
  }),
});
