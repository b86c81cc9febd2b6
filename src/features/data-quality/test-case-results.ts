/**
 * Results of test case runs (OpenMetadata's testCaseResult time series; test-cases.yaml
 * `testCaseResults`): one per test case and timestamp, the newest shown as the test case's
 * `testCaseResult`, read by data-contract validation for its quality expectations. Held in the
 * store, keyed by test case id, dropped when the test case is hard-deleted.
 */
import { CatalogError } from '../../core/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideSeries } from '../../core/side-data.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Paging, Schemas } from '../../core/entity.ts';
import { checkMillis } from '../table-data/table-data.ts';
import { timeRange, upsertByTimestamp } from '../../core/time-series.ts';
import type { TimeRange } from '../../core/time-series.ts';

export type TestCaseResult = Schemas['TestCaseResult'];

// Kept in the store, beside the test case, keyed by its id, oldest first (`sideData.testCaseResults`).
const RESULTS = sideSeries<TestCaseResult>({ group: 'testCaseResults', owner: 'testCase', schema: 'TestCaseResult' });

/** Stores one run (same timestamp → replaced). Returns the stored result and whether it was new. */
export function addTestCaseResult(ctx: CatalogContext, testCase: StoredEntity, body: TestCaseResult): { result: TestCaseResult; created: boolean } {
  checkMillis(body.timestamp);
  if (testCase.entity.deleted) throw CatalogError.notFound('testCase', testCase.entity.fullyQualifiedName);
  const result: TestCaseResult = { ...structuredClone(body), id: body.id ?? ctx.newId(), testCaseFQN: testCase.entity.fullyQualifiedName };
  const list = [...(ctx.store.getSide(RESULTS, testCase.entity.id) ?? [])];
  const replaced = upsertByTimestamp(list, result, () => true);
  ctx.store.setSide(RESULTS, testCase.entity.id, list);
  return { result, created: replaced === undefined };
}

export function latestTestCaseResult(ctx: CatalogContext, testCaseId: string): TestCaseResult | undefined {
  return ctx.store.getSide(RESULTS, testCaseId)?.at(-1);
}

export function listTestCaseResults(ctx: CatalogContext, testCaseId: string, range: TimeRange): { data: TestCaseResult[]; paging: Paging } {
  return timeRange(ctx.store.getSide(RESULTS, testCaseId) ?? [], range);
}

/** A `testCaseStatus` filter, given once or repeated (OpenMetadata 2.0 binds a list); none: no filter. */
export function testCaseStatuses(value: unknown): ReadonlySet<string> | undefined {
  const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v !== '');
  return values.length ? new Set(values) : undefined;
}
