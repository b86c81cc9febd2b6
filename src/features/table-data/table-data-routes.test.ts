import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TableFixture, TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
let shared: TestApp;
let sharedOm: TestApp;
beforeAll(async () => {
  [shared, sharedOm] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

const CONFIG = { profileSample: 20, profileSampleType: 'PERCENTAGE', excludeColumns: ['order_id'], includeColumns: [{ columnName: 'amount', metrics: ['min', 'max'] }] };

describe('profiler config, profile contract (contract "Table profiler")', () => {
  let c: TestApp;
  let t: TableFixture;
  beforeEach(async () => {
    c = shared;
    t = await createTable(c);
  });

  it('GET before any PUT is 404, and 404 for an unknown table', async () => {
    const none = await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(404);
    expect(none.body).toMatchObject({ code: 404, errorType: 'NOT_FOUND' });
    await c.get(`/api/v1/tables/${MISSING}/profilerConfig`).expect(404);
    await c.put(`/api/v1/tables/${MISSING}/profilerConfig`, CONFIG).expect(404);
  });

  it('PUT returns the configuration, GET returns it, the table version is unchanged', async () => {
    const put = await c.put(`/api/v1/tables/${t.id}/profilerConfig`, CONFIG).expect(200);
    expect(put.body).toEqual(CONFIG);
    expect((await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(200)).body).toEqual(CONFIG);
    const table = await c.get(`/api/v1/tables/${t.id}?fields=tableProfilerConfig`).expect(200);
    expect(table.body.tableProfilerConfig).toEqual(CONFIG);
    expect(table.body.version).toBe(0.1);
  });

  it('PUT replaces the whole configuration', async () => {
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, CONFIG).expect(200);
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, { sampleDataCount: 5 }).expect(200);
    expect((await c.get(`/api/v1/tables/${t.id}/profilerConfig`)).body).toEqual({ sampleDataCount: 5 });
  });

  it('excludeColumns and includeColumns naming an unknown column are 400 Invalid column name', async () => {
    const ex = await c.put(`/api/v1/tables/${t.id}/profilerConfig`, { excludeColumns: ['nope'] }).expect(400);
    expect(ex.body.message).toBe('Invalid column name nope');
    const inc = await c.put(`/api/v1/tables/${t.id}/profilerConfig`, { includeColumns: [{ columnName: 'ghost' }] }).expect(400);
    expect(inc.body.message).toBe('Invalid column name ghost');
    await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(404);
  });

  it('an invalid profileSampleType is 400 from the document', async () => {
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, { profileSampleType: 'HALF' }).expect(400);
  });

  it('DELETE is 204 with no body, then GET is 404', async () => {
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, CONFIG).expect(200);
    const del = await c.delete(`/api/v1/tables/${t.id}/profilerConfig`).expect(204);
    expect(del.text).toBe('');
    await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(404);
  });

  it('/tableProfilerConfig answers the table with tableProfilerConfig in both directions', async () => {
    const put = await c.put(`/api/v1/tables/${t.id}/tableProfilerConfig`, CONFIG).expect(200);
    expect(put.body).toMatchObject({ id: t.id, fullyQualifiedName: t.fqn, tableProfilerConfig: CONFIG });
    expect((await c.get(`/api/v1/tables/${t.id}/tableProfilerConfig`).expect(200)).body.tableProfilerConfig).toEqual(CONFIG);
    const del = await c.delete(`/api/v1/tables/${t.id}/tableProfilerConfig`).expect(200);
    expect(del.body.id).toBe(t.id);
    expect(del.body.tableProfilerConfig).toBeUndefined();
    const after = await c.get(`/api/v1/tables/${t.id}/tableProfilerConfig`).expect(200);
    expect(after.body.tableProfilerConfig).toBeUndefined();
  });

  it('a hard-deleted table takes its configuration with it', async () => {
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, CONFIG).expect(200);
    await c.delete(`/api/v1/tables/${t.id}?hardDelete=true`).expect(204);
    const again = await createTable(c, t.name);
    expect(again.fqn).toBe(t.fqn);
    await c.get(`/api/v1/tables/${again.id}/profilerConfig`).expect(404);
    await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(404);
  });

  it("a hard delete leaves no side data behind: the table's, its test case's results, its contract's results", async () => {
    const ts = T0 + 1000;
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, CONFIG).expect(200);
    await c.put(`/api/v1/tables/${t.id}/sampleData`, { columns: ['amount'], rows: [[1]] }).expect(200);
    await c
      .put(`/api/v1/tables/${t.id}/tableProfile`, {
        tableProfile: { timestamp: ts, rowCount: 1 },
        columnProfile: [{ name: 'amount', timestamp: ts, min: 1 }],
        systemProfile: [{ timestamp: ts, operation: 'INSERT', rowsAffected: 1 }],
      })
      .expect(200);
    expect((await c.put('/api/v1/dataQuality/testDefinitions', { name: 'tableRowCountToBeBetween', entityType: 'TABLE', testPlatforms: ['OpenMetadata'] })).status).toBeLessThan(
      300,
    );
    const testCase = (await c.post('/api/v1/dataQuality/testCases', { name: 'rows', entityLink: `<#E::table::${t.fqn}>`, testDefinition: 'tableRowCountToBeBetween' }).expect(201))
      .body;
    await c
      .put(`/api/v1/dataQuality/testCases/testCaseResults/${encodeURIComponent(String(testCase.fullyQualifiedName))}`, { timestamp: ts, testCaseStatus: 'Success' })
      .expect(200);
    const contract = (await c.post('/api/v1/dataContracts', { name: 'c', entity: { id: t.id, type: 'table' } }).expect(201)).body;
    await c.put(`/api/v1/dataContracts/${String(contract.id)}/results`, { timestamp: ts, contractExecutionStatus: 'Success' }).expect(200);

    const ids = new Set([t.id, String(testCase.id), String(contract.id)]);
    const held = () =>
      [...c.ctx.store.sideEntries()]
        .filter((e) => ids.has(e.id))
        .map((e) => e.area.key)
        .sort();
    expect(held()).toEqual([
      'contractResults',
      'tables.columnProfiles',
      'tables.profilerConfig',
      'tables.sampleData',
      'tables.systemProfiles',
      'tables.tableProfiles',
      'testCaseResults',
    ]);

    await c.delete(`/api/v1/tables/${t.id}?hardDelete=true`).expect(204);
    expect(held()).toEqual([]);
    await c.get(`/api/v1/dataQuality/testCases/${String(testCase.id)}?include=all`).expect(404);
    await c.get(`/api/v1/dataContracts/${String(contract.id)}?include=all`).expect(404);
  });
});

describe('profiler config, profile openmetadata (docs/behaviour.md "Table data")', () => {
  it('GET / PUT answer the table with tableProfilerConfig; DELETE answers 200 with the table', async () => {
    const c = sharedOm;
    const t = await createTable(c);
    const put = await c.put(`/api/v1/tables/${t.id}/profilerConfig`, CONFIG).expect(200);
    expect(put.body).toMatchObject({ id: t.id, tableProfilerConfig: CONFIG });
    expect((await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(200)).body.tableProfilerConfig).toEqual(CONFIG);
    const del = await c.delete(`/api/v1/tables/${t.id}/profilerConfig`).expect(200);
    expect(del.body.id).toBe(t.id);
    await c.get(`/api/v1/tables/${t.id}/profilerConfig`).expect(404);
  });
});

describe('sample data (contract "Table sample data")', () => {
  let c: TestApp;
  let t: TableFixture;
  beforeEach(async () => {
    c = shared;
    t = await createTable(c);
  });

  const SAMPLE = {
    columns: [
      { name: 'order_id', dataType: 'BIGINT' },
      { name: 'amount', dataType: 'DECIMAL' },
    ],
    rows: [
      [1001, 25.5],
      [1002, 310],
    ],
  };

  it('GET is 404 before any PUT; PUT returns {columns:[{name,dataType}], rows}; GET returns the same', async () => {
    await c.get(`/api/v1/tables/${t.id}/sampleData`).expect(404);
    expect((await c.put(`/api/v1/tables/${t.id}/sampleData`, SAMPLE).expect(200)).body).toEqual(SAMPLE);
    expect((await c.get(`/api/v1/tables/${t.id}/sampleData`).expect(200)).body).toEqual(SAMPLE);
  });

  it('columns given as names are answered with the data types of the table', async () => {
    const put = await c.put(`/api/v1/tables/${t.id}/sampleData`, { columns: ['amount'], rows: [[1], [2], [3]] }).expect(200);
    expect(put.body).toEqual({ columns: [{ name: 'amount', dataType: 'DECIMAL' }], rows: [[1], [2], [3]] });
  });

  it('a row of the wrong length is 400 with the counts', async () => {
    const res = await c.put(`/api/v1/tables/${t.id}/sampleData`, { ...SAMPLE, rows: [[1, 2], [3]] }).expect(400);
    expect(res.body.message).toBe('Number of columns is 2 but row has 1 sample values');
    await c.get(`/api/v1/tables/${t.id}/sampleData`).expect(404);
  });

  it('an unknown column is 400 Invalid column name', async () => {
    const res = await c.put(`/api/v1/tables/${t.id}/sampleData`, { columns: [{ name: 'nope', dataType: 'INT' }], rows: [] }).expect(400);
    expect(res.body.message).toBe('Invalid column name nope');
  });

  it('missing rows is 400 from the document', async () => {
    await c.put(`/api/v1/tables/${t.id}/sampleData`, { columns: ['amount'] }).expect(400);
  });

  it('DELETE is 204, then GET is 404; fields=sampleData shows OpenMetadata TableData meanwhile', async () => {
    await c.put(`/api/v1/tables/${t.id}/sampleData`, SAMPLE).expect(200);
    const table = await c.get(`/api/v1/tables/${t.id}?fields=sampleData`).expect(200);
    expect(table.body.sampleData).toEqual({ columns: ['order_id', 'amount'], rows: SAMPLE.rows });
    await c.delete(`/api/v1/tables/${t.id}/sampleData`).expect(204);
    await c.get(`/api/v1/tables/${t.id}/sampleData`).expect(404);
  });

  it('an unknown table is 404 on GET, PUT and DELETE', async () => {
    await c.get(`/api/v1/tables/${MISSING}/sampleData`).expect(404);
    await c.put(`/api/v1/tables/${MISSING}/sampleData`, SAMPLE).expect(404);
    await c.delete(`/api/v1/tables/${MISSING}/sampleData`).expect(404);
  });
});

describe('sample data, profile openmetadata (docs/behaviour.md "Table data")', () => {
  it('PUT TableData answers the table with sampleData (column names); DELETE answers 200 with the table', async () => {
    const c = sharedOm;
    const t = await createTable(c);
    const data = { columns: ['order_id', 'amount'], rows: [[1, 2.5]] };
    const put = await c.put(`/api/v1/tables/${t.id}/sampleData`, data).expect(200);
    expect(put.body).toMatchObject({ id: t.id, sampleData: data });
    expect((await c.get(`/api/v1/tables/${t.id}/sampleData`).expect(200)).body.sampleData).toEqual(data);
    const del = await c.delete(`/api/v1/tables/${t.id}/sampleData`).expect(200);
    expect(del.body.sampleData).toBeUndefined();
    await c.get(`/api/v1/tables/${t.id}/sampleData`).expect(404);
  });
});

describe('profiles (contract "Table profiler"; docs/behaviour.md "Table data")', () => {
  let c: TestApp;
  let t: TableFixture;
  beforeEach(async () => {
    c = shared;
    c.clock.now = T0 + 10_000;
    t = await createTable(c);
  });

  const put = (ts: number, rowCount: number) =>
    c.put(`/api/v1/tables/${t.id}/tableProfile`, {
      tableProfile: { timestamp: ts, rowCount, columnCount: 2 },
      columnProfile: [
        { name: 'amount', timestamp: ts, min: 0, max: rowCount },
        { name: 'order_id', timestamp: ts, nullCount: 0 },
      ],
      systemProfile: [{ timestamp: ts, operation: 'INSERT', rowsAffected: rowCount }],
    });

  it('PUT answers the table with its newest profile', async () => {
    await put(T0 + 2000, 20).expect(200);
    const res = await put(T0 + 1000, 10).expect(200);
    expect(res.body.id).toBe(t.id);
    expect(res.body.profile).toEqual({ timestamp: T0 + 2000, rowCount: 20, columnCount: 2 });
  });

  it('reads are newest first and within [startTs, endTs]', async () => {
    for (const [ts, rows] of [
      [T0 + 1000, 10],
      [T0 + 3000, 30],
      [T0 + 2000, 20],
    ] as const)
      await put(ts, rows).expect(200);
    const all = await c.get(`/api/v1/tables/${t.id}/tableProfile`).expect(200);
    expect(all.body.data.map((p: { rowCount: number }) => p.rowCount)).toEqual([30, 20, 10]);
    expect(all.body.paging.total).toBe(3);
    const window = await c.get(`/api/v1/tables/${t.id}/tableProfile?startTs=${T0 + 1500}&endTs=${T0 + 2500}`).expect(200);
    expect(window.body.data.map((p: { rowCount: number }) => p.rowCount)).toEqual([20]);
    const columns = await c.get(`/api/v1/tables/${t.id}/columnProfile`).expect(200);
    expect(columns.body.data).toHaveLength(6);
    expect(columns.body.data[0].timestamp).toBe(T0 + 3000);
    const system = await c.get(`/api/v1/tables/${t.id}/systemProfile?startTs=${T0 + 2000}`).expect(200);
    expect(system.body.data.map((p: { rowsAffected: number }) => p.rowsAffected)).toEqual([30, 20]);
  });

  it('endTs defaults to now: a profile stamped in the future is not listed until then', async () => {
    await put(T0 + 20_000, 99).expect(200);
    expect((await c.get(`/api/v1/tables/${t.id}/tableProfile`)).body.data).toEqual([]);
    c.clock.now = T0 + 30_000;
    expect((await c.get(`/api/v1/tables/${t.id}/tableProfile`)).body.data).toHaveLength(1);
  });

  it('the same timestamp replaces the stored profile', async () => {
    await put(T0 + 1000, 10).expect(200);
    await put(T0 + 1000, 11).expect(200);
    const res = await c.get(`/api/v1/tables/${t.id}/tableProfile`).expect(200);
    expect(res.body.data).toEqual([{ timestamp: T0 + 1000, rowCount: 11, columnCount: 2 }]);
  });

  it('a timestamp in seconds is 400 and stores nothing', async () => {
    const res = await put(1_763_683_200, 1).expect(400);
    expect(res.body.message).toBe('Timestamp 1763683200 is not valid, it should be in milliseconds since epoch');
    expect((await c.get(`/api/v1/tables/${t.id}/tableProfile`)).body.data).toEqual([]);
  });

  it('a column profile of an unknown column is 400', async () => {
    const res = await c.put(`/api/v1/tables/${t.id}/tableProfile`, { tableProfile: { timestamp: T0 }, columnProfile: [{ name: 'ghost', timestamp: T0 }] }).expect(400);
    expect(res.body.message).toBe('Invalid column name ghost');
  });

  it('an unknown table is 404', async () => {
    await c.get(`/api/v1/tables/${MISSING}/tableProfile`).expect(404);
    await c.put(`/api/v1/tables/${MISSING}/tableProfile`, { tableProfile: { timestamp: T0 } }).expect(404);
  });
});

describe('profiles, profile openmetadata: reads by table FQN and column FQN (docs/behaviour.md "Table data")', () => {
  it('tableProfile by table FQN, columnProfile by column FQN; startTs / endTs required on column and system', async () => {
    const c = sharedOm;
    c.clock.now = T0 + 10_000;
    const t = await createTable(c);
    await c
      .put(`/api/v1/tables/${t.id}/tableProfile`, {
        tableProfile: { timestamp: T0, rowCount: 5 },
        columnProfile: [
          { name: 'amount', timestamp: T0, max: 9 },
          { name: 'order_id', timestamp: T0, max: 1 },
        ],
      })
      .expect(200);
    const table = await c.get(`/api/v1/tables/${encodeURIComponent(t.fqn)}/tableProfile`).expect(200);
    expect(table.body.data).toEqual([{ timestamp: T0, rowCount: 5 }]);
    const column = await c.get(`/api/v1/tables/${encodeURIComponent(`${t.fqn}.amount`)}/columnProfile?startTs=0&endTs=${T0 + 1}`).expect(200);
    expect(column.body.data).toEqual([{ name: 'amount', timestamp: T0, max: 9 }]);
    const missing = await c.get(`/api/v1/tables/${encodeURIComponent(`${t.fqn}.amount`)}/columnProfile?endTs=${T0}`).expect(400);
    expect(missing.body.message).toBe('[query param startTs must not be null]');
    await c.get(`/api/v1/tables/${encodeURIComponent(`${t.fqn}.ghost`)}/columnProfile?startTs=0&endTs=1`).expect(404);
    await c.get(`/api/v1/tables/${t.id}/tableProfile`).expect(404);
  });
});

describe('roles (docs/behaviour.md "Authentication")', () => {
  it('no token is 401 and a DataConsumer gets 403 on every write, 200 on reads', async () => {
    const c = shared;
    const t = await createTable(c);
    await c.put(`/api/v1/tables/${t.id}/sampleData`, { columns: ['amount'], rows: [[1]] }).expect(200);
    await c.put(`/api/v1/tables/${t.id}/profilerConfig`, { sampleDataCount: 1 }).expect(200);
    for (const path of ['profilerConfig', 'tableProfilerConfig', 'sampleData', 'tableProfile', 'columnProfile', 'systemProfile']) {
      await c.get(`/api/v1/tables/${t.id}/${path}`, '').expect(401);
      await c.get(`/api/v1/tables/${t.id}/${path}`, c.tokens.consumer).expect(200);
    }
    const writes: [string, unknown][] = [
      ['profilerConfig', { sampleDataCount: 2 }],
      ['tableProfilerConfig', { sampleDataCount: 2 }],
      ['sampleData', { columns: ['amount'], rows: [[2]] }],
      ['tableProfile', { tableProfile: { timestamp: T0 } }],
    ];
    for (const [path, body] of writes) {
      await c.put(`/api/v1/tables/${t.id}/${path}`, body, '').expect(401);
      const denied = await c.put(`/api/v1/tables/${t.id}/${path}`, body, c.tokens.consumer).expect(403);
      expect(denied.body.errorType).toBe('FORBIDDEN');
    }
    for (const path of ['profilerConfig', 'tableProfilerConfig', 'sampleData']) {
      await c.delete(`/api/v1/tables/${t.id}/${path}`, '').expect(401);
      await c.delete(`/api/v1/tables/${t.id}/${path}`, c.tokens.consumer).expect(403);
      await c.delete(`/api/v1/tables/${t.id}/${path}`, c.tokens.steward).expect(403);
    }
    expect((await c.get(`/api/v1/tables/${t.id}/sampleData`)).body.rows).toEqual([[1]]);
  });
});
