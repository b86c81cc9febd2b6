/**
 * `PUT` / `GET /v1/dataQuality/testCases/testCaseResults/{fqn}` (test-cases.yaml; OpenMetadata's
 * test case result endpoints): record runs of a test case and read them back newest first.
 * Registered before the generic entity routes.
 */
import type { OperationRoutes } from '../http/operation-routes.ts';
import type { CatalogContext } from '../domain/context.ts';
import type { TestCaseResult } from '../domain/test-case-results.ts';
import { addTestCaseResult, listTestCaseResults } from '../domain/test-case-results.ts';
import { testCase as TEST_CASE } from '../kinds/test-case.ts';
import { findByFqn, pathParam } from './request-helpers.ts';
import { queryTimestamp } from './table-data-routes.ts';

export function mountTestCaseResultRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const path = '/api/v1/dataQuality/testCases/testCaseResults/:fqn';

  router.put(path, (req, reply) => {
    const testCase = findByFqn(ctx, TEST_CASE, pathParam(req, 'fqn'), 'non-deleted');
    const { result } = addTestCaseResult(ctx, testCase, req.body as TestCaseResult);
    reply.json(result);
  });

  router.get(path, (req, reply) => {
    const testCase = findByFqn(ctx, TEST_CASE, pathParam(req, 'fqn'), 'non-deleted');
    reply.json(listTestCaseResults(ctx, testCase.entity.id, { startTs: queryTimestamp(req, 'startTs'), endTs: queryTimestamp(req, 'endTs'), now: ctx.now() }));
  });
}
