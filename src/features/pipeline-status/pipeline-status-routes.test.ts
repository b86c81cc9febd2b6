import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';

const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

async function pipeline(c: TestApp): Promise<Body> {
  const svc = await c.create('services/pipelineServices', { name: c.unique('airflow'), serviceType: 'Airflow', connection: { config: { type: 'Airflow' } } });
  return c.create('pipelines', { name: c.unique('etl'), service: svc.fullyQualifiedName, tasks: [{ name: 'extract' }, { name: 'load' }] });
}

describe.each(['contract', 'openmetadata'] as const)('pipeline status, profile %s (docs/behaviour.md "Pipeline status")', (profile) => {
  it('PUT stores runs (same timestamp replaces), answers the newest as pipelineStatus; GET lists a range newest first; DELETE removes one', async () => {
    const c = apps[profile];
    const p = await pipeline(c);
    const path = `/api/v1/pipelines/${encodeURIComponent(String(p.fullyQualifiedName))}/status`;
    const runs = [
      { timestamp: T0 - 3000, executionStatus: 'Failed', taskStatus: [{ name: 'extract', executionStatus: 'Failed' }] },
      { timestamp: T0 - 1000, executionStatus: 'Running' },
      { timestamp: T0 - 2000, executionStatus: 'Successful' },
      { timestamp: T0 - 1000, executionStatus: 'Successful' },
    ];
    const answers = [];
    for (const run of runs) answers.push((await c.put(path, run).expect(200)).body.pipelineStatus);
    expect(answers.map((s: Body) => [s.timestamp, s.executionStatus])).toEqual([
      [T0 - 3000, 'Failed'],
      [T0 - 1000, 'Running'],
      [T0 - 1000, 'Running'],
      [T0 - 1000, 'Successful'],
    ]);
    const given = [
      { range: `startTs=0&endTs=${T0}`, want: [T0 - 1000, T0 - 2000, T0 - 3000] },
      { range: `startTs=${T0 - 2500}&endTs=${T0 - 1500}`, want: [T0 - 2000] },
      { range: `startTs=${T0}&endTs=${T0 + 1}`, want: [] },
    ];
    for (const g of given) {
      const res = await c.get(`${path}?${g.range}`).expect(200);
      expect({ range: g.range, got: res.body.data.map((s: Body) => s.timestamp) }).toEqual({ range: g.range, got: g.want });
    }
    expect((await c.get(`/api/v1/pipelines/${p.id}?fields=pipelineStatus`).expect(200)).body).toMatchObject({ pipelineStatus: { timestamp: T0 - 1000 }, version: p.version });
    const del = await c.delete(`${path}/${T0 - 1000}`).expect(200);
    expect(del.body.pipelineStatus.timestamp).toBe(T0 - 2000);
    await c.delete(`${path}/${T0 - 1000}`).expect(404);
  });

  it('refuses an unknown task, a timestamp in seconds, a missing range, an unknown pipeline (given request, want status)', async () => {
    const c = apps[profile];
    const p = await pipeline(c);
    const path = `/api/v1/pipelines/${encodeURIComponent(String(p.fullyQualifiedName))}/status`;
    const given = [
      {
        method: 'put',
        path,
        body: { timestamp: T0, executionStatus: 'Failed', taskStatus: [{ name: 'ghost', executionStatus: 'Failed' }] },
        status: 400,
        message: 'Invalid task name ghost',
      },
      { method: 'put', path, body: { timestamp: 1_763_683_200, executionStatus: 'Failed' }, status: 400 },
      { method: 'put', path, body: { timestamp: T0, executionStatus: 'Exploded' }, status: 400 },
      { method: 'get', path: `${path}?startTs=0`, status: 400 },
      { method: 'put', path: '/api/v1/pipelines/nowhere.etl/status', body: { timestamp: T0, executionStatus: 'Failed' }, status: 404 },
      { method: 'get', path: `/api/v1/pipelines/nowhere.etl/status?startTs=0&endTs=1`, status: 404 },
    ] as const;
    for (const g of given) {
      const res = g.method === 'put' ? await c.put(g.path, g.body) : await c.get(g.path);
      const message = 'message' in g ? (res.body as Body).message : undefined;
      expect({ path: g.path, status: res.status, message }).toEqual({ path: g.path, status: g.status, message: 'message' in g ? g.message : undefined });
    }
    expect((await c.get(`${path}?startTs=0&endTs=${T0}`).expect(200)).body.data).toEqual([]);
  });
});
