/**
 * Lineage as data (docs/behaviour.md "Lineage"): the demo catalog's lineage from the lake through
 * the warehouse to the dashboards, the store dropping edges with their ends, and the names
 * column-level lineage may use.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';
import { namesBelow, nestedNames } from './children.ts';
import { EDGES } from './edges.ts';
import { fqnHash } from './graph.ts';

let demo: TestApp;
beforeAll(async () => {
  demo = await startApp({ at: T0, fixtures: 'default' });
}, SLOW_START);

const FACT = 'acme_snowflake.ecommerce_dw.sales.fact_orders';

describe('the demo catalog', () => {
  it('runs from the lake containers through the warehouse tables to the dashboards', async () => {
    const res = await demo.get(`/api/v1/lineage/getLineage?fqn=${encodeURIComponent('acme_s3.raw.orders')}&type=container&upstreamDepth=0&downstreamDepth=3`).expect(200);
    const types = Object.values(res.body.nodes as Record<string, { entity: { entityType: string } }>).map((n) => n.entity.entityType);
    expect(new Set(types)).toEqual(new Set(['container', 'table', 'dashboard', 'mlmodel']));
    expect(Object.keys(res.body.nodes)).toEqual(expect.arrayContaining(['acme_s3.raw.orders', FACT, 'acme_superset.sales_overview', 'acme_superset.support_health']));
  });

  it('the fact table has column lineage, its pipeline, and a dashboard downstream', async () => {
    const fact = demo.ctx.store.getByFqn('table', FACT)!;
    const res = await demo.get(`/api/v1/lineage/table/${fact.entity.id}`).expect(200);
    expect(res.body.upstreamEdges).toHaveLength(2);
    expect(res.body.upstreamEdges[0].lineageDetails).toMatchObject({
      pipeline: { fullyQualifiedName: 'acme_airflow.load_orders' },
      columnsLineage: expect.arrayContaining([expect.objectContaining({ toColumn: `${FACT}.order_id` })]),
    });
    expect(res.body.nodes.map((n: { fullyQualifiedName: string }) => n.fullyQualifiedName)).toContain('acme_superset.sales_overview');
  });

  it('the platform view joins the lake, the databases, the BI tool and the model registry', async () => {
    const res = await demo.get('/api/v1/lineage/getPlatformLineage?view=service').expect(200);
    const pairs = Object.values(res.body.upstreamEdges as Record<string, { fromEntity: { fullyQualifiedName: string }; toEntity: { fullyQualifiedName: string } }>).map(
      (e) => `${e.fromEntity.fullyQualifiedName}>${e.toEntity.fullyQualifiedName}`,
    );
    expect(pairs.sort()).toEqual(['acme_s3>acme_snowflake', 'acme_snowflake>acme_mlflow', 'acme_snowflake>acme_superset', 'shop_postgres>acme_snowflake']);
  });

  it('tables and dashboards have custom properties, and demo entities carry values', async () => {
    const fact = await demo.get(`/api/v1/tables/name/${FACT}?fields=extension`).expect(200);
    expect(fact.body.extension).toMatchObject({ retentionDays: 730, refreshCadence: ['hourly'], lastReviewed: '2025-10-01', dataSteward: { type: 'user', name: 'alice.nguyen' } });
    const dashboard = await demo.get('/api/v1/metadata/types/name/dashboard?fields=customProperties').expect(200);
    expect(dashboard.body.customProperties.map((p: { name: string }) => p.name)).toEqual(['audience', 'refreshCadence']);
  });
});

describe('the store keeps edges with their ends', () => {
  it(
    'removing an entity for good drops the edges that leave it, those that reach it, and the pipeline it runs',
    async () => {
      const c = await startApp({ at: T0, fixtures: 'default' });
      const store = c.ctx.store;
      const fact = store.getByFqn('table', FACT)!;
      const pipeline = store.getByFqn('pipeline', 'acme_airflow.load_orders')!;
      const edgeCount = () => [...store.sideValuesOf(EDGES)].reduce((n, [, edges]) => n + edges.length, 0);
      const before = edgeCount();
      const mentions = [...store.sideValuesOf(EDGES)].flatMap(([from, edges]) => edges.filter((e) => from === fact.entity.id || e.toEntity === fact.entity.id)).length;
      await c.delete(`/api/v1/pipelines/${pipeline.entity.id}?hardDelete=true`).expect((r) => expect([200, 204]).toContain(r.status));
      expect(edgeCount()).toBe(before);
      expect(JSON.stringify([...store.sideValuesOf(EDGES)])).not.toContain(pipeline.entity.id);
      await c.delete(`/api/v1/tables/${fact.entity.id}?hardDelete=true`).expect((r) => expect([200, 204]).toContain(r.status));
      expect(edgeCount()).toBe(before - mentions);
      expect(JSON.stringify([...store.sideValuesOf(EDGES)])).not.toContain(fact.entity.id);
    },
    SLOW_START,
  );
});

describe('--data keeps edges and custom properties across a restart', () => {
  it(
    'an edge added, one removed with its end, and a custom property are all in the journal',
    async () => {
      const dataFile = join(mkdtempSync(join(tmpdir(), 'ck-lineage-')), 'state.json');
      const first = await startApp({ at: T0, fixtures: 'default', dataFile });
      const fact = first.ctx.store.getByFqn('table', FACT)!;
      const refunds = first.ctx.store.getByFqn('table', 'acme_snowflake.ecommerce_dw.sales.fact_refunds')!;
      const model = first.ctx.store.getByFqn('mlmodel', 'acme_mlflow.churn_propensity')!;
      const forecast = first.ctx.store.getByFqn('mlmodel', 'acme_mlflow.demand_forecast')!.entity.id;
      await first.put('/api/v1/lineage', { edge: { fromEntity: { id: refunds.entity.id, type: 'table' }, toEntity: { id: model.entity.id, type: 'mlmodel' } } }).expect(200);
      await first.delete(`/api/v1/mlmodels/name/acme_mlflow.demand_forecast?hardDelete=true`).expect((r) => expect([200, 204]).toContain(r.status));
      const container = (await first.get('/api/v1/metadata/types/name/container').expect(200)).body as { id: string };
      const text = (await first.get('/api/v1/metadata/types/name/markdown').expect(200)).body as { id: string };
      await first.put(`/api/v1/metadata/types/${container.id}`, { name: 'notes', description: 'Free notes.', propertyType: { id: text.id, type: 'type' } }).expect(200);
      await new Promise((resolve) => setImmediate(resolve));
      first.dev.persister!.flush();

      const second = await startApp({ at: T0, fixtures: 'none', dataFile });
      const edges = (id: string) => [...second.ctx.store.sideValuesOf(EDGES)].find(([from]) => from === id)?.[1].map((e) => e.toEntity) ?? [];
      expect(edges(refunds.entity.id)).toContain(model.entity.id);
      expect(edges(fact.entity.id).length).toBeGreaterThan(0);
      expect(edges(fact.entity.id)).not.toContain(forecast);
      expect(edges(fact.entity.id)).toHaveLength([...first.ctx.store.sideValuesOf(EDGES)].find(([from]) => from === fact.entity.id)![1].length);
      const props = await second.get('/api/v1/metadata/types/name/container/customProperties').expect(200);
      expect(props.body.map((p: { name: string }) => p.name)).toEqual(['costCenter', 'notes']);
    },
    SLOW_START,
  );
});

describe('names column-level lineage may use', () => {
  it('nested columns as parent.child, a dotted name in quotes; charts below their dashboard', () => {
    const given = [
      { columns: [{ name: 'id' }, { name: 'address', children: [{ name: 'city' }, { name: 'zip.code' }] }], want: ['id', 'address', 'address.city', 'address."zip.code"'] },
      { columns: undefined, want: [] },
      { columns: [{ nameless: true }], want: [] },
    ];
    for (const { columns, want } of given) expect({ columns, names: nestedNames(columns) }).toEqual({ columns, names: want });
    expect(namesBelow('bi.dash', ['bi.dash.c1', 'bi.chart2', 7])).toEqual(['c1', 'bi.chart2']);
  });

  it("OpenMetadata's FQN hash: the MD5 of each part, joined by dots", () => {
    expect(fqnHash('a.b')).toBe('0cc175b9c0f1b6a831c399e269772661.92eb5ffee6ae2fec3ad71c777531578f');
    expect(fqnHash('svc."x.y"').split('.')).toHaveLength(2);
  });
});
