/**
 * Data quality routes of OpenMetadata's UI beyond the generic test case and test suite routes
 * (data-quality.yaml; docs/behaviour.md "Data quality"): the search lists, logical test suite
 * membership, the basic suite of a table, the batched data quality report, the dimension results
 * of a test case and its failed rows sample. Registered before the generic entity routes.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import {
  addToLogicalSuite,
  dataQualityReport,
  deleteFailedRowsSample,
  dimensionResultsOf,
  failedRowsSampleOf,
  removeFromLogicalSuite,
  searchTestCases,
  searchTestSuites,
  setFailedRowsSample,
} from './data-quality.ts';
import type { DataQualityReportRequest, Page } from './data-quality.ts';
import type { CreateRequest } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { createEntity } from '../../core/lifecycle.ts';
import { parseFields } from '../../core/projection.ts';
import type { TableData } from '../table-data/table-data.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findByFqn, findById, pathParam, queryBool, queryInclude, queryInt, queryValue, renderFor } from '../../http/request-helpers.ts';
import { queryTimestamp } from '../table-data/table-data-routes.ts';
import { testCaseStatuses } from './test-case-results.ts';

const text = (req: ApiRequest, name: string): string | undefined => {
  const value = queryValue(req, name);
  return value === undefined || value === '' ? undefined : String(value);
};
const list = (req: ApiRequest, name: string): string[] | undefined =>
  text(req, name)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const pageOf = (req: ApiRequest): Page => ({
  offset: queryInt(req, 'offset', 0),
  limit: queryInt(req, 'limit', 10),
  include: queryInclude(req),
  sortDesc: text(req, 'sortType') === 'desc',
});

export function mountDataQualityRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const [TEST_CASE, TEST_SUITE] = [ctx.kinds.of('testCase'), ctx.kinds.of('testSuite')];
  const cases = '/api/v1/dataQuality/testCases';
  const suites = '/api/v1/dataQuality/testSuites';
  const user = (req: ApiRequest) => identityOf(req).user;

  router.get(`${cases}/search/list`, (req, reply) => {
    const fields = parseFields(ctx, TEST_CASE, queryValue(req, 'fields'));
    const { items, paging } = searchTestCases(ctx, {
      ...pageOf(req),
      q: text(req, 'q'),
      entityLink: text(req, 'entityLink'),
      includeAllTests: queryBool(req, 'includeAllTests'),
      testSuiteId: text(req, 'testSuiteId'),
      testCaseStatus: testCaseStatuses((req.query as Record<string, unknown>).testCaseStatus),
      testCaseType: text(req, 'testCaseType') as 'all' | 'table' | 'column' | undefined,
      testPlatforms: list(req, 'testPlatforms'),
      serviceName: text(req, 'serviceName'),
      tags: list(req, 'tags'),
      startTimestamp: queryTimestamp(req, 'startTimestamp'),
      endTimestamp: queryTimestamp(req, 'endTimestamp'),
      sortField: text(req, 'sortField') ?? 'name',
    });
    reply.json({ data: items.map((s) => renderFor(ctx, TEST_CASE, req, s, fields)), paging });
  });

  router.get(`${suites}/search/list`, (req, reply) => {
    const fields = parseFields(ctx, TEST_SUITE, queryValue(req, 'fields'));
    const { items, paging } = searchTestSuites(ctx, {
      ...pageOf(req),
      q: text(req, 'q'),
      testSuiteType: text(req, 'testSuiteType') as 'basic' | 'logical' | undefined,
      includeEmptyTestSuites: text(req, 'includeEmptyTestSuites') !== 'false',
      fullyQualifiedName: text(req, 'fullyQualifiedName'),
      owner: text(req, 'owner'),
    });
    reply.json({ data: items.map((s) => renderFor(ctx, TEST_SUITE, req, s, fields)), paging });
  });

  // Both add in one atomic step (the route's write is undone when it throws).
  for (const path of [`${cases}/logicalTestCases`, `${cases}/logicalTestCases/bulk`]) {
    router.put(path, (req, reply) => {
      const body = req.body as { testSuiteId: string; testCaseIds: string[] };
      const suite = addToLogicalSuite(ctx, body.testSuiteId, body.testCaseIds);
      reply.json(renderFor(ctx, TEST_SUITE, req, suite));
    });
  }

  router.delete(`${cases}/logicalTestCases/:testSuiteId/:id`, (req, reply) => {
    const testCase = removeFromLogicalSuite(ctx, pathParam(req, 'testSuiteId'), pathParam(req, 'id'));
    reply.json(renderFor(ctx, TEST_CASE, req, testCase));
  });

  router.post(`${suites}/basic`, (req, reply) => {
    const stored = createEntity(ctx, TEST_SUITE, req.body as CreateRequest, user(req));
    const body = renderFor(ctx, TEST_SUITE, req, stored);
    reply.status(201).location(String(body.href)).json(body);
  });

  // One failing request answers its error in place; the others are computed all the same.
  router.post(`${suites}/dataQualityReport/batch`, (req, reply) => {
    const { requests } = req.body as { requests: DataQualityReportRequest[] };
    const results = requests.map((request) => {
      try {
        return { key: request.key, report: dataQualityReport(ctx, request) };
      } catch (error) {
        if (error instanceof CatalogError) return { key: request.key, error: error.message };
        throw error;
      }
    });
    reply.json({ results });
  });

  router.get(`${cases}/dimensionResults/:fqn`, (req, reply) => {
    const stored = findByFqn(ctx, TEST_CASE, pathParam(req, 'fqn'), 'non-deleted');
    const range = { startTs: queryTimestamp(req, 'startTs'), endTs: queryTimestamp(req, 'endTs'), now: ctx.now() };
    reply.json(dimensionResultsOf(ctx, stored, range, text(req, 'dimensionalityKey')));
  });

  const testCase = (req: ApiRequest) => findById(ctx, TEST_CASE, pathParam(req, 'id'), 'non-deleted');
  router.put(`${cases}/:id/failedRowsSample`, (req, reply) => {
    const stored = testCase(req);
    const failedRowsSample = setFailedRowsSample(ctx, stored, req.body as TableData);
    reply.json({ ...renderFor(ctx, TEST_CASE, req, stored), failedRowsSample });
  });
  router.get(`${cases}/:id/failedRowsSample`, (req, reply) => {
    const stored = testCase(req);
    const data = failedRowsSampleOf(ctx, stored.entity.id);
    if (!data) throw new CatalogError('notFound', `Failed rows sample for test case ${stored.entity.id} not found`);
    reply.json(data);
  });
  router.delete(`${cases}/:id/failedRowsSample`, (req, reply) => {
    const stored = testCase(req);
    deleteFailedRowsSample(ctx, stored);
    reply.json(renderFor(ctx, TEST_CASE, req, stored));
  });
}
