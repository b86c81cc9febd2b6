/**
 * The rule catalogue: every check the suite makes belongs to exactly one rule here.
 * Ids are stable (reports, JUnit names, `--rules` and the self-test's fault table use them);
 * names state the rule as an assertion; `source` says where the rule comes from: a section of the
 * interface specification, by name, or OpenMetadata behaviour where the specification is silent,
 * as the section of docs/behaviour.md (shipped in the package) that states it, with the upstream file.
 */
import type { Profile } from './profiles.ts';

export type RuleSource = { kind: 'contract'; section: string } | { kind: 'observed'; section: string };

export interface Rule {
  id: string;
  /** The rule, stated as an assertion. */
  name: string;
  source: RuleSource;
  /** What each profile expects, where they differ or where it helps to spell it out. */
  expect?: Partial<Record<Profile, string>>;
}

/** From the interface specification: its section names, quoted (`"Delete and restore" rule 4`). */
const contract = (section: string): RuleSource => ({ kind: 'contract', section });
/** From OpenMetadata behaviour: `docs/behaviour.md "<heading>"` and the upstream file it was read from. */
const observed = (section: string): RuleSource => ({ kind: 'observed', section });

export const RULES: readonly Rule[] = [
  // Create
  {
    id: 'create.returns-fields',
    name: 'POST creates the entity and returns the given properties plus id, version 0.1, updatedAt, updatedBy, deleted false and the empty arrays',
    source: contract('"Create, upsert and bulk upsert" rule 1'),
    expect: {
      contract: 'status 200 or 201 (not shown in the contract); owners, tags and domains are arrays',
      openmetadata: 'status 201; owners, tags and domains, when present, are arrays',
    },
  },
  {
    id: 'create.fqn-derived',
    name: 'fullyQualifiedName is the name for services and classifications, <service>.<name> for children, <service>.<parent>.<name> for nested containers',
    source: contract('"What the service does" (Common rules 3); "Resources and their fields" (fields common to most entities)'),
  },
  {
    id: 'read.get-by-id-and-name-agree',
    name: 'GET by id and GET by name return the same entity, as last written (id, fullyQualifiedName, version, deleted)',
    source: observed('docs/behaviour.md "Reading" (EntityResource.java get, getByName)'),
  },
  // Uniqueness
  {
    id: 'uniqueness.duplicate-post-409-service',
    name: 'POST of a service whose name exists (active or soft-deleted) among services of that kind gives 409',
    source: contract('"Create, upsert and bulk upsert" rule 2; "Errors"'),
    expect: { contract: '409 with errorType ENTITY_ALREADY_EXISTS', openmetadata: '409, message "Entity already exists"' },
  },
  {
    id: 'uniqueness.duplicate-post-409-child',
    name: 'POST of a child whose name exists (active or soft-deleted) in the same parent service gives 409',
    source: contract('"Create, upsert and bulk upsert" rule 2; "Errors"'),
  },
  {
    id: 'uniqueness.duplicate-post-409-nested',
    name: 'POST of a nested container whose name exists under the same parent container gives 409',
    source: contract('"Container" (name unique within the parent storage service or parent container)'),
  },
  {
    id: 'uniqueness.duplicate-post-409-classification',
    name: 'POST of a classification whose name exists gives 409',
    source: contract('"Create, upsert and bulk upsert" rule 2; "Errors"'),
  },
  {
    id: 'uniqueness.same-name-in-other-scope-allowed',
    name: 'A child name used in one service can be used again in another service (the scope is the parent)',
    source: contract('"Create, upsert and bulk upsert" rule 2 (the scope is the parent service for children)'),
  },
  // Upsert
  {
    id: 'upsert.creates',
    name: 'PUT at the collection path creates an entity whose fullyQualifiedName does not exist yet',
    source: contract('"Create, upsert and bulk upsert" rule 3'),
    expect: { contract: 'status 200 or 201, version 0.1', openmetadata: 'status 201, version 0.1' },
  },
  {
    id: 'upsert.updates-in-place',
    name: 'PUT of an existing entity with a changed field updates it: same id, the new value, version +0.1',
    source: contract('"Create, upsert and bulk upsert" rule 3; the version rule: docs/behaviour.md "Versions"'),
  },
  {
    id: 'upsert.idempotent',
    name: 'PUT of an existing entity with an unchanged body answers 200 with the same id and the same version',
    source: observed('docs/behaviour.md "Upsert" (EntityResourceTest.java put_entityUpdateWithNoChange_200: no change keeps the version)'),
  },
  {
    id: 'upsert.never-409',
    name: 'PUT never answers 409 for an existing entity',
    source: contract('"Create, upsert and bulk upsert" rule 3; "Errors" (409 never returned by PUT)'),
  },
  {
    id: 'upsert.restores-soft-deleted',
    name: 'PUT of a soft-deleted entity restores it: 200, same id, deleted false',
    source: observed('docs/behaviour.md "Upsert" (EntityRepository.java createOrUpdateInternal restores a soft-deleted entity)'),
  },
  {
    id: 'bulk.upserts-each',
    name: 'PUT <collection>/bulk creates or updates every item of the array',
    source: contract('"Create, upsert and bulk upsert" rule 4'),
    expect: {
      contract: 'status 2xx; every item readable by name afterwards with the sent description',
      openmetadata: 'status 200 with a BulkOperationResult (newest OpenMetadata only); every item readable afterwards',
    },
  },
  // Soft delete, restore, hard delete
  {
    id: 'soft-delete.marks-deleted',
    name: 'DELETE without hardDelete answers 200 with the entity and deleted true',
    source: contract('"Entity lifecycle"; "Delete and restore" rule 4'),
  },
  {
    id: 'soft-delete.version-rises',
    name: 'A soft delete raises the version by 0.1',
    source: contract('"Versioning" rule 2 (0.1 → 0.2 after a soft delete)'),
  },
  {
    id: 'soft-delete.hidden-by-default',
    name: 'A soft-deleted entity is not found by GET by id or by name without include',
    source: observed('docs/behaviour.md "Delete" (the default include is non-deleted, EntityResource.java)'),
  },
  {
    id: 'soft-delete.visible-with-include',
    name: 'A soft-deleted entity is returned, deleted true, by GET with include=deleted or include=all',
    source: observed('docs/behaviour.md "Delete" (the default include is non-deleted, EntityResource.java)'),
  },
  {
    id: 'restore.reactivates',
    name: 'PUT <prefix>/restore {id} of a soft-deleted entity answers 200 with deleted false, version +0.1, and GET finds it again',
    source: contract('"Entity lifecycle" (soft-deleted → active); "Delete and restore"; the version: docs/behaviour.md "Restore"'),
  },
  {
    id: 'restore.brings-back-children',
    name: 'Restoring a parent that was deleted recursively brings back the children deleted with it',
    source: observed('docs/behaviour.md "Restore" (EntityRepository.java restoreChildren; EntityResourceTest.java delete_recursiveTest)'),
  },
  {
    id: 'hard-delete.status',
    name: 'DELETE with hardDelete=true answers as the profile says',
    source: contract('"Delete and restore" rule 4 (hard delete returns 204)'),
    expect: { contract: '204 with no body', openmetadata: '200 with the deleted entity (RestUtil.java DeleteResponse)' },
  },
  {
    id: 'hard-delete.gone-everywhere',
    name: 'A hard-deleted entity is gone: GET by id and by name with include=all, restore and a second delete all give 404',
    source: contract('"Entity lifecycle" (removed permanently); "Delete and restore" rule 5'),
  },
  {
    id: 'delete.non-recursive-parent-400',
    name: 'Deleting a parent that has children without recursive=true gives 400 and changes nothing',
    source: observed('docs/behaviour.md "Recursive delete" ("<type> is not empty", CatalogExceptionMessage.java entityIsNotEmpty)'),
  },
  {
    id: 'delete.recursive-cascades',
    name: 'DELETE with recursive=true also deletes the children (soft: hidden, visible with include; hard: gone)',
    source: contract('"Delete and restore" rule 3; "Entity lifecycle" (recursive)'),
  },
  // Errors
  {
    id: 'not-found.unknown-id',
    name: 'Every operation on an unknown id (get, delete, restore, follow, vote, unknown follower) gives 404',
    source: contract('"Delete and restore" rule 5; "Followers and votes (tables and dashboards)"; "Errors"'),
  },
  {
    id: 'not-found.unknown-name',
    name: 'GET and DELETE by an unknown fully qualified name give 404',
    source: contract('"Delete and restore" rule 5; "Errors"'),
  },
  {
    id: 'validation.invalid-body-400',
    name: 'A create or upsert with a missing required field or an invalid body gives 400 and changes nothing',
    source: contract('"Create, upsert and bulk upsert" rule 5; "Errors"'),
    expect: {
      contract: 'missing name, service, serviceType or connection: 400',
      openmetadata: 'missing name, service or serviceType: 400 (connection is optional)',
    },
  },
  {
    id: 'errors.body-shape',
    name: 'Every error is JSON with code equal to the status and a message; the contract profile also needs the error type',
    source: contract('"Errors" (error types); the body: docs/behaviour.md "Errors"'),
    expect: {
      contract: '{code, errorType, message}; errorType matches the status (NOT_FOUND, ENTITY_ALREADY_EXISTS...)',
      openmetadata: '{code, message}; errorType optional (CatalogGenericExceptionMapper.java)',
    },
  },
  {
    id: 'auth.missing-token-401',
    name: 'A request without a token gives 401 and changes nothing',
    source: contract('"Authentication" rule 2'),
  },
  {
    id: 'auth.invalid-token-401',
    name: 'A request with a malformed, tampered, alg:none or non-Bearer token gives 401 and changes nothing',
    source: contract('"Authentication" rule 2'),
  },
  {
    id: 'auth.restricted-token-403',
    name: 'A valid token of a user without write permission gets 403 on writes, and nothing changes',
    source: contract('"Authentication" rule 3; "Errors" (403)'),
    expect: { contract: 'exercised only with --restricted-token', openmetadata: 'exercised only with --restricted-token' },
  },
  // Followers, votes
  {
    id: 'followers.consistent',
    name: "Adding and removing a follower is reflected in the entity's followers (once, whatever the repeats) without a version change",
    source: contract('"Followers and votes (tables and dashboards)"; the version: docs/behaviour.md "Followers and votes"'),
    expect: {
      contract: 'add answers the entity with its followers list',
      openmetadata: 'add answers a ChangeEvent whose changeDescription.fieldsAdded[0].newValue lists the user',
    },
  },
  {
    id: 'votes.consistent',
    name: "votedUp, votedDown and unVoted are reflected in the entity's votes counts",
    source: contract('"Followers and votes (tables and dashboards)"; "Vote type"'),
  },
  // Table profiler config and sample data
  {
    id: 'profiler-config.round-trip',
    name: 'PUT profiler config then GET returns what was stored; DELETE removes it',
    source: contract('"Table profiler"'),
    expect: {
      contract: '/profilerConfig answers the configuration object; DELETE 204',
      openmetadata: '/tableProfilerConfig answers the table with tableProfilerConfig; DELETE 200',
    },
  },
  {
    id: 'profiler-config.not-found-404',
    name: 'Profiler config of an unknown table, or of a table that has none, gives 404',
    source: contract('"Table profiler"'),
  },
  {
    id: 'sample-data.round-trip',
    name: 'PUT sample data then GET returns the same columns and rows; DELETE removes them',
    source: contract('"Table sample data"'),
    expect: {
      contract: '{columns: [{name, dataType}], rows}; DELETE 204',
      openmetadata: 'the table with sampleData {columns: [names], rows}; DELETE 200',
    },
  },
  {
    id: 'sample-data.not-found-404',
    name: 'Sample data of an unknown table, or of a table that has none, gives 404',
    source: contract('"Table sample data"'),
  },
  // Data contracts
  {
    id: 'data-contract.results-newest-first',
    name: 'GET <contract>/results lists results newest first',
    source: observed('docs/behaviour.md "Data contracts" (DataContractResource.java listResults: sorted by timestamp, descending)'),
  },
  {
    id: 'data-contract.results-limit',
    name: 'GET <contract>/results?limit=n returns at most n results, the newest ones',
    source: contract('"Data contracts" (limit)'),
  },
  {
    id: 'data-contract.results-time-range',
    name: 'GET <contract>/results with startTs and endTs returns exactly the results between them',
    source: contract('"Data contracts" (startTs, endTs)'),
  },
  {
    id: 'data-contract.results-latest',
    name: 'GET <contract>/results/latest returns the result with the greatest timestamp',
    source: contract('"Data contracts" (latest result)'),
  },
  {
    id: 'data-contract.results-delete-one',
    name: 'DELETE <contract>/results/<timestamp> removes that result and only it',
    source: contract('"Data contracts" (delete one result)'),
  },
  {
    id: 'data-contract.results-delete-before',
    name: 'DELETE <contract>/results/before/<timestamp> removes the older results and keeps the newer ones',
    source: contract('"Data contracts" (delete older results)'),
  },
  {
    id: 'data-contract.validate-returns-result',
    name: 'POST <contract>/validate returns a validation result for that contract with a known execution status',
    source: contract('"Data contracts" (validate a contract); "Data contract validation result"'),
  },
  {
    id: 'data-contract.unknown-404',
    name: 'Result calls on an unknown data contract give 404',
    source: contract('"Errors" (404 for data contracts when the contract does not exist)'),
  },
  // Concurrency
  {
    id: 'concurrency.duplicate-create-one-wins',
    name: 'Concurrent POSTs of the same new name: exactly one succeeds, the others get 409',
    source: contract('"Create, upsert and bulk upsert" rule 2 (applied to concurrent requests)'),
  },
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

const byId = new Map(RULES.map((r) => [r.id, r]));

export function isRuleId(id: string): boolean {
  return byId.has(id);
}

/** The group of a rule id: the part before the first dot (`uniqueness`, `upsert`...). */
export function ruleGroup(id: string): string {
  return id.split('.')[0] ?? id;
}

export function describeSource(source: RuleSource): string {
  return source.kind === 'contract' ? `interface specification, ${source.section}` : `OpenMetadata behaviour, ${source.section}`;
}
