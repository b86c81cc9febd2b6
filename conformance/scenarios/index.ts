import { concurrentCreates } from './concurrency.ts';
import { conditionalRequests, fieldsContract } from './conditional.ts';
import { contractDocuments } from './contract-documents.ts';
import { customProperties } from './custom-properties.ts';
import { changeEvents } from './events.ts';
import { lineageGraph } from './lineage.ts';
import { entityNames } from './names.ts';
import { createAndUniqueness, deleteAndRestore, errorsAndAuth, followersAndVotes, upsertAndBulk } from './lifecycle.ts';
import { everyOperationOfTheInterface } from './operations.ts';
import { searchIndex } from './search.ts';
import { sideData } from './side-data.ts';
import { staleEntities } from './stale.ts';
import type { Scenario } from './support.ts';
import { csvRoundTrip, dataContractResults, tableSubresources } from './tables.ts';

export const SCENARIOS: readonly Scenario[] = [
  createAndUniqueness,
  upsertAndBulk,
  deleteAndRestore,
  errorsAndAuth,
  followersAndVotes,
  concurrentCreates,
  tableSubresources,
  dataContractResults,
  everyOperationOfTheInterface,
  staleEntities,
  csvRoundTrip,
  sideData,
  contractDocuments,
  conditionalRequests,
  fieldsContract,
  changeEvents,
  searchIndex,
  lineageGraph,
  entityNames,
  customProperties,
];

export { SetupError, type Scenario } from './support.ts';
