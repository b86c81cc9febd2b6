/**
 * Schemas of a database (`<service>.<database>.<schema>`); `tables` lists the tables inside one.
 * Its CSV is its tables, one row each (OpenMetadata's `databaseSchemaCsvDocumentation.json`;
 * docs/behaviour.md "CSV import and export"); a table a row creates starts with no columns.
 */
import { entityRowsCsv } from '../features/csv/entity-rows.ts';
import { containerProfilerConfigOf } from '../features/table-data/profiler-configs.ts';
import { serviceAsset } from './shapes.ts';

export const databaseSchema = serviceAsset('databaseSchema', 'databaseSchemas', 'DatabaseSchema', 'databaseService', {
  parents: [{ field: 'database', inherit: ['service', 'serviceType'] }],
  refFields: { database: { kinds: ['database'], by: 'fqn' } },
  relationshipFields: ['tables', 'usageSummary', 'databaseSchemaProfilerConfig'],
  childFields: { tables: 'table' },
  // docs/behaviour.md "Database and schema profiler configuration".
  extraFields: { databaseSchemaProfilerConfig: (stored, ctx) => containerProfilerConfigOf(ctx, 'databaseSchema', stored.entity.id) },
  prefixFilters: ['database'],
  csv: entityRowsCsv({
    rows: 'table',
    parentField: 'databaseSchema',
    columns: ['name', 'displayName', 'description', 'owner', 'tags', 'glossaryTerms', 'tiers', 'certification', 'retentionPeriod', 'sourceUrl', 'domains', 'extension'],
    created: { columns: [] },
  }),
});
