/**
 * Tables of a database schema (`<service>.<database>.<schema>.<table>`). A removed column, a
 * changed type or a shorter length is a major version change. Profiler configuration, sample data
 * and profiles are kept beside the table (src/domain/table-data.ts): shown through `fields=` and
 * dropped with the table (the store drops an entity's side data with it).
 */
import { latestTableProfile, profilerConfigOf, sampleDataOf } from '../domain/table-data.ts';
import { serviceAsset } from './shapes.ts';

export const table = serviceAsset('table', 'tables', 'Table', 'databaseService', {
  parents: [{ field: 'databaseSchema', inherit: ['service', 'serviceType', 'database'] }],
  refFields: { databaseSchema: { kinds: ['databaseSchema'], by: 'fqn' } },
  relationshipFields: ['tableProfilerConfig', 'sampleData', 'profile', 'usageSummary', 'testSuite'],
  prefixFilters: ['database', 'databaseSchema'],
  majorFields: ['columns'],
  // docs/behaviour.md "Table data": `fields=tableProfilerConfig,sampleData,profile`.
  extraFields: {
    tableProfilerConfig: (stored, ctx) => structuredClone(profilerConfigOf(ctx, stored.entity.id)),
    sampleData: (stored, ctx) => structuredClone(sampleDataOf(ctx, stored.entity.id)),
    profile: (stored, ctx) => structuredClone(latestTableProfile(ctx, stored.entity.id)),
  },
});
