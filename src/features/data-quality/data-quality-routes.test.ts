import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

let c: TestApp;
beforeAll(async () => {
  c = await startApp({ at: T0 });
  c.clock.now = T0 + 60_000;
  await c.put('/api/v1/dataQuality/testDefinitions', { name: 'tableRowCountToBeBetween', entityType: 'TABLE', testPlatforms: ['OpenMetadata'] }).expect(201);
  await c.put('/api/v1/dataQuality/testDefinitions', { name: 'columnValuesToBeNotNull', entityType: 'COLUMN', testPlatforms: ['DBT'] }).expect(201);
}, SLOW_START);

const CASES = '/api/v1/dataQuality/testCases';
const SUITES = '/api/v1/dataQuality/testSuites';

/** A table with a table test `rows` and a column test `ids` (on order_id), each with a result. */
async function tableWithTests(statuses: [string, string] = ['Success', 'Failed']): Promise<{ fqn: string; id: string; rows: Body; ids: Body }> {
  const t = await createTable(c);
  const rows = (await c.post(CASES, { name: 'rows', entityLink: `<#E::table::${t.fqn}>`, testDefinition: 'tableRowCountToBeBetween' }).expect(201)).body as Body;
  const ids = (await c.post(CASES, { name: 'ids', entityLink: `<#E::table::${t.fqn}::columns::order_id>`, testDefinition: 'columnValuesToBeNotNull' }).expect(201)).body as Body;
  for (const [tc, status, ts] of [
    [rows, statuses[0], T0 + 1000],
    [ids, statuses[1], T0 + 2000],
  ] as const) {
    await c.put(`${CASES}/testCaseResults/${encodeURIComponent(String(tc.fullyQualifiedName))}`, { timestamp: ts, testCaseStatus: status }).expect(200);
  }
  return { fqn: t.fqn, id: t.id, rows, ids };
}

const names = (res: { body: { data: Body[] } }) => res.body.data.map((e) => e.name);

describe('test case search list (data-quality.yaml testCasesSearch)', () => {
  it('filters by entity link, type, status, platform and text, with offset paging', async () => {
    const t = await tableWithTests();
    const link = encodeURIComponent(`<#E::table::${t.fqn}>`);
    const cases: [string, string[]][] = [
      // given the query, want the test case names (sorted by name)
      [`entityLink=${link}`, ['rows']],
      [`entityLink=${link}&includeAllTests=true`, ['ids', 'rows']],
      [`entityLink=${link}&includeAllTests=true&testCaseType=column`, ['ids']],
      [`entityLink=${link}&includeAllTests=true&testCaseStatus=Failed`, ['ids']],
      [`entityLink=${link}&includeAllTests=true&testPlatforms=OpenMetadata`, ['rows']],
      [`entityLink=${link}&includeAllTests=true&q=ROW`, ['rows']],
      [`entityLink=${link}&includeAllTests=true&startTimestamp=${T0 + 1500}`, ['ids']],
      [`entityLink=${link}&includeAllTests=true&sortType=desc`, ['rows', 'ids']],
      [`entityLink=${link}&includeAllTests=true&sortField=testCaseResult.timestamp&sortType=desc`, ['ids', 'rows']],
    ];
    for (const [query, want] of cases) {
      const res = await c.get(`${CASES}/search/list?${query}`).expect(200);
      expect(names(res), query).toEqual(want);
    }
    const page = await c.get(`${CASES}/search/list?entityLink=${link}&includeAllTests=true&limit=1&offset=1`).expect(200);
    expect(names(page)).toEqual(['rows']);
    expect(page.body.paging).toEqual({ offset: 1, limit: 1, total: 2 });
  });

  it('testCaseStatus takes several values, repeated, on the search list and the list; an unknown one is 400 (OpenMetadata 2.0)', async () => {
    const t = await tableWithTests(['Aborted', 'Failed']);
    const link = encodeURIComponent(`<#E::table::${t.fqn}>`);
    const search = await c.get(`${CASES}/search/list?entityLink=${link}&includeAllTests=true&testCaseStatus=Failed&testCaseStatus=Aborted`).expect(200);
    expect(names(search)).toEqual(['ids', 'rows']);
    const list = await c.get(`${CASES}?entityLink=${link}&testCaseStatus=Aborted&testCaseStatus=Success&limit=1000`).expect(200);
    expect(names(list)).toContain('rows');
    expect(list.body.data.every((tc: Body) => tc.name !== 'ids' || tc.entityLink !== `<#E::table::${t.fqn}::columns::order_id>`)).toBe(true);
    for (const path of [`${CASES}?testCaseStatus=Broken`, `${CASES}/search/list?testCaseStatus=Failed&testCaseStatus=Broken`]) {
      const res = await c.get(path).expect(400);
      expect(res.body.message, path).toMatch(/testCaseStatus/);
    }
  });

  it('fields=testCaseResult shows the newest result; a bad entity link is 400', async () => {
    const t = await tableWithTests();
    const res = await c.get(`${CASES}/search/list?entityLink=${encodeURIComponent(`<#E::table::${t.fqn}>`)}&fields=testCaseResult`).expect(200);
    expect(res.body.data[0].testCaseResult).toMatchObject({ testCaseStatus: 'Success', timestamp: T0 + 1000 });
    await c.get(`${CASES}/search/list?entityLink=orders`).expect(400);
  });
});

describe('basic and logical test suites (data-quality.yaml basicTestSuite, logicalTestCases)', () => {
  it("a basic suite is its table's: FQN <table>.testSuite, tests its test cases, one per table", async () => {
    const t = await tableWithTests();
    const res = await c.post(`${SUITES}/basic`, { name: `${t.fqn}.testSuite`, basicEntityReference: t.fqn }).expect(201);
    expect(res.body).toMatchObject({ fullyQualifiedName: `${t.fqn}.testSuite`, basic: true, basicEntityReference: { id: t.id, type: 'table' } });
    expect(res.headers.location).toBe(res.body.href);
    const got = await c.get(`${SUITES}/${res.body.id}?fields=tests`).expect(200);
    expect(got.body.tests.map((r: Body) => r.name).sort()).toEqual(['ids', 'rows']);
    await c.post(`${SUITES}/basic`, { name: `${t.fqn}.testSuite`, basicEntityReference: t.fqn }).expect(409);
    await c.post(`${SUITES}/basic`, { name: 'x', basicEntityReference: 'svc.db.sch.no_such_table' }).expect(404);
    // Adding to a basic suite is refused.
    const refused = await c.put(`${CASES}/logicalTestCases`, { testSuiteId: res.body.id, testCaseIds: [t.rows.id] }).expect(400);
    expect(refused.body.message).toBe('You are trying to add test cases to a basic test suite.');
  });

  it('adds test cases to a logical suite, lists them, removes one; search/list by suite and type', async () => {
    const t = await tableWithTests();
    const suite = (await c.post(SUITES, { name: c.unique('critical') }).expect(201)).body as Body;
    const cases: [string, Body, number][] = [
      // given the call, its body, want status
      ['logicalTestCases', { testSuiteId: suite.id, testCaseIds: [t.rows.id] }, 200],
      ['logicalTestCases/bulk', { testSuiteId: suite.id, testCaseIds: [t.rows.id, t.ids.id] }, 200],
      ['logicalTestCases', { testSuiteId: suite.id, testCaseIds: ['00000000-0000-4000-8000-000000000000'] }, 404],
      ['logicalTestCases', { testSuiteId: '00000000-0000-4000-8000-000000000000', testCaseIds: [t.rows.id] }, 404],
      ['logicalTestCases', { testSuiteId: suite.id }, 400],
    ];
    for (const [path, body, status] of cases) await c.put(`${CASES}/${path}`, body).expect(status);
    const got = await c.get(`${SUITES}/${suite.id}?fields=tests`).expect(200);
    expect(got.body.tests.map((r: Body) => r.id).sort()).toEqual([t.rows.id, t.ids.id].sort());
    const inSuite = await c.get(`${CASES}/search/list?testSuiteId=${suite.id}`).expect(200);
    expect(names(inSuite)).toEqual(['ids', 'rows']);

    const removed = await c.delete(`${CASES}/logicalTestCases/${suite.id}/${t.ids.id}`).expect(200);
    expect(removed.body.id).toBe(t.ids.id);
    await c.delete(`${CASES}/logicalTestCases/${suite.id}/${t.ids.id}`).expect(404);
    await c.get(`${CASES}/${t.ids.id}`).expect(200);
    expect((await c.get(`${SUITES}/${suite.id}?fields=tests`)).body.tests.map((r: Body) => r.id)).toEqual([t.rows.id]);

    const logical = await c.get(`${SUITES}/search/list?testSuiteType=logical&fullyQualifiedName=${encodeURIComponent(String(suite.fullyQualifiedName))}&fields=tests`).expect(200);
    expect(logical.body.data.map((s: Body) => s.id)).toEqual([suite.id]);
    expect(logical.body.paging.total).toBe(1);
    await c.get(`${SUITES}/search/list?testSuiteType=basic&fullyQualifiedName=${encodeURIComponent(String(suite.fullyQualifiedName))}`).expect(200, /"total":0/);
    // A test case removed for good leaves the suite.
    await c.delete(`${CASES}/${t.rows.id}?hardDelete=true`).expect((r) => expect([200, 204]).toContain(r.status));
    expect((await c.get(`${SUITES}/${suite.id}?fields=tests`)).body.tests).toEqual([]);
    const empty = await c.get(`${SUITES}/search/list?includeEmptyTestSuites=false&fullyQualifiedName=${encodeURIComponent(String(suite.fullyQualifiedName))}`).expect(200);
    expect(empty.body.paging.total).toBe(0);
  });

  it('roles: a DataConsumer may search but not change membership', async () => {
    const t = await tableWithTests();
    const suite = (await c.post(SUITES, { name: c.unique('consumer') }).expect(201)).body as Body;
    await c.put(`${CASES}/logicalTestCases`, { testSuiteId: suite.id, testCaseIds: [t.rows.id] }, c.tokens.consumer).expect(403);
    await c.get(`${SUITES}/search/list`, c.tokens.consumer).expect(200);
    await c.get(`${CASES}/search/list`, '').expect(401);
  });
});

describe('data quality report batch (data-quality.yaml dataQualityReportBatch)', () => {
  it('computes terms buckets with document counts from stored results; a bad request errors alone', async () => {
    const t = await tableWithTests(['Failed', 'Failed']);
    const q = JSON.stringify({ query: { bool: { must: [{ term: { originEntityFQN: t.fqn } }] } } });
    const res = await c
      .post(`${SUITES}/dataQualityReport/batch`, {
        requests: [
          { key: 'byStatus', index: 'testCase', q, aggregationQuery: 'bucketName=status:aggType=terms:field=testCaseResult.testCaseStatus' },
          { key: 'byType', index: 'testCase', q, aggregationQuery: 'bucketName=type:aggType=terms:field=testCaseType,bucketName=n:aggType=cardinality:field=name' },
          { key: 'bad', index: 'testCase', aggregationQuery: 'bucketName=x:aggType=percentiles:field=name' },
          { key: 'badIndex', index: 'table', aggregationQuery: 'bucketName=x:aggType=terms:field=name' },
        ],
      })
      .expect(200);
    const [byStatus, byType, bad, badIndex] = res.body.results as Body[];
    expect(byStatus).toEqual({
      key: 'byStatus',
      report: {
        metadata: { keys: ['status'], dimensions: ['testCaseResult.testCaseStatus'], metrics: ['document_count'] },
        data: [{ 'testCaseResult.testCaseStatus': 'Failed', document_count: '2' }],
      },
    });
    expect((byType!.report as Body).data).toEqual([
      { testCaseType: 'column', document_count: '1', name: '1' },
      { testCaseType: 'table', document_count: '1', name: '1' },
    ]);
    expect(bad).toMatchObject({ key: 'bad', error: expect.stringContaining('percentiles') });
    expect(badIndex).toMatchObject({ key: 'badIndex', error: expect.stringContaining('Unknown index') });
    // A DataConsumer may read reports.
    await c.post(`${SUITES}/dataQualityReport/batch`, { requests: [] }, c.tokens.consumer).expect(200, { results: [] });
  });
});

describe('failed rows sample (data-quality.yaml failedRowsSample)', () => {
  it('a failed test case stores, shows and deletes its sample; others are refused', async () => {
    const t = await tableWithTests(['Success', 'Failed']);
    const sample = { columns: ['order_id'], rows: [[null], [null]] };
    await c.get(`${CASES}/${t.ids.id}/failedRowsSample`).expect(404);
    const put = await c.put(`${CASES}/${t.ids.id}/failedRowsSample`, sample).expect(200);
    expect(put.body).toMatchObject({ id: t.ids.id, failedRowsSample: sample });
    await c.get(`${CASES}/${t.ids.id}/failedRowsSample`).expect(200, sample);
    const cases: [string, Body, number, string?][] = [
      // given the test case, the body, want status and message
      [String(t.rows.id), sample, 400, 'Failed rows can only be added to a failed test case.'],
      [String(t.ids.id), { columns: ['order_id'], rows: [[1, 2]] }, 400, 'Number of columns is 1 but row has 2 sample values'],
      ['00000000-0000-4000-8000-000000000000', sample, 404],
    ];
    for (const [id, body, status, message] of cases) {
      const res = await c.put(`${CASES}/${id}/failedRowsSample`, body).expect(status);
      if (message) expect(res.body.message).toBe(message);
    }
    const deleted = await c.delete(`${CASES}/${t.ids.id}/failedRowsSample`).expect(200);
    expect(deleted.body.failedRowsSample).toBeUndefined();
    await c.get(`${CASES}/${t.ids.id}/failedRowsSample`).expect(404);
    await c.delete(`${CASES}/${t.ids.id}/failedRowsSample`).expect(404);
  });
});

describe('dimension results (data-quality.yaml dimensionResults)', () => {
  it('lists the dimension results of the runs in a range, newest run first, filtered by dimension', async () => {
    const t = await tableWithTests();
    const fqn = encodeURIComponent(String(t.ids.fullyQualifiedName));
    const dims = (status: string, region: string) => ({ dimensionValues: [{ name: 'region', value: region }], testCaseStatus: status, failedRows: status === 'Failed' ? 3 : 0 });
    await c.put(`${CASES}/testCaseResults/${fqn}`, { timestamp: T0 + 3000, testCaseStatus: 'Failed', dimensionResults: [dims('Success', 'EU'), dims('Failed', 'US')] }).expect(200);
    await c
      .put(`${CASES}/testCaseResults/${fqn}`, {
        timestamp: T0 + 4000,
        testCaseStatus: 'Success',
        dimensionResults: [
          dims('Success', 'EU'),
          {
            dimensionValues: [
              { name: 'region', value: 'EU' },
              { name: 'channel', value: 'web' },
            ],
            testCaseStatus: 'Success',
          },
        ],
      })
      .expect(200);
    const cases: [string, [string, number][]][] = [
      // given the query, want [dimensionKey, timestamp] in order
      [
        '',
        [
          ['region=EU', T0 + 4000],
          ['region=EU,channel=web', T0 + 4000],
          ['region=EU', T0 + 3000],
          ['region=US', T0 + 3000],
        ],
      ],
      [
        `?startTs=${T0 + 3500}`,
        [
          ['region=EU', T0 + 4000],
          ['region=EU,channel=web', T0 + 4000],
        ],
      ],
      [
        '?dimensionalityKey=region',
        [
          ['region=EU', T0 + 4000],
          ['region=EU', T0 + 3000],
          ['region=US', T0 + 3000],
        ],
      ],
      ['?dimensionalityKey=region,channel', [['region=EU,channel=web', T0 + 4000]]],
    ];
    for (const [query, want] of cases) {
      const res = await c.get(`${CASES}/dimensionResults/${fqn}${query}`).expect(200);
      expect(
        res.body.data.map((d: Body) => [d.dimensionKey, d.timestamp]),
        query,
      ).toEqual(want);
      expect(res.body.paging.total).toBe(want.length);
    }
    const us = (await c.get(`${CASES}/dimensionResults/${fqn}?dimensionalityKey=region&endTs=${T0 + 3500}`)).body.data[1] as Body;
    expect(us).toMatchObject({ testCaseStatus: 'Failed', failedRows: 3, testCaseResultId: expect.any(String) });
    await c.get(`${CASES}/dimensionResults/no.such.case`).expect(404);
  });
});
