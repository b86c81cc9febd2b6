/**
 * What OpenMetadata keeps beside an entity of the interface's kinds, each a round trip: a
 * container's sample data and its children, a database's and a schema's profiler configuration.
 * The entity's version never changes for them.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS } from '../kinds.ts';
import type { Model, ModelEntity } from '../model.ts';
import { createEntity, tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';

/** The fields of `sub`, each equal (as JSON) in `whole`. */
function holds(whole: unknown, sub: Record<string, unknown>): boolean {
  const w = asObject(whole);
  return !!w && Object.entries(sub).every(([k, v]) => JSON.stringify(w[k]) === JSON.stringify(v));
}

/**
 * PUT `path` with `body`, then GET: both answer the entity with `field` holding `body`; DELETE,
 * then GET: the entity without `field`. Every answer keeps the entity's version.
 */
async function roundTrip(s: Session, rule: string, e: Holder, path: string, field: string, body: Record<string, unknown>): Promise<void> {
  const c = s.checker;
  const entityWith = (ex: Exchange, present: boolean) => {
    const got = asObject(ex.json);
    return ex.status === 200 && got?.id === e.id && (e.version === null || got.version === e.version) && (present ? holds(got[field], body) : got[field] == null);
  };
  const show = (ex: Exchange) => `${ex.status} ${ex.responseText.slice(0, 300)}`;
  const version = `version ${String(e.version)}`;
  for (const [method, present, what] of [
    ['PUT', true, `PUT ${path}: 200, ${describeEntity(e)} with ${field} ${JSON.stringify(body)}, ${version}`],
    ['GET', true, `GET ${path} after PUT: ${describeEntity(e)} with that ${field}, ${version}`],
    ['DELETE', false, `DELETE ${path}: 200, ${describeEntity(e)} without ${field}, ${version}`],
    ['GET', false, `GET ${path} after DELETE: ${describeEntity(e)} without ${field}, ${version}`],
  ] as const) {
    const ex = await s.send({ method, path, body: method === 'PUT' ? body : undefined });
    c.check(rule, entityWith(ex, present), what, () => show(ex), ex);
  }
}

/** The entity a side-data round trip is about. */
interface Holder {
  id: string;
  fqn: string;
  version: number | null;
  kind: { id: string };
}

function describeEntity(e: Holder): string {
  return `${e.kind.id} ${e.fqn}`;
}

export const sideData: Scenario = {
  name: 'side-data',
  rules: ['container.sample-data-round-trip', 'container.children-listed', 'profiler-config.database-round-trip'],
  async run(s, m) {
    if (s.ctx.available.has('container')) await containers(s, m);
    if (s.ctx.available.has('database')) await databaseConfigs(s, m);
  },
};

/** A container with a data model and three children, one with a child of its own. */
async function containers(s: Session, m: Model): Promise<void> {
  const c = s.checker;
  const service = (await createEntity(s, m, KINDS.storageService, null, { checkFqn: false })).entity;
  if (!service) throw new SetupError('could not create a storage service');
  const name = m.freshName(tagOf(KINDS.container));
  const body = {
    name,
    service: service.fqn,
    dataModel: {
      isPartitioned: false,
      columns: [
        { name: 'c1', dataType: 'INT' },
        { name: 'c2', dataType: 'STRING' },
      ],
    },
  };
  const { entity: container } = await createEntity(s, m, KINDS.container, service, { body, checkFqn: false });
  if (!container) throw new SetupError('could not create a container with a data model');

  await roundTrip(s, 'container.sample-data-round-trip', container, `${KINDS.container.path}/${container.id}/sampleData`, 'sampleData', {
    columns: ['c1', 'c2'],
    rows: [
      [1, 'a'],
      [2, 'b'],
    ],
  });

  const children: ModelEntity[] = [];
  for (let i = 0; i < 3; i++) {
    const child = (await createEntity(s, m, KINDS.container, container, { checkFqn: false })).entity;
    if (!child) throw new SetupError('could not create a child container');
    children.push(child);
  }
  const grandchild = (await createEntity(s, m, KINDS.container, children[0]!, { checkFqn: false })).entity;
  if (!grandchild) throw new SetupError('could not create a nested container');
  const removed = children[2]!;
  const del = await s.send({ method: 'DELETE', path: `${KINDS.container.path}/${removed.id}` });
  setupOk(del, [200], `soft delete of ${describeEntity(removed)}`);
  removed.state = 'deleted';
  removed.version = typeof asObject(del.json)?.version === 'number' ? (asObject(del.json)?.version as number) : null;

  const path = `${KINDS.container.path}/name/${encodeURIComponent(container.fqn)}/children`;
  for (const [include, wanted] of [
    [undefined, children.slice(0, 2)],
    ['all', children],
  ] as const) {
    const ex = await s.send({ method: 'GET', path, query: include ? { include } : undefined });
    const data = (asArray(asObject(ex.json)?.data) ?? []).map(asObject);
    const ids = data.map((d) => d?.id).sort();
    const want = wanted.map((w) => w.id).sort();
    const total = asObject(asObject(ex.json)?.paging)?.total;
    c.check(
      'container.children-listed',
      ex.status === 200 && JSON.stringify(ids) === JSON.stringify(want) && total === want.length && data.every((d) => typeof d?.href === 'string'),
      `GET ${path}${include ? `?include=${include}` : ''}: exactly ${wanted.map((w) => w.name).join(', ')} (references with href; not ${grandchild.name}, inside ${children[0]!.name}), paging.total ${want.length}`,
      () => `${ex.status} ${ex.responseText.slice(0, 400)}`,
      ex,
    );
  }
}

/** The profiler configuration of a database, and of its schema. */
async function databaseConfigs(s: Session, m: Model): Promise<void> {
  const service = (await createEntity(s, m, KINDS.databaseService, null, { checkFqn: false })).entity;
  const database = service ? (await createEntity(s, m, KINDS.database, service, { checkFqn: false })).entity : undefined;
  if (!database) throw new SetupError('could not create a database');
  const config = { profileSample: 40, profileSampleType: 'PERCENTAGE', sampleDataCount: 30 };
  await roundTrip(s, 'profiler-config.database-round-trip', database, `${KINDS.database.path}/${database.id}/databaseProfilerConfig`, 'databaseProfilerConfig', config);
  const schemaPath = '/v1/databaseSchemas';
  if (!s.ctx.document.operations.some((op) => op.method === 'PUT' && op.path === `${schemaPath}/{id}/databaseSchemaProfilerConfig`)) return;
  const made = await s.send({ method: 'POST', path: schemaPath, body: { name: m.freshName('schema'), database: database.fqn } });
  const schema = setupOk(made, [200, 201], 'create a database schema');
  if (typeof schema.id !== 'string') throw new SetupError(`create a database schema: no id in ${made.responseText.slice(0, 200)}`);
  const holder: Holder = {
    kind: KINDS.databaseSchema,
    fqn: String(schema.fullyQualifiedName),
    id: schema.id,
    version: typeof schema.version === 'number' ? schema.version : null,
  };
  await roundTrip(s, 'profiler-config.database-round-trip', holder, `${schemaPath}/${schema.id}/databaseSchemaProfilerConfig`, 'databaseSchemaProfilerConfig', {
    ...config,
    profileSample: 60,
  });
}
