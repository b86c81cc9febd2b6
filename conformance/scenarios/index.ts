import { concurrentCreates } from './concurrency.ts';
import { createAndUniqueness, deleteAndRestore, errorsAndAuth, followersAndVotes, upsertAndBulk } from './lifecycle.ts';
import type { Scenario } from './support.ts';
import { dataContractResults, tableSubresources } from './tables.ts';

export const SCENARIOS: readonly Scenario[] = [
  createAndUniqueness,
  upsertAndBulk,
  deleteAndRestore,
  errorsAndAuth,
  followersAndVotes,
  concurrentCreates,
  tableSubresources,
  dataContractResults,
];

export { SetupError, type Scenario } from './support.ts';
