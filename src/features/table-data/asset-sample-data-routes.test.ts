import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

async function storage(c: TestApp): Promise<string> {
  const svc = await c.create('services/storageServices', { name: c.unique('s3'), serviceType: 'S3', connection: { config: { type: 'S3' } } });
  return String(svc.fullyQualifiedName);
}

async function bucket(c: TestApp, service: string, extra: Body = {}): Promise<Body> {
  return c.create('containers', { name: c.unique('bucket'), service, ...extra });
}

describe.each(['contract', 'openmetadata'] as const)('container and topic sample data, profile %s (docs/behaviour.md "Container and topic sample data")', (profile) => {
  it('container: PUT / GET / DELETE answer the container with or without sampleData; the version stays', async () => {
    const c = apps[profile];
    const b = await bucket(c, await storage(c), {
      dataModel: {
        isPartitioned: false,
        columns: [
          { name: 'order_id', dataType: 'INT' },
          { name: 'amount', dataType: 'DECIMAL' },
        ],
      },
    });
    const path = `/api/v1/containers/${b.id}/sampleData`;
    const data = {
      columns: ['order_id', 'amount'],
      rows: [
        [1, 9.5],
        [2, 3],
      ],
    };
    const given = [
      { method: 'get', want: undefined },
      { method: 'put', body: data, want: data },
      { method: 'get', want: data },
      { method: 'delete', want: undefined },
      { method: 'get', want: undefined },
    ] as const;
    for (const g of given) {
      const res = g.method === 'put' ? await c.put(path, g.body) : await c.request(g.method, path);
      expect({ method: g.method, status: res.status, id: res.body.id, sampleData: res.body.sampleData }).toEqual({ method: g.method, status: 200, id: b.id, sampleData: g.want });
    }
    await c.put(path, data).expect(200);
    const read = await c.get(`/api/v1/containers/${b.id}?fields=sampleData`).expect(200);
    expect(read.body).toMatchObject({ sampleData: data, version: b.version });
  });

  it('container: unknown column, ragged row and a container without a data model are 400; unknown id 404 (given body, want status and message)', async () => {
    const c = apps[profile];
    const svc = await storage(c);
    const modelled = await bucket(c, svc, { dataModel: { isPartitioned: false, columns: [{ name: 'a', dataType: 'INT' }] } });
    const plain = await bucket(c, svc);
    const given = [
      { id: modelled.id, body: { columns: ['ghost'], rows: [] }, status: 400, message: 'Invalid column name ghost' },
      { id: modelled.id, body: { columns: ['a'], rows: [[1, 2]] }, status: 400, message: 'Number of columns is 1 but row has 2 sample values' },
      { id: plain.id, body: { columns: ['a'], rows: [] }, status: 400, message: 'Invalid column name a' },
      { id: MISSING, body: { columns: [], rows: [] }, status: 404 },
    ];
    for (const g of given) {
      const res = await c.put(`/api/v1/containers/${g.id}/sampleData`, g.body);
      expect({ status: res.status, message: res.status === 400 ? res.body.message : undefined }).toEqual({ status: g.status, message: g.message });
    }
    expect((await c.get(`/api/v1/containers/${modelled.id}/sampleData`).expect(200)).body.sampleData).toBeUndefined();
  });

  it('topic: PUT / GET / DELETE of messages; fields=sampleData shows them; unknown id 404', async () => {
    const c = apps[profile];
    const svc = await c.create('services/messagingServices', { name: c.unique('kafka'), serviceType: 'Kafka', connection: { config: { type: 'Kafka' } } });
    const t = await c.create('topics', { name: c.unique('orders'), service: svc.fullyQualifiedName, partitions: 1 });
    const path = `/api/v1/topics/${t.id}/sampleData`;
    const data = { messages: ['{"id": 1}', '{"id": 2}'] };
    expect((await c.put(path, data).expect(200)).body).toMatchObject({ id: t.id, sampleData: data, version: t.version });
    expect((await c.get(path).expect(200)).body.sampleData).toEqual(data);
    expect((await c.get(`/api/v1/topics/${t.id}?fields=sampleData`).expect(200)).body.sampleData).toEqual(data);
    expect((await c.delete(path).expect(200)).body.sampleData).toBeUndefined();
    expect((await c.get(path).expect(200)).body.sampleData).toBeUndefined();
    await c.put(path, { messages: [1] }).expect(400);
    await c.get(`/api/v1/topics/${MISSING}/sampleData`).expect(404);
  });
});

describe.each(['contract', 'openmetadata'] as const)('children of a container, profile %s (docs/behaviour.md "Container children")', (profile) => {
  it('pages the direct children by name with limit / offset (given query, want names and paging)', async () => {
    const c = apps[profile];
    const parent = await bucket(c, await storage(c));
    for (const name of ['c', 'a', 'b'])
      await c.create('containers', { name, service: parent.service && (parent.service as Body).fullyQualifiedName, parent: { id: parent.id, type: 'container' } });
    const a = (await c.get(`/api/v1/containers/name/${encodeURIComponent(`${String(parent.fullyQualifiedName)}.a`)}`).expect(200)).body;
    await c.create('containers', { name: 'grandchild', service: (parent.service as Body).fullyQualifiedName, parent: { id: a.id, type: 'container' } });
    const fqn = encodeURIComponent(String(parent.fullyQualifiedName));
    const given = [
      { query: '', want: ['a', 'b', 'c'], paging: { offset: 0, limit: 10, total: 3 } },
      { query: '?limit=2', want: ['a', 'b'], paging: { offset: 0, limit: 2, total: 3 } },
      { query: '?limit=2&offset=2', want: ['c'], paging: { offset: 2, limit: 2, total: 3 } },
    ];
    for (const g of given) {
      const res = await c.get(`/api/v1/containers/name/${fqn}/children${g.query}`).expect(200);
      expect({ query: g.query, names: res.body.data.map((r: Body) => r.name), paging: res.body.paging }).toEqual({ query: g.query, names: g.want, paging: g.paging });
    }
    const first = (await c.get(`/api/v1/containers/name/${fqn}/children?limit=1`).expect(200)).body.data[0];
    expect(first).toMatchObject({ id: a.id, type: 'container', fullyQualifiedName: a.fullyQualifiedName, href: expect.stringMatching(new RegExp(`/api/v1/containers/${a.id}$`)) });
  });

  it('soft-deleted children only with include; unknown container 404', async () => {
    const c = apps[profile];
    const parent = await bucket(c, await storage(c));
    const child = await c.create('containers', { name: 'gone', service: (parent.service as Body).fullyQualifiedName, parent: { id: parent.id, type: 'container' } });
    await c.delete(`/api/v1/containers/${child.id}`).expect(200);
    const fqn = encodeURIComponent(String(parent.fullyQualifiedName));
    expect((await c.get(`/api/v1/containers/name/${fqn}/children`).expect(200)).body.paging.total).toBe(0);
    expect((await c.get(`/api/v1/containers/name/${fqn}/children?include=all`).expect(200)).body.data.map((r: Body) => r.name)).toEqual(['gone']);
    await c.get(`/api/v1/containers/name/nowhere.bucket/children`).expect(404);
  });
});
