/**
 * Data quality beyond the test case and test suite lifecycle (docs/behaviour.md "Data quality";
 * OpenMetadata's TestCaseResource and TestSuiteResource): which test cases a suite holds (a basic
 * suite, those of its table; a logical one, those added to it), the search lists of test cases and
 * test suites, the data quality report computed from the stored test cases and results, and the
 * failed rows sample of a test case. What it keeps lives in side-data areas of the store.
 */
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideValue } from '../../core/side-data.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, EntityReference, Paging, Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { readEntityLink } from '../../core/entity-link.ts';
import { CatalogError } from '../../core/errors.ts';
import type { Include } from '../../core/listing.ts';
import { matchesInclude } from '../../core/listing.ts';
import { latestTestCaseResult, listTestCaseResults } from './test-case-results.ts';
import type { TimeRange } from '../../core/time-series.ts';
import type { TableData } from '../table-data/table-data.ts';
import { compileFilter } from '../search/query-dsl.ts';
import { termsOf, textOf } from '../search/documents.ts';

export type DataQualityReport = Schemas['DataQualityReport'];
type DimensionResult = Schemas['TestCaseDimensionResult'];
export type DataQualityReportRequest = Schemas['DataQualityReportRequest'];

const without = (ids: readonly string[], id: string): readonly string[] | undefined => {
  const left = ids.filter((other) => other !== id);
  return left.length ? left : undefined;
};

// The test cases added to a logical suite, by suite id (`sideData.testSuiteTests`); a test case removed for good leaves them.
const MEMBERS = sideValue<readonly string[]>({ group: 'testSuiteTests', owner: 'testSuite', schema: 'TestSuiteMembers', withoutEntity: without });
// The rows a test case's newest run failed on, by test case id (`sideData.failedRowsSamples`).
const FAILED_ROWS = sideValue<TableData>({ group: 'failedRowsSamples', owner: 'testCase', schema: 'TableData' });

const isBasic = (suite: Entity): boolean => suite.basic === true;

/** The FQN of the entity a test case tests (its table, for a column test). */
const testedFqn = (testCase: Entity): string | undefined => readEntityLink(testCase.entityLink)?.fqn;

/** The live test cases of a suite, by FQN: a basic suite's are its table's; a logical suite's those added to it or naming it. */
function testsOfSuite(ctx: CatalogContext, suite: StoredEntity): StoredEntity[] {
  const found = new Map<string, StoredEntity>();
  const table = (suite.entity.basicEntityReference as EntityReference | undefined)?.fullyQualifiedName;
  for (const tc of ctx.store.ofType('testCase')) {
    if (tc.entity.deleted) continue;
    const named = (tc.entity.testSuite as EntityReference | undefined)?.id === suite.entity.id;
    if (named || (isBasic(suite.entity) && table !== undefined && testedFqn(tc.entity) === table)) found.set(tc.entity.id, tc);
  }
  for (const id of ctx.store.getSide(MEMBERS, suite.entity.id) ?? []) {
    const tc = ctx.store.get(id);
    if (tc && !tc.entity.deleted) found.set(id, tc);
  }
  return [...found.values()].sort((a, b) => compare(a.entity.fullyQualifiedName, b.entity.fullyQualifiedName));
}

/** A suite's `tests` field: references to its test cases. */
export const testsField = (suite: StoredEntity, ctx: CatalogContext): EntityReference[] => testsOfSuite(ctx, suite).map((tc) => referenceTo('testCase', tc.entity));

function liveOfType(ctx: CatalogContext, type: string, id: string): StoredEntity {
  const stored = ctx.store.get(id);
  if (!stored || stored.type !== type || stored.entity.deleted) throw CatalogError.notFound(type, id);
  return stored;
}

function logicalSuite(ctx: CatalogContext, suiteId: string): StoredEntity {
  const suite = liveOfType(ctx, 'testSuite', suiteId);
  // OpenMetadata's `TestCaseResource.addTestCasesToLogicalTestSuite` text.
  if (isBasic(suite.entity)) throw CatalogError.badRequest('You are trying to add test cases to a basic test suite.');
  return suite;
}

/** Adds test cases (by id) to a logical suite; those already in it stay once. 404 for an unknown one, 400 for a basic suite. */
export function addToLogicalSuite(ctx: CatalogContext, suiteId: string, testCaseIds: readonly string[]): StoredEntity {
  const suite = logicalSuite(ctx, suiteId);
  const members = [...(ctx.store.getSide(MEMBERS, suite.entity.id) ?? [])];
  for (const id of testCaseIds) {
    liveOfType(ctx, 'testCase', id);
    if (!members.includes(id)) members.push(id);
  }
  ctx.store.setSide(MEMBERS, suite.entity.id, members.length ? members : undefined);
  return suite;
}

/** Takes a test case out of a logical suite; 404 when it was not added to it. Returns the test case. */
export function removeFromLogicalSuite(ctx: CatalogContext, suiteId: string, testCaseId: string): StoredEntity {
  const suite = logicalSuite(ctx, suiteId);
  const testCase = liveOfType(ctx, 'testCase', testCaseId);
  const members = ctx.store.getSide(MEMBERS, suite.entity.id) ?? [];
  if (!members.includes(testCaseId)) throw CatalogError.notFound('testCase', `${testCaseId} in test suite ${suite.entity.fullyQualifiedName}`);
  ctx.store.setSide(MEMBERS, suite.entity.id, without(members, testCaseId));
  return testCase;
}

// --- dimension results ------------------------------------------------------------------------

/** `<name>=<value>` of each dimension value, joined by `,`. */
const dimensionKeyOf = (result: DimensionResult): string => result.dimensionValues.map((v) => `${v.name}=${v.value}`).join(',');

/** The dimension results of a test case's runs in a time range, newest run first; `dimension` keeps one dimension's (its names joined by `,`). */
export function dimensionResultsOf(ctx: CatalogContext, testCase: StoredEntity, range: TimeRange, dimension?: string): { data: DimensionResult[]; paging: Paging } {
  const data: DimensionResult[] = [];
  for (const run of listTestCaseResults(ctx, testCase.entity.id, range).data) {
    for (const result of run.dimensionResults ?? []) {
      if (dimension !== undefined && result.dimensionValues.map((v) => v.name).join(',') !== dimension) continue;
      data.push({ ...structuredClone(result), dimensionKey: dimensionKeyOf(result), timestamp: run.timestamp, ...(run.id ? { testCaseResultId: run.id } : {}) });
    }
  }
  return { data, paging: { total: data.length } };
}

// --- failed rows sample -----------------------------------------------------------------------

/** Stores the rows a failed test case failed on; 400 unless its newest result is `Failed`, or for a row of the wrong length. */
export function setFailedRowsSample(ctx: CatalogContext, testCase: StoredEntity, data: TableData): TableData {
  // OpenMetadata's `TestCaseRepository.addFailedRowsSample` text.
  if (latestTestCaseResult(ctx, testCase.entity.id)?.testCaseStatus !== 'Failed') throw CatalogError.badRequest('Failed rows can only be added to a failed test case.');
  for (const row of data.rows) {
    if (row.length !== data.columns.length) throw CatalogError.badRequest(`Number of columns is ${data.columns.length} but row has ${row.length} sample values`);
  }
  const stored = structuredClone(data);
  ctx.store.setSide(FAILED_ROWS, testCase.entity.id, stored);
  return stored;
}

export const failedRowsSampleOf = (ctx: CatalogContext, testCaseId: string): TableData | undefined => ctx.store.getSide(FAILED_ROWS, testCaseId);

/** Removes the sample; 404 when there is none. */
export function deleteFailedRowsSample(ctx: CatalogContext, testCase: StoredEntity): void {
  if (!failedRowsSampleOf(ctx, testCase.entity.id)) throw new CatalogError('notFound', `Failed rows sample for test case ${testCase.entity.id} not found`);
  ctx.store.setSide(FAILED_ROWS, testCase.entity.id, undefined);
}

// --- search lists -------------------------------------------------------------------------------

const compare = (a: unknown, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  return x < y ? -1 : x > y ? 1 : 0;
};

/** `q` of the search lists: contained in the name, display name or FQN, ignoring case; `*` alone (or nothing) matches all. */
function textMatches(entity: Entity, q: string | undefined): boolean {
  const needle = (q ?? '').replaceAll('*', '').trim().toLowerCase();
  if (!needle) return true;
  return [entity.name, entity.displayName, entity.fullyQualifiedName].some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
}

export interface Page {
  offset: number;
  limit: number;
  include: Include;
  sortDesc: boolean;
}

function paged(items: StoredEntity[], page: Page): { items: StoredEntity[]; paging: Paging } {
  return { items: items.slice(page.offset, page.offset + page.limit), paging: { offset: page.offset, limit: page.limit, total: items.length } };
}

export interface TestCaseSearch extends Page {
  q?: string | undefined;
  entityLink?: string | undefined;
  includeAllTests: boolean;
  testSuiteId?: string | undefined;
  /** The newest result's status is one of these. */
  testCaseStatus?: ReadonlySet<string> | undefined;
  testCaseType?: 'all' | 'table' | 'column' | undefined;
  testPlatforms?: readonly string[] | undefined;
  serviceName?: string | undefined;
  tags?: readonly string[] | undefined;
  startTimestamp?: number | undefined;
  endTimestamp?: number | undefined;
  sortField: string;
}

const TEST_CASE_SORT: Record<string, (ctx: CatalogContext, tc: StoredEntity) => unknown> = {
  name: (_ctx, tc) => tc.entity.name,
  fullyQualifiedName: (_ctx, tc) => tc.entity.fullyQualifiedName,
  updatedAt: (_ctx, tc) => tc.entity.updatedAt,
  'testCaseResult.timestamp': (ctx, tc) => latestTestCaseResult(ctx, tc.entity.id)?.timestamp ?? 0,
};

/** `GET /v1/dataQuality/testCases/search/list`: the test cases matching every filter given. */
export function searchTestCases(ctx: CatalogContext, query: TestCaseSearch): { items: StoredEntity[]; paging: Paging } {
  const link = query.entityLink === undefined ? undefined : readEntityLink(query.entityLink);
  if (query.entityLink !== undefined && !link) throw CatalogError.badRequest(`Invalid entityLink ${query.entityLink}`);
  const suiteTests = query.testSuiteId === undefined ? undefined : new Set(testsOfSuite(ctx, liveOfType(ctx, 'testSuite', query.testSuiteId)).map((tc) => tc.entity.id));
  const keep = (tc: StoredEntity): boolean => {
    const entity = tc.entity;
    if (!matchesInclude(entity, query.include) || !textMatches(entity, query.q)) return false;
    const own = readEntityLink(entity.entityLink);
    if (link) {
      if (own?.type !== link.type || own.fqn !== link.fqn) return false;
      if (own.column !== link.column && !(query.includeAllTests && link.column === undefined)) return false;
    }
    if (suiteTests && !suiteTests.has(entity.id)) return false;
    if (query.testCaseType === 'table' && own?.column !== undefined) return false;
    if (query.testCaseType === 'column' && own?.column === undefined) return false;
    if (query.serviceName !== undefined && own?.fqn.split('.')[0]?.replaceAll('"', '') !== query.serviceName.replaceAll('"', '')) return false;
    if (query.tags?.length && !((entity.tags as { tagFQN: string }[] | undefined) ?? []).some((t) => query.tags!.includes(t.tagFQN))) return false;
    if (query.testPlatforms?.length) {
      const definition = ctx.store.get((entity.testDefinition as EntityReference).id)?.entity;
      if (!((definition?.testPlatforms as string[] | undefined) ?? []).some((p) => query.testPlatforms!.includes(p))) return false;
    }
    const latest = latestTestCaseResult(ctx, entity.id);
    if (query.testCaseStatus !== undefined && !query.testCaseStatus.has(latest?.testCaseStatus ?? '')) return false;
    if (query.startTimestamp !== undefined && !(latest && latest.timestamp >= query.startTimestamp)) return false;
    if (query.endTimestamp !== undefined && !(latest && latest.timestamp <= query.endTimestamp)) return false;
    return true;
  };
  const sortKey = TEST_CASE_SORT[query.sortField] ?? TEST_CASE_SORT.name!;
  const items = [...ctx.store.ofType('testCase')].filter(keep);
  items.sort((a, b) => compare(sortKey(ctx, a), sortKey(ctx, b)) || compare(a.entity.fullyQualifiedName, b.entity.fullyQualifiedName));
  if (query.sortDesc) items.reverse();
  return paged(items, query);
}

export interface TestSuiteSearch extends Page {
  q?: string | undefined;
  testSuiteType?: 'basic' | 'logical' | undefined;
  includeEmptyTestSuites: boolean;
  fullyQualifiedName?: string | undefined;
  owner?: string | undefined;
}

/** `GET /v1/dataQuality/testSuites/search/list`: the test suites matching every filter given, by name. */
export function searchTestSuites(ctx: CatalogContext, query: TestSuiteSearch): { items: StoredEntity[]; paging: Paging } {
  const keep = (suite: StoredEntity): boolean => {
    const entity = suite.entity;
    if (!matchesInclude(entity, query.include) || !textMatches(entity, query.q)) return false;
    if (query.testSuiteType === 'basic' && !isBasic(entity)) return false;
    if (query.testSuiteType === 'logical' && isBasic(entity)) return false;
    if (query.fullyQualifiedName !== undefined && entity.fullyQualifiedName !== query.fullyQualifiedName) return false;
    if (query.owner !== undefined && !((entity.owners as EntityReference[] | undefined) ?? []).some((o) => o.name === query.owner)) return false;
    return query.includeEmptyTestSuites || testsOfSuite(ctx, suite).length > 0;
  };
  const items = [...ctx.store.ofType('testSuite')].filter(keep);
  items.sort((a, b) => compare(a.entity.name, b.entity.name) || compare(a.entity.fullyQualifiedName, b.entity.fullyQualifiedName));
  if (query.sortDesc) items.reverse();
  return paged(items, query);
}

// --- data quality report ------------------------------------------------------------------------

interface Level {
  bucketName: string;
  aggType: string;
  field: string;
}

const METRICS: Record<string, (values: number[]) => number> = {
  min: (values) => Math.min(...values),
  max: (values) => Math.max(...values),
  sum: (values) => values.reduce((a, b) => a + b, 0),
  avg: (values) => values.reduce((a, b) => a + b, 0) / values.length,
};

/** `bucketName=status:aggType=terms:field=testCaseResult.testCaseStatus[,…]`: one level per comma. */
function parseAggregationQuery(text: string): Level[] {
  const levels = text.split(',').map((part) => {
    const pairs = new Map<string, string>();
    for (const pair of part.split(':')) {
      const at = pair.indexOf('=');
      if (at > 0) pairs.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const [bucketName, aggType, field] = ['bucketName', 'aggType', 'field'].map((k) => pairs.get(k));
    if (!bucketName || !aggType || !field) throw CatalogError.badRequest(`Invalid aggregationQuery ${part}: expected bucketName=<name>:aggType=<type>:field=<field>`);
    if (aggType !== 'terms' && aggType !== 'cardinality' && !METRICS[aggType])
      throw CatalogError.badRequest(`Unsupported aggType ${aggType}: terms, cardinality, min, max, sum or avg`);
    return { bucketName, aggType, field };
  });
  const firstMetric = levels.findIndex((l) => l.aggType !== 'terms');
  if (firstMetric >= 0 && levels.slice(firstMetric).some((l) => l.aggType === 'terms'))
    throw CatalogError.badRequest('A terms aggregation cannot be nested in a metric aggregation');
  return levels;
}

/** The documents a report reads: test cases with their newest result and test suites, or every test case result. */
function documentsOf(ctx: CatalogContext, index: string): StoredEntity[] {
  const name = index.replace(/_search_index$/, '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  if (name === 'testCase') {
    return [...ctx.store.ofType('testCase')].map((tc) => {
      const testCaseResult = latestTestCaseResult(ctx, tc.entity.id);
      const suites = [...ctx.store.ofType('testSuite')]
        .filter((s) => testsOfSuite(ctx, s).some((t) => t.entity.id === tc.entity.id))
        .map((s) => referenceTo('testSuite', s.entity));
      const link = readEntityLink(tc.entity.entityLink);
      return {
        ...tc,
        entity: {
          ...tc.entity,
          ...(testCaseResult ? { testCaseResult } : {}),
          testSuites: suites,
          originEntityFQN: link?.fqn,
          testCaseType: link?.column === undefined ? 'table' : 'column',
        },
      };
    });
  }
  if (name === 'testSuite') return [...ctx.store.ofType('testSuite')].map((s) => ({ ...s, entity: { ...s.entity, tests: testsField(s, ctx) } }));
  if (name === 'testCaseResult') {
    const out: StoredEntity[] = [];
    for (const tc of ctx.store.ofType('testCase')) {
      for (const result of listTestCaseResults(ctx, tc.entity.id, { now: Number.MAX_SAFE_INTEGER }).data) {
        const entity = {
          ...result,
          id: result.id ?? tc.entity.id,
          name: tc.entity.name,
          fullyQualifiedName: tc.entity.fullyQualifiedName,
          deleted: tc.entity.deleted,
          testCase: referenceTo('testCase', tc.entity),
          testDefinition: tc.entity.testDefinition,
        };
        out.push({ ...tc, entity: entity as unknown as Entity });
      }
    }
    return out;
  }
  throw CatalogError.badRequest(`Unknown index ${index}: testCase, testSuite or testCaseResult`);
}

/** A field's values in a document, as Elasticsearch reads a keyword field (arrays flattened; objects skipped). */
function valuesAt(entity: Entity, field: string): (string | number | boolean)[] {
  let values: unknown[] = [entity];
  for (const segment of field.replace(/\.keyword$/, '').split('.')) {
    values = values.flatMap((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, segment) ? [(v as Record<string, unknown>)[segment]] : [])).flat();
  }
  return values.filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v));
}

/** One report of `POST /v1/dataQuality/testSuites/dataQualityReport/batch`, computed from the store. */
export function dataQualityReport(ctx: CatalogContext, request: DataQualityReportRequest): DataQualityReport {
  const levels = parseAggregationQuery(request.aggregationQuery);
  const filter = compileFilter('q', request.q);
  let documents = documentsOf(ctx, request.index ?? 'testCase').filter((d) => !d.entity.deleted);
  if (filter) documents = documents.filter((stored) => filter({ stored, terms: termsOf(textOf(stored)), agg: [] }));
  if (request.domain !== undefined) {
    documents = documents.filter((d) =>
      ((d.entity.domains as EntityReference[] | undefined) ?? []).some((r) => r.fullyQualifiedName === request.domain || r.id === request.domain),
    );
  }
  const terms = levels.filter((l) => l.aggType === 'terms');
  const metrics = levels.filter((l) => l.aggType !== 'terms');
  const rows: Record<string, string>[] = [];
  const group = (docs: Entity[], at: number, row: Record<string, string>): void => {
    const level = terms[at];
    if (!level) {
      if (docs.length === 0) return;
      const out: Record<string, string> = { ...row, document_count: String(docs.length) };
      for (const metric of metrics) out[metric.field] = metricValue(metric, docs);
      rows.push(out);
      return;
    }
    const buckets = new Map<string, Entity[]>();
    for (const doc of docs) for (const value of new Set(valuesAt(doc, level.field).map(String))) buckets.set(value, [...(buckets.get(value) ?? []), doc]);
    // Elasticsearch's terms order: most documents first, then by key.
    const ordered = [...buckets].sort((a, b) => b[1].length - a[1].length || compare(a[0], b[0]));
    for (const [key, inBucket] of ordered) group(inBucket, at + 1, { ...row, [level.field]: key });
  };
  group(
    documents.map((d) => d.entity),
    0,
    {},
  );
  return {
    metadata: { keys: levels.map((l) => l.bucketName), dimensions: terms.map((l) => l.field), metrics: ['document_count', ...metrics.map((l) => l.field)] },
    data: rows,
  };
}

function metricValue(metric: Level, docs: Entity[]): string {
  const values = docs.flatMap((d) => valuesAt(d, metric.field));
  if (metric.aggType === 'cardinality') return String(new Set(values.map(String)).size);
  const numbers = values.filter((v): v is number => typeof v === 'number');
  return numbers.length ? String(METRICS[metric.aggType]!(numbers)) : '';
}
