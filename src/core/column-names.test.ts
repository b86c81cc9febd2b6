/**
 * Every column of a table, a dashboard data model or a container's data model is named by the
 * server, `<entity FQN>.<column>` and `<column FQN>.<child>`, on create and on every change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../test/kit.ts';
import { createTable, SLOW_START, startApp, v1 } from '../../test/kit.ts';
import { KINDS } from '../kinds/index.ts';
import { namedColumns, withNamedColumns } from './column-names.ts';
import type { Entity, Schemas } from './entity.ts';

type Column = Schemas['Column'];
const col = (name: string, extra: Partial<Column> = {}): Column => ({ name, dataType: 'INT', ...extra });

describe('namedColumns: each column named below its parent, nested ones below their column', () => {
  it.each([
    // given: parent FQN and columns; want: the FQNs, depth first
    { name: 'a column', parent: 'svc.db.sch.t', columns: [col('id')], want: ['svc.db.sch.t.id'] },
    { name: 'a nested column', parent: 't', columns: [col('address', { dataType: 'STRUCT', children: [col('city')] })], want: ['t.address', 't.address.city'] },
    { name: 'a name with a dot, quoted', parent: 't', columns: [col('a.b')], want: ['t."a.b"'] },
    { name: 'a name with a quote, as it is', parent: 't', columns: [col('a"b')], want: ['t.a"b'] },
    { name: 'a wrong FQN given', parent: 't', columns: [col('id', { fullyQualifiedName: 'elsewhere.id' })], want: ['t.id'] },
  ])('$name', ({ parent, columns, want }) => {
    const fqns = (list: readonly Column[]): string[] => list.flatMap((c) => [c.fullyQualifiedName!, ...fqns(c.children ?? [])]);
    expect(fqns(namedColumns(parent, columns))).toEqual(want);
  });

  it('copies what it names and returns columns already named as they are (stored columns are frozen)', () => {
    const given = Object.freeze([Object.freeze(col('id'))]);
    const named = namedColumns('t', given);
    expect([named === given, given[0]!.fullyQualifiedName]).toEqual([false, undefined]);
    expect(namedColumns('t', named)).toBe(named);
  });

  it.each([
    // given: the kind; want: where its columns are
    { type: 'table', entity: { fullyQualifiedName: 's.d.c.t', columns: [col('id')] }, at: (e: Body) => e.columns },
    { type: 'dashboardDataModel', entity: { fullyQualifiedName: 'bi.model.m', columns: [col('id')] }, at: (e: Body) => e.columns },
    { type: 'container', entity: { fullyQualifiedName: 's3.bucket', dataModel: { isPartitioned: true, columns: [col('id')] } }, at: (e: Body) => (e.dataModel as Body).columns },
    {
      type: 'topic',
      entity: { fullyQualifiedName: 'kafka.orders', messageSchema: { schemaType: 'Avro', schemaFields: [col('id')] } },
      at: (e: Body) => (e.messageSchema as Body).schemaFields,
    },
    { type: 'apiEndpoint', entity: { fullyQualifiedName: 'api.c.get', responseSchema: { schemaFields: [col('id')] } }, at: (e: Body) => (e.responseSchema as Body).schemaFields },
  ])("withNamedColumns: a $type's columns", ({ type, entity, at }) => {
    const def = KINDS.find((k) => k.type === type)!;
    const named = withNamedColumns(def, entity as unknown as Entity) as unknown as Body;
    expect((at(named) as Column[])[0]!.fullyQualifiedName).toBe(`${entity.fullyQualifiedName}.id`);
    expect(named).not.toBe(entity);
  });

  it.each([
    // given: the kind and an entity; want: the entity itself back
    { name: 'a kind without columns', type: 'topic', entity: { fullyQualifiedName: 'kafka.orders' } },
    { name: 'an entity without any', type: 'table', entity: { fullyQualifiedName: 's.d.c.t' } },
    { name: 'columns named already', type: 'table', entity: { fullyQualifiedName: 't', columns: [col('id', { fullyQualifiedName: 't.id' })] } },
  ])('withNamedColumns leaves $name as it is', ({ type, entity }) => {
    expect(
      withNamedColumns(
        KINDS.find((k) => k.type === type)!,
        entity as unknown as Entity,
      ),
    ).toBe(entity);
  });
});

describe('through the API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  }, SLOW_START);

  const fqnsOf = (columns: unknown): string[] => (columns as Column[]).flatMap((c) => [c.fullyQualifiedName!, ...fqnsOf(c.children ?? [])]);

  it('a column a PUT adds and a nested column a PATCH adds are named; GET shows them', async () => {
    const table = await createTable(app);
    expect(fqnsOf(table.body.columns)).toEqual([`${table.fqn}.order_id`, `${table.fqn}.amount`]);
    const put = await app.put(v1('tables'), { name: table.name, databaseSchema: 'svc.db.sch', columns: [...(table.body.columns as Column[]), col('note')] });
    expect(put.status).toBe(200);
    expect(fqnsOf(put.body.columns)).toEqual([`${table.fqn}.order_id`, `${table.fqn}.amount`, `${table.fqn}.note`]);
    const patch = await app.patch(v1('tables', `/${table.id}`), [{ op: 'add', path: '/columns/-', value: col('address', { dataType: 'STRUCT', children: [col('city')] }) }]);
    expect(patch.status).toBe(200);
    const got = await app.get(v1('tables', `/${table.id}?fields=columns`));
    expect(fqnsOf(got.body.columns)).toEqual([`${table.fqn}.order_id`, `${table.fqn}.amount`, `${table.fqn}.note`, `${table.fqn}.address`, `${table.fqn}.address.city`]);
  });

  it("a PATCH that only changes a column's FQN changes nothing", async () => {
    const table = await createTable(app);
    const patch = await app.patch(v1('tables', `/${table.id}`), [{ op: 'replace', path: '/columns/0/fullyQualifiedName', value: 'somewhere.else' }]);
    expect([patch.status, patch.body.version, patch.body.columns[0].fullyQualifiedName]).toEqual([200, 0.1, `${table.fqn}.order_id`]);
  });

  it("a topic's schema fields and an API endpoint's request and response fields are named", async () => {
    await app.put(v1('services/messagingServices'), { name: 'kafka', serviceType: 'Kafka', connection: { config: { type: 'Kafka' } } });
    const field = { name: 'order', dataType: 'RECORD', children: [{ name: 'id', dataType: 'LONG' }] };
    const topic = await app.create('topics', {
      name: app.unique('t'),
      service: 'kafka',
      partitions: 1,
      messageSchema: { schemaType: 'Avro', schemaText: '{}', schemaFields: [field] },
    });
    const fqn = String(topic.fullyQualifiedName);
    expect(fqnsOf((topic.messageSchema as Body).schemaFields)).toEqual([`${fqn}.order`, `${fqn}.order.id`]);
    await app.put(v1('services/apiServices'), { name: 'api', serviceType: 'Rest', connection: { config: { type: 'Rest', openAPISchemaURL: 'https://api.example/openapi.json' } } });
    await app.put(v1('apiCollections'), { name: 'orders', service: 'api' });
    const endpoint = await app.create('apiEndpoints', {
      name: app.unique('e'),
      apiCollection: 'api.orders',
      endpointURL: 'https://api.example/orders',
      requestSchema: { schemaFields: [{ name: 'q', dataType: 'STRING' }] },
      responseSchema: { schemaFields: [field] },
    });
    const at = String(endpoint.fullyQualifiedName);
    expect([fqnsOf((endpoint.requestSchema as Body).schemaFields), fqnsOf((endpoint.responseSchema as Body).schemaFields)]).toEqual([
      [`${at}.q`],
      [`${at}.order`, `${at}.order.id`],
    ]);
  });

  it("a dashboard data model's and a container's data model columns are named", async () => {
    await app.put(v1('services/dashboardServices'), { name: 'bi', serviceType: 'Superset', connection: { config: { type: 'Superset' } } });
    const model = await app.create('dashboard/datamodels', { name: app.unique('m'), service: 'bi', dataModelType: 'SupersetDataModel', columns: [col('id')] });
    expect(fqnsOf(model.columns)).toEqual([`${String(model.fullyQualifiedName)}.id`]);
    await app.put(v1('services/storageServices'), { name: 's3', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    const container = await app.create('containers', { name: app.unique('c'), service: 's3', dataModel: { isPartitioned: false, columns: [col('id')] } });
    const got = await app.get(v1('containers', `/${String(container.id)}?fields=dataModel`));
    expect(fqnsOf((got.body.dataModel as Body).columns)).toEqual([`${String(container.fullyQualifiedName)}.id`]);
  });
});
