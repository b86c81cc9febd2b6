import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const COLUMNS = ['id', 'customer_id', 'Customer_Name', 'amount', 'created_at'].map((name) => ({ name, dataType: 'STRING' }));
const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

describe.each(['contract', 'openmetadata'] as const)('column pages of a table, profile %s (docs/behaviour.md "Table columns and custom metrics")', (profile) => {
  it('pages by id and by name with limit / offset; total counts every column (given query, want names and paging)', async () => {
    const c = apps[profile];
    const t = await createTable(c, undefined, COLUMNS);
    const given = [
      { query: '', want: ['id', 'customer_id', 'Customer_Name', 'amount', 'created_at'], paging: { offset: 0, limit: 50, total: 5 } },
      { query: '?limit=2', want: ['id', 'customer_id'], paging: { offset: 0, limit: 2, total: 5 } },
      { query: '?limit=2&offset=2', want: ['Customer_Name', 'amount'], paging: { offset: 2, limit: 2, total: 5 } },
      { query: '?offset=4', want: ['created_at'], paging: { offset: 4, limit: 50, total: 5 } },
      { query: '?offset=9', want: [], paging: { offset: 9, limit: 50, total: 5 } },
    ];
    for (const base of [`/api/v1/tables/${t.id}/columns`, `/api/v1/tables/name/${encodeURIComponent(t.fqn)}/columns`]) {
      for (const g of given) {
        const res = await c.get(`${base}${g.query}`).expect(200);
        expect({ query: g.query, names: res.body.data.map((col: { name: string }) => col.name), paging: res.body.paging }).toEqual({
          query: g.query,
          names: g.want,
          paging: g.paging,
        });
      }
    }
  });

  it('search matches name or display name case-insensitively (given q, want names)', async () => {
    const c = apps[profile];
    const t = await createTable(c, undefined, COLUMNS);
    const given = [
      { q: 'customer', want: ['customer_id', 'Customer_Name'] },
      { q: 'AT', want: ['created_at'] },
      { q: 'nothing', want: [] },
      { q: '', want: COLUMNS.map((col) => col.name) },
    ];
    for (const g of given) {
      const byId = await c.get(`/api/v1/tables/${t.id}/columns/search?q=${g.q}`).expect(200);
      const byName = await c.get(`/api/v1/tables/name/${encodeURIComponent(t.fqn)}/columns/search?q=${g.q}&limit=1`).expect(200);
      expect({ q: g.q, names: byId.body.data.map((col: { name: string }) => col.name), total: byName.body.paging.total }).toEqual({ q: g.q, names: g.want, total: g.want.length });
    }
  });

  it('tags only with fields=tags; an unknown field is 400; unknown or deleted table 404, include=deleted finds it', async () => {
    const c = apps[profile];
    const classification = c.unique('Pii');
    await c.create('classifications', { name: classification, description: 'x' });
    await c.create('tags', { name: 'Sensitive', classification, description: 'x' });
    const tagFQN = `${classification}.Sensitive`;
    const t = await createTable(c, undefined, [{ name: 'a', dataType: 'INT', tags: [{ tagFQN, source: 'Classification', labelType: 'Manual', state: 'Confirmed' }] } as never]);
    const without = await c.get(`/api/v1/tables/${t.id}/columns`).expect(200);
    expect(without.body.data[0].tags).toBeUndefined();
    const withTags = await c.get(`/api/v1/tables/${t.id}/columns?fields=tags`).expect(200);
    expect(withTags.body.data[0].tags).toEqual([expect.objectContaining({ tagFQN })]);
    expect((await c.get(`/api/v1/tables/${t.id}/columns?fields=owners`).expect(400)).body.message).toBe('Invalid field name owners');
    await c.get(`/api/v1/tables/${MISSING}/columns`).expect(404);
    await c.delete(`/api/v1/tables/${t.id}`).expect(200);
    await c.get(`/api/v1/tables/${t.id}/columns`).expect(404);
    await c.get(`/api/v1/tables/${t.id}/columns?include=deleted`).expect(200);
  });
});

describe.each(['contract', 'openmetadata'] as const)('custom metrics and the latest profile, profile %s', (profile) => {
  it('PUT adds or replaces by name and column, fields=customMetrics shows them, the DELETEs remove them, the version stays', async () => {
    const c = apps[profile];
    const t = await createTable(c);
    const tableMetric = { name: 'rows', expression: 'SELECT COUNT(*) FROM t' };
    const columnMetric = { name: 'negatives', columnName: 'amount', expression: 'SELECT COUNT(*) FROM t WHERE amount < 0' };
    const first = await c.put(`/api/v1/tables/${t.id}/customMetric`, tableMetric).expect(200);
    expect(first.body.customMetrics).toEqual([expect.objectContaining({ ...tableMetric, updatedBy: 'admin', updatedAt: T0 })]);
    await c.put(`/api/v1/tables/${t.id}/customMetric`, columnMetric).expect(200);
    const replaced = await c.put(`/api/v1/tables/${t.id}/customMetric`, { ...columnMetric, expression: 'SELECT 1' }).expect(200);
    expect(replaced.body.customMetrics.map((m: { name: string; expression: string }) => [m.name, m.expression])).toEqual([
      ['rows', tableMetric.expression],
      ['negatives', 'SELECT 1'],
    ]);
    const read = await c.get(`/api/v1/tables/${t.id}?fields=customMetrics`).expect(200);
    expect(read.body.customMetrics).toHaveLength(2);
    expect(read.body.version).toBe(0.1);
    const columns = await c.get(`/api/v1/tables/${t.id}/columns?fields=customMetrics`).expect(200);
    expect(columns.body.data.map((col: { customMetrics?: unknown[] }) => col.customMetrics?.length ?? 0)).toEqual([0, 1]);

    const given = [
      { path: `customMetric/order_id/negatives`, status: 404 },
      { path: `customMetric/amount/negatives`, status: 200, left: ['rows'] },
      { path: `customMetric/negatives`, status: 404 },
      { path: `customMetric/rows`, status: 200, left: [] },
    ];
    for (const g of given) {
      const res = await c.delete(`/api/v1/tables/${t.id}/${g.path}`);
      expect({ path: g.path, status: res.status }).toEqual({ path: g.path, status: g.status });
      if (g.left) expect((res.body.customMetrics ?? []).map((m: { name: string }) => m.name)).toEqual(g.left);
    }
  });

  it('a metric on an unknown column is 400, on an unknown table 404; nothing is stored', async () => {
    const c = apps[profile];
    const t = await createTable(c);
    const res = await c.put(`/api/v1/tables/${t.id}/customMetric`, { name: 'm', columnName: 'ghost', expression: 'x' }).expect(400);
    expect(res.body.message).toBe('Invalid column name ghost');
    await c.put(`/api/v1/tables/${MISSING}/customMetric`, { name: 'm', expression: 'x' }).expect(404);
    await c.put(`/api/v1/tables/${t.id}/customMetric`, { name: 'm' }).expect(400);
    expect((await c.get(`/api/v1/tables/${t.id}?fields=customMetrics`).expect(200)).body.customMetrics).toBeUndefined();
  });

  it('GET tableProfile/latest: the table by FQN with its newest profile and each column newest profile', async () => {
    const c = apps[profile];
    const t = await createTable(c);
    const fqn = encodeURIComponent(t.fqn);
    const none = await c.get(`/api/v1/tables/${fqn}/tableProfile/latest`).expect(200);
    expect(none.body.profile).toBeUndefined();
    for (const [ts, rows] of [
      [T0 - 2000, 10],
      [T0 - 1000, 20],
    ] as const) {
      await c
        .put(`/api/v1/tables/${t.id}/tableProfile`, { tableProfile: { timestamp: ts, rowCount: rows }, columnProfile: [{ name: 'amount', timestamp: ts, max: rows }] })
        .expect(200);
    }
    const latest = await c.get(`/api/v1/tables/${fqn}/tableProfile/latest`).expect(200);
    expect(latest.body.profile).toMatchObject({ timestamp: T0 - 1000, rowCount: 20 });
    expect(latest.body.columns.map((col: { name: string; profile?: { max: number } }) => [col.name, col.profile?.max])).toEqual([
      ['order_id', undefined],
      ['amount', 20],
    ]);
    const tableOnly = await c.get(`/api/v1/tables/${fqn}/tableProfile/latest?includeColumnProfile=false`).expect(200);
    expect(tableOnly.body.columns[1].profile).toBeUndefined();
    await c.get(`/api/v1/tables/svc.db.sch.ghost/tableProfile/latest`).expect(404);
  });
});

describe.each(['contract', 'openmetadata'] as const)('PUT /v1/columns/name/{fqn}, profile %s (docs/behaviour.md "Table columns and custom metrics")', (profile) => {
  it('sets what is given on the column (nested ones too), keeps the rest; each change is a new version of the table', async () => {
    const c = apps[profile];
    const classification = c.unique('Pii');
    await c.create('classifications', { name: classification, description: 'x' });
    await c.create('tags', { name: 'Sensitive', classification, description: 'x' });
    const t = await createTable(c, undefined, [
      { name: 'id', dataType: 'INT' },
      { name: 'address', dataType: 'STRUCT', children: [{ name: 'city', dataType: 'STRING' }] } as never,
    ]);
    const given = [
      { column: 'id', body: { description: 'The key', constraint: 'PRIMARY_KEY' }, want: { description: 'The key', constraint: 'PRIMARY_KEY' }, version: 0.2 },
      { column: 'id', body: { displayName: 'Id' }, want: { description: 'The key', displayName: 'Id' }, version: 0.3 },
      {
        column: 'address.city',
        body: { tags: [{ tagFQN: `${classification}.Sensitive`, source: 'Classification' }] },
        want: { tags: [expect.objectContaining({ tagFQN: `${classification}.Sensitive`, labelType: 'Manual' })] },
        version: 0.4,
      },
      { column: 'id', body: { displayName: 'Id' }, want: { displayName: 'Id' }, version: 0.4 },
    ];
    for (const g of given) {
      const fqn = `${t.fqn}.${g.column}`;
      const res = await c.put(`/api/v1/columns/name/${encodeURIComponent(fqn)}`, g.body).expect(200);
      expect(res.body).toMatchObject({ ...g.want, fullyQualifiedName: fqn });
      expect({ column: g.column, version: (await c.get(`/api/v1/tables/${t.id}`).expect(200)).body.version }).toEqual({ column: g.column, version: g.version });
    }
    const table = (await c.get(`/api/v1/tables/${t.id}?fields=tags`).expect(200)).body;
    expect(table.columns[0]).toMatchObject({ name: 'id', description: 'The key', displayName: 'Id', constraint: 'PRIMARY_KEY' });
    expect(table.columns[1].children[0].tags).toHaveLength(1);
  });

  it('an unknown table or column is 404, a refused label 404 or 400, an unknown field 400; nothing changes', async () => {
    const c = apps[profile];
    const t = await createTable(c);
    const given = [
      { fqn: `${t.fqn}.ghost`, body: { description: 'x' }, status: 404 },
      { fqn: 'svc.db.sch.nowhere.id', body: { description: 'x' }, status: 404 },
      { fqn: `${t.fqn}.amount`, body: { tags: [{ tagFQN: 'No.Such', source: 'Classification' }] }, status: 404 },
      { fqn: `${t.fqn}.amount`, body: { name: 'renamed' }, status: 400 },
    ];
    for (const g of given) {
      const res = await c.put(`/api/v1/columns/name/${encodeURIComponent(g.fqn)}`, g.body);
      expect({ fqn: g.fqn, status: res.status }).toEqual({ fqn: g.fqn, status: g.status });
    }
    expect((await c.get(`/api/v1/tables/${t.id}`).expect(200)).body.version).toBe(0.1);
  });
});

describe.each(['contract', 'openmetadata'] as const)('DELETE /v1/tables/{fqn}/{entityType}/{timestamp}/profile, profile %s (docs/behaviour.md "Table data")', (profile) => {
  it('removes the profiles at that time: table (with system), column, system (given delete, want what is left)', async () => {
    const c = apps[profile];
    const t = await createTable(c);
    const [ts1, ts2] = [T0 - 2000, T0 - 1000];
    for (const ts of [ts1, ts2]) {
      await c
        .put(`/api/v1/tables/${t.id}/tableProfile`, {
          tableProfile: { timestamp: ts, rowCount: 1 },
          columnProfile: [{ name: 'amount', timestamp: ts, max: 1 }],
          systemProfile: [{ timestamp: ts, operation: 'INSERT', rowsAffected: 1 }],
        })
        .expect(200);
    }
    const left = async () => {
      const read = async (path: string, key: string) =>
        ((await c.get(`/api/v1/tables/${encodeURIComponent(key)}/${path}?startTs=0&endTs=${T0}`).expect(200)).body.data as { timestamp: number }[]).map((p) => p.timestamp);
      const byId = profile === 'contract';
      return {
        table: await read('tableProfile', byId ? t.id : t.fqn),
        column: await read('columnProfile', byId ? t.id : `${t.fqn}.amount`),
        system: await read('systemProfile', byId ? t.id : t.fqn),
      };
    };
    const given = [
      { del: `${t.fqn}/table/${ts1}`, want: { table: [ts2], column: [ts2, ts1], system: [ts2] } },
      { del: `${t.fqn}.amount/column/${ts2}`, want: { table: [ts2], column: [ts1], system: [ts2] } },
      { del: `${t.fqn}/system/${ts2}`, want: { table: [ts2], column: [ts1], system: [] } },
      { del: `${t.fqn}/table/${ts1}`, want: { table: [ts2], column: [ts1], system: [] } },
    ];
    for (const g of given) {
      const [fqn, kind, ts] = [g.del.slice(0, g.del.indexOf('/')), ...g.del.slice(g.del.indexOf('/') + 1).split('/')];
      const res = await c.delete(`/api/v1/tables/${encodeURIComponent(fqn!)}/${kind}/${ts}/profile`);
      expect({ del: g.del, status: res.status, left: await left() }).toEqual({ del: g.del, status: 200, left: g.want });
    }
    await c.delete(`/api/v1/tables/svc.db.sch.nowhere/table/${ts1}/profile`).expect(404);
    await c.delete(`/api/v1/tables/${encodeURIComponent(`${t.fqn}.ghost`)}/column/${ts1}/profile`).expect(404);
    await c.delete(`/api/v1/tables/${encodeURIComponent(t.fqn)}/bogus/${ts1}/profile`).expect(400);
  });
});
