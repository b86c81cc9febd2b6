/** Databases of a database service; `databaseSchemas` lists the schemas inside one. */
import { serviceAsset } from './shapes.ts';

export const database = serviceAsset('database', 'databases', 'Database', 'databaseService', {
  relationshipFields: ['databaseSchemas', 'usageSummary', 'location'],
  childFields: { databaseSchemas: 'databaseSchema' },
  defaults: { default: false, entityStatus: 'Unprocessed' },
});
