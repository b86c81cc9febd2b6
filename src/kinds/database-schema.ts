/** Schemas of a database (`<service>.<database>.<schema>`); `tables` lists the tables inside one. */
import { serviceAsset } from './shapes.ts';

export const databaseSchema = serviceAsset('databaseSchema', 'databaseSchemas', 'DatabaseSchema', 'databaseService', {
  parents: [{ field: 'database', inherit: ['service', 'serviceType'] }],
  refFields: { database: { kinds: ['database'], by: 'fqn' } },
  relationshipFields: ['tables', 'usageSummary'],
  childFields: { tables: 'table' },
  prefixFilters: ['database'],
});
