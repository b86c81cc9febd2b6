import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

async function tags(c: TestApp, mutuallyExclusive = false): Promise<{ first: Body; second: Body }> {
  const classification = await c.create('classifications', { name: c.unique('Tier'), description: 'x', mutuallyExclusive });
  const first = await c.create('tags', { name: 'One', classification: classification.name, description: 'x' });
  const second = await c.create('tags', { name: 'Two', classification: classification.name, description: 'x' });
  return { first, second };
}

const labels = async (c: TestApp, id: string): Promise<unknown[]> => ((await c.get(`/api/v1/tables/${id}?fields=tags`).expect(200)).body.tags as Body[]).map((t) => t.tagFQN);

describe.each(['contract', 'openmetadata'] as const)('tag assets, profile %s (docs/behaviour.md "Tag assets")', (profile) => {
  it('add labels each asset (a new version), remove unlabels it; dryRun (the default) changes nothing', async () => {
    const c = apps[profile];
    const { first } = await tags(c);
    const t = await createTable(c);
    const u = await createTable(c);
    const assets = [
      { id: t.id, type: 'table' },
      { id: u.id, type: 'table' },
    ];
    const dry = await c.put(`/api/v1/tags/${first.id}/assets/add`, { assets }).expect(200);
    expect(dry.body).toMatchObject({ dryRun: true, status: 'success', numberOfRowsProcessed: 2, numberOfRowsPassed: 2, numberOfRowsFailed: 0 });
    expect(await labels(c, t.id)).toEqual([]);

    const added = await c.put(`/api/v1/tags/${first.id}/assets/add`, { assets, dryRun: false }).expect(200);
    expect(added.body).toMatchObject({
      dryRun: false,
      status: 'success',
      numberOfRowsPassed: 2,
      successRequest: [
        { request: assets[0], status: 200 },
        { request: assets[1], status: 200 },
      ],
    });
    expect(await labels(c, t.id)).toEqual([first.fullyQualifiedName]);
    expect((await c.get(`/api/v1/tables/${u.id}`).expect(200)).body.version).toBe(0.2);

    await c.put(`/api/v1/tags/${first.id}/assets/remove`, { assets: [assets[0]], dryRun: false }).expect(200);
    expect(await labels(c, t.id)).toEqual([]);
    expect(await labels(c, u.id)).toEqual([first.fullyQualifiedName]);
  });

  it('reports each asset that fails and changes only the others (given assets, want status and failures)', async () => {
    const c = apps[profile];
    const { first, second } = await tags(c, true);
    const t = await createTable(c);
    const other = await createTable(c);
    await c.put(`/api/v1/tags/${second.id}/assets/add`, { assets: [{ id: other.id, type: 'table' }], dryRun: false }).expect(200);
    const given = [
      { assets: [{ id: MISSING, type: 'table' }], status: 'failure', failed: [404] },
      { assets: [{ id: t.id, type: 'dashboard' }], status: 'failure', failed: [404] },
      {
        assets: [
          { id: other.id, type: 'table' },
          { id: t.id, type: 'table' },
        ],
        status: 'partialSuccess',
        failed: [400],
      },
    ];
    for (const g of given) {
      const res = await c.put(`/api/v1/tags/${first.id}/assets/add`, { assets: g.assets, dryRun: false }).expect(200);
      expect({ assets: g.assets, status: res.body.status, failed: res.body.failedRequest.map((f: Body) => f.status) }).toEqual({
        assets: g.assets,
        status: g.status,
        failed: g.failed,
      });
    }
    expect(await labels(c, other.id)).toEqual([second.fullyQualifiedName]);
    expect(await labels(c, t.id)).toEqual([first.fullyQualifiedName]);
    await c.put(`/api/v1/tags/${MISSING}/assets/add`, { assets: [] }).expect(404);
    await c.put(`/api/v1/tags/${first.id}/assets/add`, { assets: [{ id: 'x' }] }).expect(400);
  });
});
