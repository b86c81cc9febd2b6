/**
 * Lineage against a running app (docs/behaviour.md "Lineage"; openapi/paths/lineage.yaml): a lake
 * container feeds a staging table, which a pipeline loads into a fact table, which feeds an
 * aggregate table and a dashboard.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';

let c: TestApp;
type Ref = { id: string; type: string; fqn: string };
const e: Record<string, Ref> = {};

async function create(key: string, type: string, collection: string, body: Record<string, unknown>): Promise<Ref> {
  const res = await c.put(`/api/v1/${collection}`, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`${collection}: ${res.status} ${JSON.stringify(res.body)}`);
  return (e[key] = { id: res.body.id as string, type, fqn: res.body.fullyQualifiedName as string });
}

const ref = (r: Ref) => ({ id: r.id, type: r.type });
const edge = (from: Ref, to: Ref, lineageDetails?: Record<string, unknown>) => ({
  edge: { fromEntity: ref(from), toEntity: ref(to), ...(lineageDetails ? { lineageDetails } : {}) },
});
const cols = (...names: string[]) => names.map((name) => ({ name, dataType: 'BIGINT' }));

beforeAll(async () => {
  c = await startApp({ at: T0 });
  c.clock.now = T0;
  await c.put('/api/v1/services/storageServices', { name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3' } } }).expect(201);
  await c.put('/api/v1/services/databaseServices', { name: 'wh', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } }).expect(201);
  await c.put('/api/v1/services/dashboardServices', { name: 'bi', serviceType: 'Superset', connection: { config: { type: 'Superset' } } }).expect(201);
  await c.put('/api/v1/services/pipelineServices', { name: 'etl', serviceType: 'Airflow', connection: { config: { type: 'Airflow' } } }).expect(201);
  await create('raw', 'container', 'containers', { name: 'raw_orders', service: 'lake', dataModel: { isPartitioned: false, columns: cols('order_id', 'amount') } });
  await c.put('/api/v1/databases', { name: 'db', service: 'wh' }).expect(201);
  await c.put('/api/v1/databaseSchemas', { name: 'sch', database: 'wh.db' }).expect(201);
  await create('stg', 'table', 'tables', { name: 'stg_orders', databaseSchema: 'wh.db.sch', columns: cols('order_id', 'amount') });
  await create('fact', 'table', 'tables', { name: 'fact_orders', databaseSchema: 'wh.db.sch', columns: cols('order_id', 'amount') });
  await create('agg', 'table', 'tables', { name: 'agg_daily', databaseSchema: 'wh.db.sch', columns: cols('day', 'revenue') });
  await create('chart', 'chart', 'charts', { name: 'revenue_chart', service: 'bi' });
  await create('dash', 'dashboard', 'dashboards', { name: 'revenue', service: 'bi', charts: ['bi.revenue_chart'] });
  await create('pipe', 'pipeline', 'pipelines', { name: 'load_orders', service: 'etl' });
  await c.put('/api/v1/lineage', edge(e.raw!, e.stg!)).expect(200);
  await c
    .put(
      '/api/v1/lineage',
      edge(e.stg!, e.fact!, {
        sqlQuery: 'insert into fact_orders select * from stg_orders',
        pipeline: ref(e.pipe!),
        columnsLineage: [{ fromColumns: [`${e.stg!.fqn}.order_id`], toColumn: `${e.fact!.fqn}.order_id` }],
      }),
    )
    .expect(200);
  await c.put('/api/v1/lineage', edge(e.fact!, e.agg!)).expect(200);
  await c.put('/api/v1/lineage', edge(e.agg!, e.dash!)).expect(200);
}, SLOW_START);

describe('adding an edge (PUT /v1/lineage)', () => {
  it('stores the details with who and when, and the source defaults to Manual', async () => {
    const res = await c.get(`/api/v1/lineage/getLineageEdge/${e.stg!.id}/${e.fact!.id}`).expect(200);
    expect(res.body.edge).toMatchObject({
      sqlQuery: 'insert into fact_orders select * from stg_orders',
      source: 'Manual',
      createdBy: 'admin',
      createdAt: T0,
      updatedBy: 'admin',
      pipeline: { id: e.pipe!.id, type: 'pipeline', fullyQualifiedName: 'etl.load_orders' },
    });
  });

  it('refuses what the real server refuses (given a body, want the status and message)', async () => {
    const deleted = await create('gone', 'table', 'tables', { name: 'gone', databaseSchema: 'wh.db.sch', columns: cols('a') });
    await c.delete(`/api/v1/tables/${deleted.id}`).expect((r) => expect([200, 204]).toContain(r.status));
    const cases: { given: unknown; status: number; message?: string }[] = [
      {
        given: edge({ ...e.stg!, id: '00000000-0000-4000-8000-000000000000' }, e.fact!),
        status: 404,
        message: 'table instance for 00000000-0000-4000-8000-000000000000 not found',
      },
      { given: edge({ ...e.stg!, type: 'dashboard' }, e.fact!), status: 404 },
      { given: edge(deleted, e.fact!), status: 404 },
      { given: edge(e.stg!, e.stg!), status: 400, message: `An entity cannot be upstream of itself: table ${e.stg!.fqn}` },
      { given: edge(e.chart!, e.fact!), status: 400, message: 'Unsupported Entity Type chart for lineage' },
      {
        given: edge(e.stg!, e.fact!, { columnsLineage: [{ fromColumns: [`${e.stg!.fqn}.nope`], toColumn: `${e.fact!.fqn}.order_id` }] }),
        status: 400,
        message: `Invalid column name ${e.stg!.fqn}.nope`,
      },
      {
        given: edge(e.stg!, e.fact!, { columnsLineage: [{ fromColumns: [`${e.stg!.fqn}.amount`], toColumn: `${e.fact!.fqn}.day` }] }),
        status: 400,
        message: `Invalid column name ${e.fact!.fqn}.day`,
      },
      { given: edge(e.stg!, e.fact!, { pipeline: { id: e.chart!.id, type: 'pipeline' } }), status: 404 },
      { given: edge(e.stg!, e.fact!, { source: 'Guesswork' }), status: 400 },
      { given: { edge: { fromEntity: ref(e.stg!) } }, status: 400 },
    ];
    for (const { given, status, message } of cases) {
      const res = await c.put('/api/v1/lineage', given);
      expect({ given, status: res.status, ...(message ? { message: res.body.message } : {}) }).toEqual({ given, status, ...(message ? { message } : {}) });
    }
    // Nothing refused was stored: the staging table still has its one downstream edge.
    const graph = await c.get(`/api/v1/lineage/table/${e.stg!.id}?upstreamDepth=0`).expect(200);
    expect(graph.body.downstreamEdges).toHaveLength(1);
  });

  it('a column lineage may name a container column and a dashboard chart', async () => {
    await c.put('/api/v1/lineage', edge(e.raw!, e.stg!, { columnsLineage: [{ fromColumns: [`${e.raw!.fqn}.amount`], toColumn: `${e.stg!.fqn}.amount` }] })).expect(200);
    await c.put('/api/v1/lineage', edge(e.agg!, e.dash!, { columnsLineage: [{ fromColumns: [`${e.agg!.fqn}.revenue`], toColumn: 'bi.revenue_chart' }] })).expect(200);
  });

  it('roles: a DataConsumer may not add or remove edges, a DataSteward may (editing lineage is an edit)', async () => {
    await c.put('/api/v1/lineage', edge(e.fact!, e.dash!), c.tokens.consumer).expect(403);
    await c.put('/api/v1/lineage', edge(e.fact!, e.dash!), c.tokens.steward).expect(200);
    await c.delete(`/api/v1/lineage/table/${e.fact!.id}/dashboard/${e.dash!.id}`, c.tokens.consumer).expect(403);
    await c.delete(`/api/v1/lineage/table/${e.fact!.id}/dashboard/${e.dash!.id}`, c.tokens.steward).expect(200);
    await c.get(`/api/v1/lineage/table/${e.fact!.id}`, c.tokens.consumer).expect(200);
  });

  it('makes no new version of either end', async () => {
    const res = await c.get(`/api/v1/tables/${e.fact!.id}`).expect(200);
    expect(res.body.version).toBe(0.1);
  });
});

describe('reading the graph by id and by name (EntityLineage)', () => {
  const names = (refs: { fullyQualifiedName?: string }[]) => refs.map((r) => r.fullyQualifiedName).sort();

  it('upstreamDepth / downstreamDepth hops (given depths, want the nodes)', async () => {
    const cases = [
      { up: 1, down: 1, want: [e.agg!.fqn, e.stg!.fqn] },
      { up: 2, down: 0, want: [e.raw!.fqn, e.stg!.fqn] },
      { up: 0, down: 2, want: [e.agg!.fqn, 'bi.revenue'] },
      { up: 0, down: 0, want: [] },
      { up: 3, down: 3, want: [e.agg!.fqn, 'bi.revenue', e.raw!.fqn, e.stg!.fqn] },
    ];
    for (const { up, down, want } of cases) {
      const res = await c.get(`/api/v1/lineage/table/${e.fact!.id}?upstreamDepth=${up}&downstreamDepth=${down}`).expect(200);
      expect({ up, down, nodes: names(res.body.nodes) }).toEqual({ up, down, nodes: [...want].sort() });
    }
  });

  it('by name gives the same graph; edges are by id with their details', async () => {
    const byId = await c.get(`/api/v1/lineage/table/${e.fact!.id}`).expect(200);
    const byName = await c.get(`/api/v1/lineage/table/name/${encodeURIComponent(e.fact!.fqn)}`).expect(200);
    expect(byName.body).toEqual(byId.body);
    expect(byId.body.entity).toMatchObject({ id: e.fact!.id, type: 'table' });
    expect(byId.body.upstreamEdges).toEqual([
      expect.objectContaining({ fromEntity: e.stg!.id, toEntity: e.fact!.id, lineageDetails: expect.objectContaining({ columnsLineage: expect.any(Array) }) }),
    ]);
    expect(byId.body.downstreamEdges).toEqual([expect.objectContaining({ fromEntity: e.fact!.id, toEntity: e.agg!.id })]);
  });

  it('404 for an unknown entity or type, 400 for a depth over 3', async () => {
    await c.get('/api/v1/lineage/table/00000000-0000-4000-8000-000000000000').expect(404);
    await c.get(`/api/v1/lineage/dashboard/${e.fact!.id}`).expect(404);
    await c.get('/api/v1/lineage/table/name/no.such.table').expect(404);
    await c.get(`/api/v1/lineage/table/${e.fact!.id}?upstreamDepth=4`).expect(400);
  });
});

describe('the lineage page (getLineage)', () => {
  it('nodes by FQN with depth (negative upstream) and edge counts, edges by docId', async () => {
    const res = await c.get(`/api/v1/lineage/getLineage?fqn=${encodeURIComponent(e.fact!.fqn)}&type=table&upstreamDepth=2&downstreamDepth=1`).expect(200);
    const depths = Object.fromEntries(Object.entries(res.body.nodes as Record<string, { nodeDepth: number }>).map(([fqn, n]) => [fqn, n.nodeDepth]));
    expect(depths).toEqual({ [e.fact!.fqn]: 0, [e.stg!.fqn]: -1, [e.raw!.fqn]: -2, [e.agg!.fqn]: 1 });
    expect(res.body.nodes[e.fact!.fqn]).toMatchObject({
      entity: { id: e.fact!.id, entityType: 'table', name: 'fact_orders' },
      paging: { entityUpstreamCount: 1, entityDownstreamCount: 1 },
    });
    const upstream = res.body.upstreamEdges as Record<string, { fromEntity: { fullyQualifiedName: string }; pipelineEntityType?: string; columns?: unknown[] }>;
    const viaPipeline = `${e.stg!.fqn}--->pipeline:${e.pipe!.id}--->${e.fact!.fqn}`;
    expect(Object.keys(upstream).sort()).toEqual([`${e.raw!.fqn}--->${e.stg!.fqn}`, viaPipeline].sort());
    expect(upstream[viaPipeline]).toMatchObject({
      pipelineEntityType: 'pipeline',
      columns: [{ fromColumns: [`${e.stg!.fqn}.order_id`] }],
      fromEntity: { fqnHash: expect.stringMatching(/^[0-9a-f]{32}(\.[0-9a-f]{32}){3}$/) },
    });
    expect(Object.keys(res.body.downstreamEdges)).toEqual([`${e.fact!.fqn}--->${e.agg!.fqn}`]);
  });

  it('a direction keeps one side; type=pipeline reads the lineage through the pipeline', async () => {
    const up = await c.get(`/api/v1/lineage/getLineage/Upstream?fqn=${encodeURIComponent(e.fact!.fqn)}&upstreamDepth=3`).expect(200);
    expect(Object.keys(up.body.downstreamEdges)).toEqual([]);
    expect(Object.keys(up.body.nodes).sort()).toEqual([e.fact!.fqn, e.raw!.fqn, e.stg!.fqn].sort());
    const via = await c.get('/api/v1/lineage/getLineage?fqn=etl.load_orders&type=pipeline&upstreamDepth=1&downstreamDepth=1').expect(200);
    expect(Object.keys(via.body.nodes).sort()).toEqual(['etl.load_orders', e.fact!.fqn, e.stg!.fqn].sort());
  });

  it('fields narrows what a node shows; query_filter must be JSON; an unknown FQN is 404', async () => {
    const res = await c.get(`/api/v1/lineage/getLineage?fqn=${encodeURIComponent(e.fact!.fqn)}&fields=description`).expect(200);
    expect(Object.keys(res.body.nodes[e.fact!.fqn].entity).sort()).toEqual(['entityType', 'fullyQualifiedName', 'id', 'name', 'service']);
    const bad = await c.get(`/api/v1/lineage/getLineage?fqn=${encodeURIComponent(e.fact!.fqn)}&query_filter=%7Bnot`).expect(400);
    expect(bad.body.message).toMatch(/^Invalid query_filter/);
    await c.get('/api/v1/lineage/getLineage?fqn=no.such').expect(404);
  });
});

describe('impact analysis, counts, platform view, failing tests, export', () => {
  it('getLineageByEntityCount pages one side nearest first; getPaginationInfo counts per depth', async () => {
    const page = await c.get(`/api/v1/lineage/getLineageByEntityCount?fqn=${encodeURIComponent(e.raw!.fqn)}&direction=Downstream&from=0&size=2`).expect(200);
    expect(Object.keys(page.body.nodes).sort()).toEqual([e.raw!.fqn, e.stg!.fqn, e.fact!.fqn].sort());
    expect(Object.keys(page.body.downstreamEdges)).toHaveLength(2);
    const atDepth = await c.get(`/api/v1/lineage/getLineageByEntityCount?fqn=${encodeURIComponent(e.raw!.fqn)}&direction=Downstream&nodeDepth=1&from=0&size=10`).expect(200);
    expect(Object.keys(atDepth.body.nodes).sort()).toEqual([e.raw!.fqn, e.stg!.fqn].sort());
    const info = await c.get(`/api/v1/lineage/getPaginationInfo?fqn=${encodeURIComponent(e.fact!.fqn)}`).expect(200);
    expect(info.body).toEqual({
      totalUpstreamEntities: 2,
      totalDownstreamEntities: 2,
      upstreamDepthInfo: [
        { depth: 1, entityCount: 1 },
        { depth: 2, entityCount: 1 },
      ],
      downstreamDepthInfo: [
        { depth: 1, entityCount: 1 },
        { depth: 2, entityCount: 1 },
      ],
      maxUpstreamDepth: 2,
      maxDownstreamDepth: 2,
    });
  });

  it('the service view joins services whose assets are joined, counting the asset edges', async () => {
    const res = await c.get('/api/v1/lineage/getPlatformLineage?view=service').expect(200);
    expect(Object.keys(res.body.nodes)).toEqual(expect.arrayContaining(['lake', 'wh', 'bi', 'etl']));
    const edges = Object.values(
      res.body.upstreamEdges as Record<string, { fromEntity: { fullyQualifiedName: string }; toEntity: { fullyQualifiedName: string }; assetEdges: number; source: string }>,
    );
    const pairs = edges.map((x) => `${x.fromEntity.fullyQualifiedName}>${x.toEntity.fullyQualifiedName}:${x.assetEdges}`).sort();
    expect(pairs).toEqual(['lake>wh:1', 'wh>bi:1']);
    expect(edges.every((x) => x.source === 'ChildAssets')).toBe(true);
    await c.get('/api/v1/lineage/getPlatformLineage?view=galaxy').expect(400);
  });

  it('data quality lineage: the upstream entities whose latest test failed, and the edges down from them', async () => {
    await c.put('/api/v1/dataQuality/testDefinitions', { name: 'tableRowCountToBeBetween', entityType: 'TABLE', testPlatforms: ['OpenMetadata'] }).expect(201);
    const tc = await c.post('/api/v1/dataQuality/testCases', { name: 'rows', entityLink: `<#E::table::${e.stg!.fqn}>`, testDefinition: 'tableRowCountToBeBetween' }).expect(201);
    await c
      .put(`/api/v1/dataQuality/testCases/testCaseResults/${encodeURIComponent(tc.body.fullyQualifiedName as string)}`, { timestamp: T0, testCaseStatus: 'Failed' })
      .expect(200);
    const res = await c.get(`/api/v1/lineage/getDataQualityLineage?fqn=${encodeURIComponent(e.agg!.fqn)}&upstreamDepth=2`).expect(200);
    expect(res.body.nodes.map((n: { fullyQualifiedName: string }) => n.fullyQualifiedName)).toEqual([e.stg!.fqn]);
    expect(res.body.edges.map((x: { docId: string }) => x.docId).sort()).toEqual(
      [`${e.fact!.fqn}--->${e.agg!.fqn}`, `${e.stg!.fqn}--->pipeline:${e.pipe!.id}--->${e.fact!.fqn}`].sort(),
    );
  });

  it('export: one CSV row per column mapping, else per edge; the async variants answer 202 with a job', async () => {
    const csv = await c.get(`/api/v1/lineage/export?fqn=${encodeURIComponent(e.fact!.fqn)}&upstreamDepth=1&downstreamDepth=1`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/plain/);
    const lines = (csv.text as string).trim().split('\n');
    expect(lines[0]).toBe(
      'fromEntityFQN,fromServiceName,fromServiceType,fromOwners,fromDomain,toEntityFQN,toServiceName,toServiceType,toOwners,toDomain,fromChildEntityFQN,toChildEntityFQN,pipelineName,pipelineDisplayName,pipelineType,pipelineDescription,pipelineOwners,pipelineDomain,pipelineServiceName,pipelineServiceType',
    );
    expect(lines.slice(1)).toEqual([
      `${e.stg!.fqn},wh,Mysql,,,${e.fact!.fqn},wh,Mysql,,,${e.stg!.fqn}.order_id,${e.fact!.fqn}.order_id,,,,,,,,`,
      `${e.fact!.fqn},wh,Mysql,,,${e.agg!.fqn},wh,Mysql,,,,,,,,,,,,`,
    ]);
    const job = await c.get(`/api/v1/lineage/exportAsync?fqn=${encodeURIComponent(e.fact!.fqn)}`).expect(202);
    expect(job.body).toEqual({ jobId: expect.any(String), message: 'Export initiated successfully.' });
    await c.get(`/api/v1/lineage/exportByEntityCountAsync?fqn=${encodeURIComponent(e.fact!.fqn)}&direction=Upstream`).expect(202);
  });
});

describe('hydrate (OpenMetadata 2.0 POST /v1/lineage/hydrate)', () => {
  it('answers the nodes of a graph whole, by type, with the fields asked for; what is not there is dropped and counted', async () => {
    const graph = (await c.get(`/api/v1/lineage/table/${e.fact!.id}`).expect(200)).body as { nodes: { id: string; type?: string }[]; entity: { id: string } };
    const nodes = [{ id: e.fact!.id, type: 'table' }, ...graph.nodes.map((n) => ({ id: n.id, type: n.type ?? '' }))];
    const res = await c
      .post('/api/v1/lineage/hydrate', {
        entities: [...nodes, { id: '00000000-0000-4000-8000-000000000000', type: 'table' }, { id: e.pipe!.id, type: 'nothing' }],
        fields: 'owners,columns,charts',
      })
      .expect(200);
    const byType = res.body.entitiesByType as Record<string, { id: string; owners?: unknown; columns?: unknown }[]>;
    expect(res.body.droppedCount).toBe(2);
    expect(byType.table!.map((t) => t.id).sort()).toEqual(
      nodes
        .filter((n) => n.type === 'table')
        .map((n) => n.id)
        .sort(),
    );
    expect(byType.table!.every((t) => Array.isArray(t.owners) && Array.isArray(t.columns))).toBe(true);
    await c.post('/api/v1/lineage/hydrate', { entities: [] }).expect(400);
  });
});

describe('edges and the lifecycle of their ends', () => {
  it('a soft-deleted end hides its edges; a restore brings them back; a hard delete removes them', async () => {
    const a = await create('a', 'table', 'tables', { name: 'life_a', databaseSchema: 'wh.db.sch', columns: cols('x') });
    const b = await create('b', 'table', 'tables', { name: 'life_b', databaseSchema: 'wh.db.sch', columns: cols('x') });
    await c.put('/api/v1/lineage', edge(a, b)).expect(200);
    const downstream = async () => (await c.get(`/api/v1/lineage/table/${a.id}`).expect(200)).body.downstreamEdges as unknown[];
    expect(await downstream()).toHaveLength(1);
    await c.delete(`/api/v1/tables/${b.id}`).expect((r) => expect([200, 204]).toContain(r.status));
    expect(await downstream()).toHaveLength(0);
    const withDeleted = await c.get(`/api/v1/lineage/getLineage?fqn=${encodeURIComponent(a.fqn)}&includeDeleted=true`).expect(200);
    expect(Object.keys(withDeleted.body.downstreamEdges)).toHaveLength(1);
    await c.put('/api/v1/tables/restore', { id: b.id }).expect(200);
    expect(await downstream()).toHaveLength(1);
    await c.delete(`/api/v1/tables/${b.id}?hardDelete=true`).expect((r) => expect([200, 204]).toContain(r.status));
    expect(await downstream()).toHaveLength(0);
    const state = await request(c.app).get('/__admin/state').expect(200);
    expect(JSON.stringify(state.body.sideData.lineage)).not.toContain(b.id);
  });

  it('delete by id and by name; a missing edge is 404 Lineage edge not found', async () => {
    const a = await create('c', 'table', 'tables', { name: 'del_a', databaseSchema: 'wh.db.sch', columns: cols('x') });
    const b = await create('d', 'table', 'tables', { name: 'del_b', databaseSchema: 'wh.db.sch', columns: cols('x') });
    await c.put('/api/v1/lineage', edge(a, b)).expect(200);
    await c.delete(`/api/v1/lineage/table/${a.id}/table/${b.id}`).expect(200);
    const missing = await c.delete(`/api/v1/lineage/table/${a.id}/table/${b.id}`).expect(404);
    expect(missing.body.message).toBe('Lineage edge not found');
    await c.put('/api/v1/lineage', edge(a, b)).expect(200);
    await c.delete(`/api/v1/lineage/table/name/${encodeURIComponent(a.fqn)}/table/name/${encodeURIComponent(b.fqn)}`).expect(200);
    await c.get(`/api/v1/lineage/getLineageEdge/${a.id}/${b.id}`).expect(404);
    await c.delete(`/api/v1/lineage/table/00000000-0000-4000-8000-000000000000/table/${b.id}`).expect(404);
  });

  it('adding, replacing and removing an edge records entityLineageAdded, entityLineageUpdated and entityLineageDeleted (OpenMetadata 2.0)', async () => {
    const a = await create('ev_a', 'table', 'tables', { name: 'ev_a', databaseSchema: 'wh.db.sch', columns: cols('x') });
    const b = await create('ev_b', 'table', 'tables', { name: 'ev_b', databaseSchema: 'wh.db.sch', columns: cols('x') });
    await c.put('/api/v1/lineage', edge(a, b)).expect(200);
    await c.put('/api/v1/lineage', { edge: { ...edge(a, b).edge, description: 'again' } }).expect(200);
    await c.delete(`/api/v1/lineage/table/${a.id}/table/${b.id}`).expect(200);
    const all = (await c.get('/api/v1/events?entityUpdated=lineage').expect(200)).body.data as Record<string, unknown>[];
    const events = all.filter((ev) => ev.entityId === b.id);
    expect(events.map((ev) => [ev.eventType, ev.entityType, ev.entityFullyQualifiedName, ev.entityId])).toEqual(
      ['entityLineageAdded', 'entityLineageUpdated', 'entityLineageDeleted'].map((type) => [type, 'lineage', `${a.fqn}--upstream-->${b.fqn}`, b.id]),
    );
    expect(events[1]!.entity).toMatchObject({ fromEntity: { id: a.id, type: 'table' }, toEntity: { id: b.id, type: 'table' }, description: 'again' });
    // Not about a table: a list of the tables' updates leaves them out.
    const tables = (await c.get('/api/v1/events?entityUpdated=table').expect(200)).body.data as Record<string, unknown>[];
    expect(tables.filter((ev) => String(ev.eventType).startsWith('entityLineage'))).toEqual([]);
  });

  it('profile openmetadata-1.10 records no lineage events', async () => {
    const old = await startApp({ profile: 'openmetadata-1.10' });
    try {
      await old.put('/api/v1/services/databaseServices', { name: 'wh', serviceType: 'Mysql' }).expect(201);
      await old.put('/api/v1/databases', { name: 'db', service: 'wh' }).expect(201);
      await old.put('/api/v1/databaseSchemas', { name: 'sch', database: 'wh.db' }).expect(201);
      const [x, y] = await Promise.all(
        ['x', 'y'].map(async (name) => (await old.put('/api/v1/tables', { name, databaseSchema: 'wh.db.sch', columns: cols('c') }).expect(201)).body),
      );
      await old.put('/api/v1/lineage', { edge: { fromEntity: { id: x.id, type: 'table' }, toEntity: { id: y.id, type: 'table' } } }).expect(200);
      const events = (await old.get('/api/v1/events?entityUpdated=*&entityCreated=*').expect(200)).body.data as Record<string, unknown>[];
      expect(events.filter((ev) => String(ev.eventType).startsWith('entityLineage'))).toEqual([]);
    } finally {
      await old.close();
    }
  });

  it('the state export carries the edges, and an import brings them back', async () => {
    const exported = (await request(c.app).get('/__admin/state').expect(200)).body;
    expect(exported.sideData.lineage[e.stg!.id]).toEqual([expect.objectContaining({ fromEntity: e.stg!.id, toEntity: e.fact!.id })]);
    await c.put('/api/v1/lineage', edge(e.raw!, e.agg!)).expect(200);
    await request(c.app).put('/__admin/state').send(exported).expect(200);
    const graph = await c.get(`/api/v1/lineage/container/${e.raw!.id}?upstreamDepth=0`).expect(200);
    expect(graph.body.downstreamEdges.map((x: { toEntity: string }) => x.toEntity)).toEqual([e.stg!.id]);
    const bad = structuredClone(exported);
    bad.sideData.lineage['00000000-0000-4000-8000-000000000000'] = [];
    await request(c.app).put('/__admin/state').send(bad).expect(400);
  });
});
