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
  /**
   * Checked on every response the suite receives (conformance/observer.ts), not by a command or a
   * scenario: such checks do not count as a rule having checked an operation in the coverage report.
   */
  everyResponse?: boolean;
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
  {
    id: 'delete.async',
    name: 'DELETE <collection>/async/{id} answers 202 with a jobId, and the entity is then deleted as by the delete by id (soft: deleted true, version +0.1)',
    source: observed('docs/behaviour.md "Asynchronous delete" (EntityResource.java deleteByIdAsync, DeleteEntityResponse)'),
  },
  {
    id: 'delete.stale-in-scope',
    name: 'PUT <collection>/deleteStale with the FQNs a connector saw in a service: a dry run reports the unseen entities of the service and changes nothing; the call soft-deletes exactly those, and the seen ones and those of another service stay as they were',
    source: observed('docs/behaviour.md "Stale entities" (bulkDeleteStaleRequest.json, BulkDeleteStaleIT.java at the 2.0 line)'),
    expect: {
      contract: 'as OpenMetadata 2.0 (the contract shows none of it)',
      openmetadata: 'databases, dashboards and containers, each in a service scope',
      'openmetadata-1.10': 'not expected (1.x has no deleteStale): not exercised',
    },
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
  // Change events and the followers' feed
  {
    id: 'events.one-per-write',
    name: 'Each write that changes an entity (create, PATCH, soft delete, restore, hard delete) adds exactly one change event of its type about it to GET /v1/events',
    source: observed('docs/behaviour.md "Events" (EventResource.java, ChangeEventRepository.java, changeEventType.json)'),
  },
  {
    id: 'events.order',
    name: 'GET /v1/events lists the events oldest first (timestamps never going back), as OpenMetadata sorts them',
    source: observed('docs/behaviour.md "Events" (EntityUtil.compareChangeEvent)'),
  },
  {
    id: 'events.entity-after-write',
    name: "An event's entity is the entity right after the write it records: its version is the event's currentVersion and it shows the change",
    source: observed('docs/behaviour.md "Events" (changeEvent.json entity)'),
  },
  {
    id: 'events.change-description',
    name: "An update's changeDescription says what changed: previousVersion is the version before the write, fieldsUpdated names the field with its old and new values",
    source: observed('docs/behaviour.md "Events" (ChangeEventHandler, changeEvent.json changeDescription)'),
  },
  {
    id: 'events.rejected-write-none',
    name: 'A refused write (409, 404, 400) adds no change event',
    source: observed('docs/behaviour.md "Events" (EventResource.java: events of committed changes only)'),
  },
  {
    id: 'events.lineage',
    name: 'Adding, replacing and removing a lineage edge records entityLineageAdded, entityLineageUpdated and entityLineageDeleted (entityType lineage, named <from FQN>--upstream--><to FQN>), listed by GET /v1/events?entityUpdated=lineage',
    source: observed('docs/behaviour.md "Events" (changeEventType.json at the 2.0 line, AuditLogRepositoryTest.java)'),
    expect: {
      contract: 'the three lineage events, as OpenMetadata 2.0 records them',
      openmetadata: 'the three lineage events',
      'openmetadata-1.10': 'no lineage event (1.x has no such event types)',
    },
  },
  {
    id: 'events.followers-notified',
    name: "A change to a followed entity appears in the follower's feed (GET /v1/feed?userId=<follower>&filterType=FOLLOWS), and not in the feed of a user who does not follow it",
    source: contract('"Events" (followers of a table receive notifications about changes to it); the feed: docs/behaviour.md "Activity feed" (FeedResource.java)'),
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
    id: 'sample-data.per-table',
    name: "Sample data written to one table is that table's only: another table of the same schema still has none",
    source: contract('"Table sample data"'),
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
  {
    id: 'container.sample-data-round-trip',
    name: "PUT a container's sample data then GET answers the container with it; DELETE then GET answers it without; the version does not change",
    source: observed('docs/behaviour.md "Container and topic sample data" (ContainerResource.java, ContainerRepository.java)'),
  },
  {
    id: 'container.children-listed',
    name: 'GET /v1/containers/name/{fqn}/children lists exactly the containers directly inside (no deeper ones), a soft-deleted one only with include=all, and paging.total counts them',
    source: observed('docs/behaviour.md "Container children" (ContainerResource.java /name/{fqn}/children)'),
  },
  {
    id: 'profiler-config.database-round-trip',
    name: 'PUT a database (schema) profiler config then GET answers the entity with it; DELETE then GET answers it without; the version does not change',
    source: observed('docs/behaviour.md "Database and schema profiler configuration" (DatabaseResource.java, DatabaseSchemaResource.java)'),
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
    name: 'GET <contract>/results/latest returns the result with the greatest timestamp, and GET <contract>/results/<result id> that result',
    source: contract('"Data contracts" (latest result); docs/behaviour.md "Data contracts" (one result by id)'),
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
    id: 'data-contract.odcs-round-trip',
    name: 'A data contract exported as ODCS (JSON by id and by name, YAML) and imported for another entity (POST and PUT, JSON and YAML) keeps its description and schema; parse lists its schema object',
    source: observed('docs/behaviour.md "Data contracts" (DataContractResource.java ODCS endpoints; ui/rest/contractAPI.ts)'),
  },
  {
    id: 'data-contract.validate-stores-nothing',
    name: 'POST /v1/dataContracts/validate (JSON, YAML, ODCS YAML) answers valid for a good request and entityErrors for a missing entity, and stores no contract',
    source: observed('docs/behaviour.md "Data contracts" (DataContractResource.java validateContractRequest, contractValidation.json)'),
  },
  {
    id: 'data-contract.unknown-404',
    name: 'Result calls on an unknown data contract give 404',
    source: contract('"Errors" (404 for data contracts when the contract does not exist)'),
  },
  // Every response against the OpenAPI document (conformance/observer.ts, conformance/document.ts)
  {
    id: 'document.status-documented',
    name: 'Every response has a status the OpenAPI document gives for its operation, and every request the suite sends is a documented operation',
    source: observed('docs/behaviour.md "Validation and limits" (every response matches the OpenAPI document)'),
    expect: {
      contract: "the kit's document (profile contract), or the target's with --openapi",
      openmetadata: "the kit's document (profile openmetadata), or the target's with --openapi",
    },
    everyResponse: true,
  },
  {
    id: 'document.body-matches-schema',
    name: 'Every response body has the documented content type and matches the schema the document gives for its operation and status',
    source: observed('docs/behaviour.md "Validation and limits" (every response matches the OpenAPI document)'),
    everyResponse: true,
  },
  // What the values mean (conformance/observer.ts, conformance/meaning.ts)
  {
    id: 'meaning.updated-at-epoch-ms',
    name: "updatedAt of every entity the run created is epoch milliseconds within minutes of the suite's clock",
    source: contract('"Resources and their fields" (updatedAt: integer, epoch milliseconds)'),
    everyResponse: true,
  },
  {
    id: 'meaning.updated-at-monotonic',
    name: 'updatedAt of an entity never goes back from one response to the next',
    source: contract('"Resources and their fields" (updatedAt, the time of the last change); the rule: docs/behaviour.md "Versions"'),
    everyResponse: true,
  },
  {
    id: 'meaning.updated-by-token-user',
    name: "updatedBy of every entity the run created is the name of the token's user, who made every change",
    source: contract('"Resources and their fields" (updatedBy: user name); the user: docs/behaviour.md "Create"'),
    everyResponse: true,
  },
  {
    id: 'meaning.href-resolves',
    name: 'The href of a created entity, and of every reference in it, resolves: GET answers that entity',
    source: contract('"Resources and their fields" (href: URL of the entity); the form: docs/behaviour.md "Reading"'),
  },
  {
    id: 'create.fqn-quotes-dotted-names',
    name: 'A name with a dot is quoted in fullyQualifiedName ("a.b", svc."a.b") and the entity is found by that name',
    source: observed('docs/behaviour.md "Fully qualified names" (FullyQualifiedName.java quoteName)'),
  },
  {
    id: 'create.location-names-entity',
    name: 'A 201 of a create (POST or PUT) has a Location header naming the created entity',
    source: observed('docs/behaviour.md "Create", "Upsert" (EntityResource.java create: Response.created(href))'),
    expect: {
      contract: 'Location <base>/v1/<collection>/<id> (or the href) on every 201; a 200 create needs none',
      openmetadata: 'Location on every 201, the PUT that creates included',
    },
  },
  // Versions and PATCH
  {
    id: 'versions.arithmetic',
    name: 'Each write sets the version exactly: +0.1 for a minor change, PATCH, a soft delete or restore (descendants too), +1.0 for a major change, unchanged for a no-op',
    source: observed('docs/behaviour.md "Versions" (EntityUtil.java nextVersion, nextMajorVersion; EntityRepository.java EntityUpdater)'),
  },
  {
    id: 'versions.history',
    name: 'GET <collection>/{id}/versions lists every version, newest first, and /versions/{v} answers the entity as it was at v; an unknown version gives 404',
    source: observed('docs/behaviour.md "Versions" (EntityRepository.java listVersions, getVersion)'),
  },
  {
    id: 'patch.failed-test-applies-nothing',
    name: 'A JSON Patch whose test operation fails is refused (400) and applies none of its operations: description and version unchanged',
    source: observed('docs/behaviour.md "Patch" (RFC 6902 section 5; EntityResource.java patchInternal)'),
  },
  {
    id: 'patch.applies',
    name: 'PATCH by id and by name applies the JSON Patch: 200 with the change, kept by later reads; patching deleted gives 400, a soft-deleted entity 404',
    source: observed('docs/behaviour.md "Patch" (EntityResource.java patchInternal, EntityRepository.java patch)'),
  },
  // Listing
  {
    id: 'list.cursor-paging',
    name: 'Listing page by page with limit and the after cursor, then back with before, returns every entity of the scope exactly once, at most limit per page, with paging.total',
    source: observed('docs/behaviour.md "Listing" (EntityResource.java list, ResultList.java, paging.json)'),
  },
  {
    id: 'list.include-filter',
    name: 'A list shows soft-deleted entities only with include=deleted (only them) or include=all (with the others)',
    source: observed('docs/behaviour.md "Listing" (the default include is non-deleted, EntityResource.java)'),
  },
  // Side effects
  {
    id: 'side-effects.rejected-request-changes-nothing',
    name: 'After a rejected request (400, 401, 403, 404, 409, 412) the entities it could touch, their collection listing (include=all) and their followers and votes are as before',
    source: observed('docs/behaviour.md "Errors" (a refused request changes nothing)'),
  },
  // Table profiles and data contracts by entity
  {
    id: 'table-profile.round-trip',
    name: 'PUT tableProfile stores a table, column and system profile; GET tableProfile, columnProfile and systemProfile return them in their time range, and tableProfile/latest answers the table with them',
    source: contract('"Table profiler" (table, column and system profiles); the shapes: docs/behaviour.md "Table data", "Table columns and custom metrics"'),
    expect: { contract: 'reads keyed by the table id', openmetadata: 'reads keyed by the table FQN (columnProfile by the column FQN), with startTs and endTs' },
  },
  {
    id: 'csv.dry-run-changes-nothing',
    name: 'A CSV import with dryRun=true that would change an entity answers a dry-run result and changes nothing',
    source: observed('docs/behaviour.md "CSV import and export" (EntityResource.java importCsvInternal, dryRun)'),
  },
  {
    id: 'csv.export-import-round-trip',
    name: "A database's CSV export lists its schemas, imports back (dry run) with every row passing, and the asynchronous forms answer a job",
    source: observed('docs/behaviour.md "CSV import and export" (EntityResource.java exportCsvInternal, importCsvInternal and their async forms)'),
  },
  {
    id: 'data-contract.by-entity',
    name: "GET /v1/dataContracts/entity?entityId&entityType answers the entity's data contract",
    source: observed('docs/behaviour.md "Data contracts" (DataContractResource.java getByEntityId)'),
  },
  // Conditional requests
  {
    id: 'conditional.etag',
    name: 'GET of an entity answers a weak ETag, the same by id and by name while the entity is unchanged, and a new one after each change',
    source: observed('docs/behaviour.md "Conditional requests" (EntityResource.java answers an ETag; the web UI\'s ui/rest/ interceptor reads it)'),
    expect: {
      contract: 'a new ETag after a PATCH, a follower and a vote',
      openmetadata: 'a new ETag after a PATCH (a follower or a vote keeps the version and updatedAt the ETag is made of)',
    },
  },
  {
    id: 'conditional.if-none-match',
    name: 'GET by id or by name with If-None-Match naming the current ETag answers 304 without a body; an older ETag gets 200 with the entity',
    source: observed('docs/behaviour.md "Conditional requests" (the web UI sends If-None-Match on every GET, ui/rest/ axios interceptor)'),
  },
  {
    id: 'conditional.if-match',
    name: 'A write with If-Match naming the current ETag succeeds; naming an older one it answers 412 PRECONDITION_FAILED and changes nothing',
    source: observed('docs/behaviour.md "Conditional requests" (PreconditionFailedException.java, CatalogGenericExceptionMapper.java)'),
    expect: { contract: 'PATCH, PUT (upsert) and DELETE', openmetadata: 'PATCH' },
  },
  // Fields
  {
    id: 'fields.schema-properties',
    name: 'fields may name any property of the entity, and the answer shows what the entity holds (a table: columns, tableConstraints, joins...)',
    source: observed('docs/behaviour.md "Reading" (EntityRepository.java allowedFields = getEntityFields(entityClass))'),
  },
  {
    id: 'fields.unknown-400',
    name: 'fields naming something that is no property of the entity answers 400 Invalid field name <x>',
    source: observed('docs/behaviour.md "Reading" (CatalogExceptionMessage.java invalidField)'),
  },
  // Search
  {
    id: 'search.finds-created',
    name: "GET /v1/search/query with q=<name> in the kind's index finds an entity just created (a target gets 5 s to index it)",
    source: observed('docs/behaviour.md "Search" (SearchResource.java search; "a write is found by the next search")'),
  },
  {
    id: 'search.deleted-hidden',
    name: 'A soft-deleted entity is not found without deleted or with deleted=false; deleted=true finds it, and only soft-deleted entities',
    source: observed('docs/behaviour.md "Search" (ElasticSearchSearchManager.java applyDeletedFilter)'),
  },
  {
    id: 'search.paging-consistent',
    name: 'from / size page through the hits: every page has hits.total.value equal to the matches, and the pages hold each match once',
    source: observed('docs/behaviour.md "Search" ("Paging and counts", ElasticSearchSearchManager.java doSearch)'),
  },
  {
    id: 'search.index-filter',
    name: 'index=<kind>_search_index returns only hits of that kind (_index and entityType); index=all returns every kind',
    source: observed('docs/behaviour.md "Search" ("Index names", elasticsearch/indexMapping.json)'),
  },
  {
    id: 'search.search-after',
    name: 'search_after with the sort values of the last hit of a page sorted by a field gives the hits after it, in order: the pages together hold each match once, and the page after the last is empty',
    source: observed('docs/behaviour.md "Search" (SearchResource.java search: search_after)'),
    expect: {
      contract: 'search_after repeated, one parameter per sort value (OpenMetadata 2.0)',
      openmetadata: 'search_after repeated, one parameter per sort value',
      'openmetadata-1.10': 'one search_after parameter, the sort values joined by commas',
    },
  },
  // Names
  {
    id: 'names.refused-characters',
    name: "A create whose name the profile's name pattern refuses answers 400 and creates nothing; a name it allows is created",
    source: observed('docs/behaviour.md "Validation and limits" (type/basic.json entityName)'),
    expect: {
      contract: '`>`, `"`, control characters and `::` refused (OpenMetadata 2.0)',
      openmetadata: '`>`, `"`, control characters and `::` refused',
      'openmetadata-1.10': 'only `::` refused by the pattern: `a>b` and a tab are created',
    },
  },
  // Lineage
  {
    id: 'lineage.edge-both-ends',
    name: 'An edge added with PUT /v1/lineage is downstream in the lineage of its upstream end and upstream in that of its downstream end, by id and by FQN',
    source: observed('docs/behaviour.md "Lineage" (LineageRepository.java addLineage; LineageResource.java get, getByName)'),
  },
  {
    id: 'lineage.edge-delete',
    name: "DELETE /v1/lineage/<from>/<id>/<to>/<id> answers 200 and the edge leaves both ends' lineage; other edges stay",
    source: observed('docs/behaviour.md "Lineage" (LineageRepository.java deleteLineage)'),
  },
  {
    id: 'lineage.hard-delete-removes-edges',
    name: "A hard-deleted entity takes its lineage edges with it: the other end's lineage no longer has it, and getLineageEdge is 404",
    source: observed('docs/behaviour.md "Lineage" (a hard delete of either end removes the edge; LineageRepository.java getLineageEdge)'),
  },
  // Custom properties
  {
    id: 'custom-properties.declared-round-trip',
    name: 'An extension value of a property declared on the entity type is stored as sent through create, PATCH and upsert, and GET with fields=extension returns it',
    source: observed('docs/behaviour.md "Custom properties" (TypeRepository.java addCustomProperty; CustomPropertyValidator.java validateExtension)'),
  },
  {
    id: 'custom-properties.wrong-type-refused',
    name: 'An extension value of the wrong JSON type for its declared property (a number for a string) is refused with 400 on create and PATCH, and changes nothing',
    source: observed('docs/behaviour.md "Custom properties" (CustomPropertyValidator.java validateExtension)'),
  },
  {
    id: 'custom-properties.undeclared-refused',
    name: 'An extension value of a property the entity type does not declare is refused with 400 on create, upsert and PATCH, and changes nothing',
    source: observed('docs/behaviour.md "Custom properties" (CatalogExceptionMessage.java unknownCustomField)'),
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
