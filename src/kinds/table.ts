/**
 * Tables of a database schema (`<service>.<database>.<schema>.<table>`). A removed column, a
 * changed type or a shorter length is a major version change. Profiler configuration, sample data
 * and profiles are kept beside the table (src/features/table-data/table-data.ts): shown through `fields=` and
 * dropped with the table (the store drops an entity's side data with it). Its CSV is its columns,
 * one row each (OpenMetadata's `tableCsvDocumentation.json`; docs/behaviour.md "CSV import and export").
 */
import { columnRowsCsv } from '../features/csv/column-rows.ts';
import { customMetricsOf } from '../features/table-data/table-columns.ts';
import { latestTableProfile, profilerConfigOf, sampleDataOf } from '../features/table-data/table-data.ts';
import { serviceAsset } from './shapes.ts';

export const table = serviceAsset('table', 'tables', 'Table', 'databaseService', {
  parents: [{ field: 'databaseSchema', inherit: ['service', 'serviceType', 'database'] }],
  refFields: { databaseSchema: { kinds: ['databaseSchema'], by: 'fqn' } },
  relationshipFields: ['tableProfilerConfig', 'sampleData', 'profile', 'customMetrics', 'usageSummary', 'testSuite'],
  prefixFilters: ['database', 'databaseSchema'],
  majorFields: ['columns'],
  columnsAt: [['columns']],
  // docs/behaviour.md "Table data": `fields=tableProfilerConfig,sampleData,profile`.
  extraFields: {
    tableProfilerConfig: (stored, ctx) => structuredClone(profilerConfigOf(ctx, stored.entity.id)),
    sampleData: (stored, ctx) => structuredClone(sampleDataOf(ctx, stored.entity.id)),
    profile: (stored, ctx) => structuredClone(latestTableProfile(ctx, stored.entity.id)),
    // docs/behaviour.md "Table columns and custom metrics".
    customMetrics: (stored, ctx) => structuredClone(customMetricsOf(ctx, stored.entity.id)),
  },
  csv: columnRowsCsv({
    field: 'columns',
    schema: 'Column',
    columns: [
      { name: 'column.name', required: true },
      { name: 'column.displayName' },
      { name: 'column.description' },
      { name: 'column.dataTypeDisplay' },
      { name: 'column.dataType', required: true },
      { name: 'column.arrayDataType' },
      { name: 'column.dataLength' },
      { name: 'column.tags' },
      { name: 'column.glossaryTerms' },
    ],
  }),
});
