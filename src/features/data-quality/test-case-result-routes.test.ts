import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

let c: TestApp;
beforeAll(async () => {
  c = await startApp({ at: T0 });
  c.clock.now = T0 + 60_000;
  await c.put('/api/v1/dataQuality/testDefinitions', { name: 'tableRowCountToBeBetween', entityType: 'TABLE', testPlatforms: ['OpenMetadata'] }).expect(201);
}, SLOW_START);

async function testCase(): Promise<string> {
  const t = await createTable(c);
  const res = await c.post('/api/v1/dataQuality/testCases', { name: 'rows', entityLink: `<#E::table::${t.fqn}>`, testDefinition: 'tableRowCountToBeBetween' }).expect(201);
  return encodeURIComponent(res.body.fullyQualifiedName as string);
}

describe('test case results (test-cases.yaml testCaseResults)', () => {
  it('stores runs, lists them newest first in [startTs, endTs], shows the newest as testCaseResult', async () => {
    const fqn = await testCase();
    for (const [ts, status] of [
      [T0 + 1000, 'Success'],
      [T0 + 3000, 'Failed'],
      [T0 + 2000, 'Aborted'],
    ] as const) {
      const res = await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: ts, testCaseStatus: status }).expect(200);
      expect(res.body).toMatchObject({ timestamp: ts, testCaseStatus: status, testCaseFQN: decodeURIComponent(fqn) });
    }
    const list = await c.get(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`).expect(200);
    expect(list.body.data.map((r: { testCaseStatus: string }) => r.testCaseStatus)).toEqual(['Failed', 'Aborted', 'Success']);
    expect(list.body.paging.total).toBe(3);
    const window = await c.get(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}?startTs=${T0 + 1500}&endTs=${T0 + 2500}`).expect(200);
    expect(window.body.data.map((r: { timestamp: number }) => r.timestamp)).toEqual([T0 + 2000]);
    const tc = await c.get(`/api/v1/dataQuality/testCases/name/${fqn}?fields=testCaseResult`).expect(200);
    expect(tc.body.testCaseResult).toMatchObject({ timestamp: T0 + 3000, testCaseStatus: 'Failed' });
    expect(tc.body.version).toBe(0.1);
  });

  it('a run with the same timestamp replaces the stored one', async () => {
    const fqn = await testCase();
    await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: T0, testCaseStatus: 'Failed' }).expect(200);
    await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: T0, testCaseStatus: 'Success' }).expect(200);
    const list = await c.get(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`).expect(200);
    expect(list.body.data.map((r: { testCaseStatus: string }) => r.testCaseStatus)).toEqual(['Success']);
  });

  it('bad input: unknown test case 404, unknown status 400, timestamp in seconds 400', async () => {
    const fqn = await testCase();
    await c.put('/api/v1/dataQuality/testCases/testCaseResults/no.such.case', { timestamp: T0, testCaseStatus: 'Success' }).expect(404);
    await c.get('/api/v1/dataQuality/testCases/testCaseResults/no.such.case').expect(404);
    await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: T0, testCaseStatus: 'Great' }).expect(400);
    const seconds = await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: 1_763_683_200, testCaseStatus: 'Success' }).expect(400);
    expect(seconds.body.message).toBe('Timestamp 1763683200 is not valid, it should be in milliseconds since epoch');
  });

  it('roles: 401 without a token, 403 for a DataConsumer writing, 200 reading', async () => {
    const fqn = await testCase();
    await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: T0, testCaseStatus: 'Success' }, '').expect(401);
    await c.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, { timestamp: T0, testCaseStatus: 'Success' }, c.tokens.consumer).expect(403);
    await c.get(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, c.tokens.consumer).expect(200);
  });
});
