/**
 * Database services: the root of their assets, FQN = name (docs/behaviour.md "Services"). Its CSV
 * is its databases, one row each (OpenMetadata's `databaseServiceCsvDocumentation.json`;
 * docs/behaviour.md "CSV import and export").
 */
import { entityRowsCsv } from '../features/csv/entity-rows.ts';
import type { Kind } from '../core/context.ts';
import { service } from './shapes.ts';

export const databaseService: Kind = {
  ...service('databaseService', 'databaseServices', 'DatabaseService'),
  csv: entityRowsCsv({
    rows: 'database',
    parentField: 'service',
    columns: ['name', 'displayName', 'description', 'owner', 'tags', 'glossaryTerms', 'tiers', 'certification', 'domains', 'extension'],
  }),
};
