/**
 * `PUT` / `GET /v1/dataQuality/testCases/testCaseResults/{fqn}` (test-cases.yaml; OpenMetadata's
 * test case result endpoints): record runs of a test case and read them back newest first.
 * Registered before the generic entity routes.
 */
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { TestCaseResult } from './test-case-results.ts';
import { addTestCaseResult, listTestCaseResults } from './test-case-results.ts';
import { findByFqn, pathParam } from '../../http/request-helpers.ts';
import { queryTimestamp } from '../table-data/table-data-routes.ts';

export function mountTestCaseResultRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const TEST_CASE = ctx.kinds.of('testCase');
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
