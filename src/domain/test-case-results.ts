/**
 * Results of test case runs (OpenMetadata's testCaseResult time series; test-cases.yaml
 * `testCaseResults`): one per test case and timestamp, the newest shown as the test case's
 * `testCaseResult`, read by data-contract validation for its quality expectations. Held per
 * CatalogContext, keyed by test case id, dropped when the test case is hard-deleted.
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { Paging, Schemas } from './entity.ts';
import { checkMillis } from './table-data.ts';
import { timeRange, upsertByTimestamp } from './time-series.ts';
import type { TimeRange } from './time-series.ts';

export type TestCaseResult = Schemas['TestCaseResult'];

const RESULTS = new WeakMap<CatalogContext, Map<string, TestCaseResult[]>>();

function resultsOf(ctx: CatalogContext, testCaseId: string, create: boolean): TestCaseResult[] | undefined {
  let byCase = RESULTS.get(ctx);
  if (!byCase) RESULTS.set(ctx, (byCase = new Map()));
  let list = byCase.get(testCaseId);
  if (!list && create) byCase.set(testCaseId, (list = []));
  return list;
}

/** Stores one run (same timestamp → replaced). Returns the stored result and whether it was new. */
export function addTestCaseResult(ctx: CatalogContext, testCase: StoredEntity, body: TestCaseResult): { result: TestCaseResult; created: boolean } {
  checkMillis(body.timestamp);
  if (testCase.entity.deleted) throw CatalogError.notFound('testCase', testCase.entity.fullyQualifiedName);
  const result: TestCaseResult = { ...structuredClone(body), id: body.id ?? ctx.newId(), testCaseFQN: testCase.entity.fullyQualifiedName };
  const replaced = upsertByTimestamp(resultsOf(ctx, testCase.entity.id, true)!, result, () => true);
  return { result, created: replaced === undefined };
}

export function latestTestCaseResult(ctx: CatalogContext, testCaseId: string): TestCaseResult | undefined {
  const list = resultsOf(ctx, testCaseId, false) ?? [];
  return list[list.length - 1];
}

export function listTestCaseResults(ctx: CatalogContext, testCaseId: string, range: TimeRange): { data: TestCaseResult[]; paging: Paging } {
  return timeRange(resultsOf(ctx, testCaseId, false) ?? [], range);
}

export function dropTestCaseResults(ctx: CatalogContext, testCaseId: string): void {
  RESULTS.get(ctx)?.delete(testCaseId);
}

/** `fields=testCaseResult` on a test case: its newest result. */
export function registerTestCaseResultField(ctx: CatalogContext): void {
  ctx.fieldProviders.set('testCase.testCaseResult', (stored, c) => structuredClone(latestTestCaseResult(c, stored.entity.id)));
}

/** Every stored run, keyed by test case id (admin state export, `--data`). */
export function exportTestCaseResults(ctx: CatalogContext): Record<string, TestCaseResult[]> {
  return Object.fromEntries(structuredClone([...(RESULTS.get(ctx) ?? new Map<string, TestCaseResult[]>())]));
}

/** Replaces all runs with an export (lists in ascending timestamp order, checked by the caller). */
export function importTestCaseResults(ctx: CatalogContext, data: Record<string, TestCaseResult[]>): void {
  RESULTS.set(ctx, new Map(Object.entries(structuredClone(data))));
}

export function clearTestCaseResults(ctx: CatalogContext): void {
  RESULTS.delete(ctx);
}
