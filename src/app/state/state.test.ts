import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { startApp } from '../../../test/kit.ts';
import type { StateJson } from './state.ts';

// A fixed clock: the demo catalog's `$ago` timestamps and the validation runs are then the same in
// every app built here, and an export can be compared whole.
const NOW = 1_718_000_000_000;
const DAY = 86_400_000;
const ORDERS = 'acme_snowflake.ecommerce_dw.sales.fact_orders';
const ROW_COUNT_TEST = `${ORDERS}.fact_orders_row_count`;

/** The side data groups that hold anything (every declared group is exported, empty or not). */
const nonEmptyGroups = (sideData: StateJson['sideData']): string[] => Object.keys(sideData ?? {}).filter((group) => Object.keys(sideData![group]!).length > 0);

const demo = () => startApp({ fixtures: 'default', at: NOW });
const exported = async (catalog: TestApp): Promise<StateJson> => (await catalog.get('/__admin/state')).body as StateJson;
const tableId = (catalog: TestApp, fqn = ORDERS) => catalog.ctx.store.getByFqn('table', fqn)!.entity.id;
const ownContractId = (catalog: TestApp) => [...catalog.ctx.store.all()].find((s) => s.type === 'dataContract' && s.entity.name === 'orders_contract')!.entity.id;

describe('state export: the side data travels with the entities', () => {
  it('an export holds the demo tables profiles, sample data, test case results and contract results', async () => {
    const state = await exported(await demo());
    const side = state.sideData!;
    expect(Object.keys(side.tables)).toHaveLength(4);
    const orders = side.tables[state.entities.find((e) => e.entity.fullyQualifiedName === ORDERS)!.entity.id]!;
    expect(orders.tableProfiles.map((p) => p.timestamp)).toEqual([4, 3, 2, 1, 0].map((d) => NOW - d * DAY - 2 * 3_600_000));
    expect(orders.columnProfiles).toHaveLength(35);
    expect(orders.systemProfiles).toHaveLength(15);
    expect(orders.sampleData!.rows).toHaveLength(5);
    expect(orders.profilerConfig!.excludeColumns).toEqual(['product_sku']);
    expect(Object.values(side.testCaseResults).map((l) => l.length)).toEqual([5, 5, 5]);
    // fact_orders and dim_customer: history + one validation; customer_360's local contract: one validation + history;
    // the Customer 360 data product's contract: history (82-data-contract-history.json).
    expect(
      Object.values(side.contractResults)
        .map((l) => l.length)
        .sort(),
    ).toEqual([4, 4, 4, 5]);
  });
});

describe('state import: an export round trip is exact', () => {
  it('export → import into an empty server → export gives the same state, side data included', async () => {
    const source = await demo();
    // Side data written through the API after the start counts too.
    await source.put(`/api/v1/dataQuality/testCases/testCaseResults/${ROW_COUNT_TEST}`, { timestamp: NOW - 1000, testCaseStatus: 'Failed', result: 'Found 0 rows.' });
    const before = await exported(source);

    const target = await startApp({ fixtures: 'none', at: NOW });
    const res = await target.put('/__admin/state', before);
    expect(res.body).toEqual({ entities: before.entities.length });
    expect(await exported(target)).toEqual(before);
  });

  it('imported side data is served by the API with its values', async () => {
    const target = await startApp({ fixtures: 'none', at: NOW });
    await target.put('/__admin/state', await exported(await demo()));
    const id = tableId(target);
    const profiles = await target.get(`/api/v1/tables/${id}/tableProfile?startTs=0&endTs=${NOW}`);
    expect(profiles.body.data.map((p: { rowCount: number }) => p.rowCount)).toEqual([1_270_000, 1_248_500, 1_227_000, 1_205_500, 1_184_000]);
    const sample = await target.get(`/api/v1/tables/${id}/sampleData`);
    expect(sample.body.rows[0]).toEqual([48211907, 20113842, 88123, 'TS-ORG-M-BLK', 2, 39.9, '2024-05-02T09:14:11Z']);
    const runs = await target.get(`/api/v1/dataQuality/testCases/testCaseResults/${ROW_COUNT_TEST}?startTs=0&endTs=${NOW}`);
    expect(runs.body.data).toHaveLength(5);
    const results = await target.get(`/api/v1/dataContracts/${ownContractId(target)}/results?limit=0&endTs=${NOW}`);
    expect(results.body.data.map((r: { contractExecutionStatus: string }) => r.contractExecutionStatus)).toEqual(['Success', 'Success', 'Success', 'PartialSuccess', 'Success']);
  });

  it('an export without side data (older format) imports with none', async () => {
    const target = await demo();
    const { sideData: _dropped, ...old } = await exported(target);
    await target.put('/__admin/state', old);
    expect(nonEmptyGroups((await exported(target)).sideData)).toEqual([]);
  });

  it('side data that breaks its schema or names no exported entity is 400 and changes nothing', async () => {
    const target = await demo();
    const before = await exported(target);
    const badProfile = structuredClone(before);
    badProfile.sideData!.tables[tableId(target)]!.tableProfiles[0]!.rowCount = 'many' as never;
    const badKey = structuredClone(before);
    badKey.sideData!.testCaseResults[tableId(target)] = [];
    for (const body of [badProfile, badKey, { ...before, sideData: [] }]) {
      const res = await target.put('/__admin/state', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(400);
    }
    expect(await exported(target)).toEqual(before);
  });
});

describe('state import: a history is the JSON texts of earlier versions', () => {
  const withHistory = (state: StateJson, history: unknown): StateJson => {
    const copy = structuredClone(state);
    copy.entities.find((e) => e.entity.fullyQualifiedName === ORDERS)!.history = history as string[];
    return copy;
  };

  it.each<{ given: string; history: unknown }>([
    { given: 'not an array', history: '{"version":0.1}' },
    { given: 'an entry that is not a string', history: [{ version: 0.1 }] },
    { given: 'an entry that is not JSON', history: ['{"version":0.1'] },
    { given: 'an entry that is a JSON array', history: ['[0.1]'] },
    { given: 'an entry without a version number', history: ['{"version":"0.1"}'] },
  ])('given $given, want 400 naming the entity or the field and nothing changed', async ({ history }) => {
    const target = await demo();
    const before = await exported(target);
    const res = await target.put('/__admin/state', withHistory(before, history));
    expect(res.status).toBe(400);
    // A wrong JSON type is the document's to refuse (the admin API's schema); the rest is the import's.
    expect(res.body.message).toMatch(new RegExp(`The history of table ${tableId(target)} must be|entities\\.\\d+\\.history`));
    expect(await exported(target)).toEqual(before);
  });

  it('the versions of an imported history are served by the versions endpoints', async () => {
    const source = await demo();
    const id = tableId(source);
    expect((await source.patch(`/api/v1/tables/${id}`, [{ op: 'add', path: '/description', value: 'changed once more' }])).status).toBe(200);
    const state = await exported(source);
    const target = await startApp({ fixtures: 'none', at: NOW });
    await target.put('/__admin/state', state);
    const versions = (await target.get(`/api/v1/tables/${id}/versions`)).body.versions as string[];
    expect(versions.map((v) => (JSON.parse(v) as { version: number }).version)).toEqual([0.3, 0.2, 0.1]);
    expect((await target.get(`/api/v1/tables/${id}/versions/0.1`)).body.version).toBe(0.1);
    expect(versions.slice(1)).toEqual((await source.get(`/api/v1/tables/${id}/versions`)).body.versions.slice(1));
  });
});

describe('state import: what an older export lacks', () => {
  it("a table exported before columns were named gets its columns' FQNs, as a write gives them", async () => {
    const state = await exported(await demo());
    const table = state.entities.find((item) => item.type === 'table' && item.entity.fullyQualifiedName === ORDERS)!;
    const columns = table.entity.columns as { name: string; fullyQualifiedName?: string }[];
    expect(columns.length).toBeGreaterThan(2);
    for (const column of columns) delete column.fullyQualifiedName;
    const target = await startApp({ fixtures: 'none', at: NOW });
    await target.put('/__admin/state', state).expect(200);
    const read = (await target.get(`/api/v1/tables/${String(table.entity.id)}?fields=columns`).expect(200)).body as { columns: { name: string; fullyQualifiedName: string }[] };
    expect(read.columns.map((c) => c.fullyQualifiedName)).toEqual(columns.map((c) => `${ORDERS}.${c.name}`));
  });
});

describe('admin reset: the side data goes back to the fixtures', () => {
  it('reset drops side data written since the start, test case results included', async () => {
    const catalog = await demo();
    const before = await exported(catalog);
    await catalog.put(`/api/v1/dataQuality/testCases/testCaseResults/${ROW_COUNT_TEST}`, { timestamp: NOW - 1000, testCaseStatus: 'Failed' });
    await catalog.put(`/api/v1/tables/${tableId(catalog)}/sampleData`, { columns: ['order_id'], rows: [[1]] });
    await catalog.post('/__admin/reset');
    // Fresh ids after a reset: compare the shape, then the values by FQN.
    const lengths = (state: StateJson) => Object.values(state.sideData!.testCaseResults).map((l) => l.length);
    const after = await exported(catalog);
    expect(lengths(after)).toEqual(lengths(before));
    expect(Object.keys(after.sideData!.tables)).toHaveLength(4);
    const runs = await catalog.get(`/api/v1/dataQuality/testCases/testCaseResults/${ROW_COUNT_TEST}?startTs=0&endTs=${NOW}`);
    expect(runs.body.data.map((r: { testCaseStatus: string }) => r.testCaseStatus)).toEqual(['Success', 'Success', 'Success', 'Success', 'Success']);
    expect((await catalog.get(`/api/v1/tables/${tableId(catalog)}/sampleData`)).body.rows).toHaveLength(5);
  });

  it('reset with no fixtures leaves no side data at all', async () => {
    const catalog = await startApp({ fixtures: 'none', at: NOW });
    await catalog.put('/__admin/state', await exported(await demo()));
    await catalog.post('/__admin/reset');
    expect(nonEmptyGroups((await exported(catalog)).sideData)).toEqual([]);
  });
});

describe('state import: checked as a write would be, before anything is replaced', () => {
  type Item = StateJson['entities'][number];
  const containers = (state: StateJson): Item[] => state.entities.filter((e) => e.type === 'container' && e.parentId && e.entity.parent);
  const ref = (item: Item) => ({ id: item.entity.id, type: item.type, name: item.entity.name, fullyQualifiedName: item.entity.fullyQualifiedName });

  it.each<{ given: string; change: (state: StateJson) => void; want: RegExp }>([
    {
      given: 'a container that is its own parent',
      change: (state) => {
        const [c] = containers(state);
        c!.parentId = c!.entity.id;
        c!.entity.parent = ref(c!);
      },
      want: /contains itself: its parents come back to it/,
    },
    {
      given: 'two containers that are each other’s parent',
      change: (state) => {
        const [c] = containers(state);
        const p = state.entities.find((e) => e.entity.id === c!.parentId)!;
        p.parentId = c!.entity.id;
        p.entity.parent = ref(c!);
      },
      want: /contains itself: its parents come back to it/,
    },
    {
      given: 'a parent reference that loops though parentId does not',
      change: (state) => {
        const [c] = containers(state);
        c!.entity.parent = ref(c!);
      },
      want: /contains itself/,
    },
    {
      given: 'a parent that is not in the state',
      change: (state) => void (containers(state)[0]!.parentId = '00000000-0000-4000-8000-000000000000'),
      want: /its parent 00000000-0000-4000-8000-000000000000 is not in the state/,
    },
    {
      given: 'a parent reference to an entity of another kind',
      change: (state) => {
        const user = state.entities.find((e) => e.type === 'user')!;
        containers(state)[0]!.entity.parent = ref(user);
      },
      want: /its parent [0-9a-f-]+ is not a container of the state/,
    },
    { given: 'a type the server does not serve', change: (state) => void (state.entities[0]!.type = 'spaceship'), want: /spaceship is not an entity type this server serves/ },
    { given: 'an entity its schema refuses', change: (state) => void (containers(state)[0]!.entity.updatedAt = 'yesterday' as never), want: /^container .*: .*updatedAt/ },
    {
      given: 'an id twice',
      change: (state) => void state.entities.push(structuredClone({ ...state.entities[0]!, entity: { ...state.entities[0]!.entity, fullyQualifiedName: 'other' } })),
      want: /is exported twice/,
    },
    {
      given: 'an FQN twice in a kind',
      change: (state) => {
        const [a, b] = state.entities.filter((e) => e.type === 'user');
        b!.entity.fullyQualifiedName = a!.entity.fullyQualifiedName;
      },
      want: /is exported twice \(an FQN names one entity of a kind\)/,
    },
    {
      given: 'a data contract whose rule is over the limits a write keeps',
      change: (state) => void (state.entities.find((e) => e.type === 'dataContract')!.entity.semantics = [{ name: 'big', rule: `"${'x'.repeat(10_001)}"` }]),
      want: /Semantics rule big: The rule is longer than 10000 characters/,
    },
    {
      given: 'a live entity under a deleted one',
      change: (state) => {
        const [c] = containers(state);
        state.entities.find((e) => e.entity.id === c!.parentId)!.entity.deleted = true;
      },
      want: /The state is not sound: live under deleted/,
    },
  ])('given $given, want 400 and nothing changed', async ({ change, want }) => {
    const target = await demo();
    const before = await exported(target);
    const bad = structuredClone(before);
    change(bad);
    const res = await target.put('/__admin/state', bad);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(want);
    expect(await exported(target)).toEqual(before);
  });

  it('after a refused cyclic state, reads and a recursive delete of those containers answer as before', async () => {
    const target = await demo();
    const state = await exported(target);
    const [c] = containers(state);
    const bad = structuredClone(state);
    const p = bad.entities.find((e) => e.entity.id === c!.parentId)!;
    p.parentId = c!.entity.id;
    p.entity.parent = ref(c!);
    await target.put('/__admin/state', bad).expect(400);
    await target.get(`/api/v1/containers/${c!.entity.id}?fields=children,parent`).expect(200);
    await target.delete(`/api/v1/containers/${c!.parentId}?recursive=true`).expect(200);
  });
});
