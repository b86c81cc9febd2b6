/**
 * The test kit: what the tests share, in one place. Test code only — it lives outside src/, so the
 * build (tsconfig.build.json) never sees it, and the boundary check (.dependency-cruiser.cjs) keeps
 * anything that ships from importing it.
 *
 * - Apps: `startApp` serves a catalog app (src/app/app.ts) on 127.0.0.1 in a profile, with tokens for
 *   each role and an authenticated request helper (supertest; `baseUrl` for fetch). Every app it
 *   starts is closed after the test file.
 * - Catalog shapes: the kinds table (each row builds through the API the parents a new entity
 *   needs), the database service → database → schema → table chain, and a small seeded catalog.
 * - Checks: `expectError` (the error body) and `storeDump` (the whole store, to compare before and
 *   after a refused request).
 * - The domain without HTTP: `domainContext`, a catalog context with the document's validators.
 */
import type { Response, Test } from 'supertest';
import supertest from 'supertest';
import { afterAll, expect } from 'vitest';
import type { Role } from '../src/auth/tokens.ts';
import { signToken } from '../src/auth/tokens.ts';
import type { ProfileName } from '../src/config/profiles.ts';
import { profileByName } from '../src/config/profiles.ts';
import type { CatalogContext, Kind, SchemaValidators } from '../src/core/context.ts';
import { createCatalogContext } from '../src/core/context.ts';
import { errorTypeOf } from '../src/http/errors.ts';
import { KINDS as SERVED_KINDS } from '../src/kinds/index.ts';
import { kindRegistry } from '../src/kinds/registry.ts';
import { compiledValidators } from '../src/openapi/compiled.ts';
import { readDocument } from '../src/openapi/document.ts';
import { createSchemaValidators } from '../src/openapi/schema-validators.ts';
import type { RunningServer, ServerOptions } from '../src/app/server.ts';
import { startServer } from '../src/app/server.ts';

export type Body = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Apps, tokens and requests
// ---------------------------------------------------------------------------------------------

/** Timeout for a `beforeAll` that builds apps: the first requests of an app compile the validator. */
export const SLOW_START = 180_000;

/** 2025-11-21T00:00:00Z: a 13-digit epoch-ms instant, the start of the tests' fixed clocks. */
export const T0 = 1_763_683_200_000;

/** The user each role's token names by default (a token's user is created on its first request). */
const DEFAULT_USER: Record<Role, string> = { Admin: 'admin', DataSteward: 'steward', DataConsumer: 'consumer' };

/** A token of `role` for `user` (default: admin, steward, consumer), signed with the development key. */
export function tokenFor(role: Role, user = DEFAULT_USER[role]): Promise<string> {
  return signToken({ user, role });
}

export interface KitOptions extends ServerOptions {
  /** A fixed clock starting at this instant, which the test moves by hand (`clock.now`); default the system clock. */
  at?: number;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

export interface TestApp extends RunningServer {
  /** Tokens of the default users: `admin` (the one every request sends unless told otherwise), `steward`, `consumer`. */
  readonly tokens: { readonly admin: string; readonly steward: string; readonly consumer: string };
  /** The app's clock: set `now` to move it (only with `at`; a system clock refuses to be set). */
  readonly clock: { now: number };
  /**
   * A request to `path` (the full path: `/api/v1/...`, `/__admin/...`) with `Authorization:
   * Bearer <token>`, the admin's by default; `''` sends no Authorization header.
   */
  request(method: Method, path: string, token?: string): Test;
  get(path: string, token?: string): Test;
  /** Sends `body` as JSON when given. */
  post(path: string, body?: unknown, token?: string): Test;
  put(path: string, body?: unknown, token?: string): Test;
  /** Sends `operations` as `application/json-patch+json`. */
  patch(path: string, operations: unknown, token?: string): Test;
  delete(path: string, token?: string): Test;
  /** A name no other test of this app uses (tests share one app): `<stem>_<n>`. */
  unique(stem: string): string;
  /** POSTs to `/api/v1/<collection>` and expects 201; returns the created entity. */
  create(collection: string, body: Body): Promise<Body>;
}

const started = new Set<TestApp>();
// Every app started in a test file stops after it (a test may close its own earlier).
afterAll(async () => {
  await Promise.all([...started].map((app) => app.close()));
});

/** `/api/v1/<collection>` plus an optional suffix. */
export const v1 = (collection: string, suffix = ''): string => `/api/v1/${collection}${suffix}`;

/**
 * A catalog app (profile `contract` unless `options.profile`; no fixtures unless
 * `options.fixtures`) served on 127.0.0.1 at a free port: a stable `href` host, and one server
 * for all of a file's requests.
 */
export async function startApp(options: KitOptions = {}): Promise<TestApp> {
  const { at, ...serverOptions } = options;
  const clock: { now: number } =
    at === undefined
      ? Object.freeze({
          get now() {
            return Date.now();
          },
        })
      : { now: at };
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    log: () => {},
    ...serverOptions,
    ...(at === undefined ? {} : { now: () => clock.now }),
  });
  const [admin, steward, consumer] = await Promise.all([tokenFor('Admin'), tokenFor('DataSteward'), tokenFor('DataConsumer')]);
  const agent = supertest(running.server);
  let counter = 0;
  let closed: Promise<void> | undefined;
  const request = (method: Method, path: string, token?: string): Test => {
    const test = agent[method](path);
    const bearer = token ?? admin;
    return bearer === '' ? test : test.set('Authorization', `Bearer ${bearer}`);
  };
  const withBody = (test: Test, body: unknown): Test => (body === undefined ? test : test.send(body as object));
  const app: TestApp = {
    ...running,
    tokens: { admin, steward, consumer },
    clock,
    request,
    get: (path, token) => request('get', path, token),
    post: (path, body, token) => withBody(request('post', path, token), body),
    put: (path, body, token) => withBody(request('put', path, token), body),
    patch: (path, operations, token) => request('patch', path, token).set('Content-Type', 'application/json-patch+json').send(JSON.stringify(operations)),
    delete: (path, token) => request('delete', path, token),
    unique: (stem) => `${stem}_${++counter}`,
    async create(collection, body) {
      const res = await app.post(v1(collection), body);
      if (res.status !== 201) throw new Error(`POST ${collection} ${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Body;
    },
    close: () => (closed ??= running.close().then(() => void started.delete(app))),
  };
  started.add(app);
  return app;
}

// ---------------------------------------------------------------------------------------------
// Catalog shapes
// ---------------------------------------------------------------------------------------------

/** A place to create entities of one kind in: the parents exist, the request builder is ready. */
export interface Scope {
  /** Create request of an entity called `name` in this scope. */
  request(name: string): Body;
  /** FQN prefix of entities created in this scope (`''` for top-level kinds). */
  readonly parentFqn: string;
  /** The direct parent (for recursive delete), when the kind has one. */
  readonly parent?: { collection: string; type: string; id: string };
  /** The list filter naming the parent (`service=svc`), when the kind has one. */
  readonly filter?: Record<string, string>;
}

/** One kind as the tests drive it through the API. */
export interface KindCase {
  readonly type: string;
  readonly collection: string;
  /** A required create-request field other than `name` (for the 400 rule). */
  readonly requiredField?: string;
  /** Creates the parents a new entity needs (fresh ones, named with `app.unique`). */
  scope(app: TestApp): Promise<Scope>;
}

const top = (build: (name: string) => Body): Scope => ({ request: build, parentFqn: '' });

async function service(app: TestApp, collection: string, serviceType: string): Promise<Body> {
  return app.create(`services/${collection}`, { name: app.unique('svc'), serviceType, connection: { config: { type: serviceType } } });
}

function serviceKind(type: string, collection: string, serviceType: string): KindCase {
  return {
    type,
    collection: `services/${collection}`,
    requiredField: 'serviceType',
    scope: async () => top((name) => ({ name, serviceType, connection: { config: { type: serviceType } } })),
  };
}

/** A kind whose entities sit directly in a service; `extra` holds its other required fields. */
function assetKind(type: string, collection: string, serviceCollection: string, serviceType: string, extra: Body = {}): KindCase {
  return {
    type,
    collection,
    requiredField: 'service',
    async scope(app) {
      const svc = await service(app, serviceCollection, serviceType);
      const fqn = String(svc.fullyQualifiedName);
      return {
        request: (name) => ({ name, service: fqn, ...extra }),
        parentFqn: fqn,
        // `storageServices` → `storageService`: the service's entity type.
        parent: { collection: `services/${serviceCollection}`, type: serviceCollection.slice(0, -1), id: String(svc.id) },
        filter: { service: fqn },
      };
    },
  };
}

/** A fresh database service → database → schema chain (unique names). */
export async function databaseChain(app: TestApp): Promise<{ service: Body; database: Body; schema: Body }> {
  const svc = await service(app, 'databaseServices', 'Mysql');
  const database = await app.create('databases', { name: app.unique('db'), service: svc.fullyQualifiedName });
  const schema = await app.create('databaseSchemas', { name: app.unique('sch'), database: database.fullyQualifiedName });
  return { service: svc, database, schema };
}

export const COLUMNS = [
  { name: 'id', dataType: 'INT' },
  { name: 'amount', dataType: 'DECIMAL' },
];

/** The kinds the tests create through the API, each with the parents it needs. */
export const KINDS: readonly KindCase[] = [
  serviceKind('storageService', 'storageServices', 'S3'),
  serviceKind('databaseService', 'databaseServices', 'Mysql'),
  serviceKind('dashboardService', 'dashboardServices', 'Superset'),
  serviceKind('messagingService', 'messagingServices', 'Kafka'),
  serviceKind('pipelineService', 'pipelineServices', 'Airflow'),
  serviceKind('apiService', 'apiServices', 'Rest'),
  serviceKind('mlmodelService', 'mlmodelServices', 'Mlflow'),
  assetKind('container', 'containers', 'storageServices', 'S3'),
  assetKind('database', 'databases', 'databaseServices', 'Mysql'),
  assetKind('dashboard', 'dashboards', 'dashboardServices', 'Superset'),
  assetKind('chart', 'charts', 'dashboardServices', 'Superset'),
  {
    // Named `<service>.model.<name>` (docs/behaviour.md "Dashboard data models").
    type: 'dashboardDataModel',
    collection: 'dashboard/datamodels',
    requiredField: 'service',
    async scope(app) {
      const svc = await service(app, 'dashboardServices', 'Superset');
      const fqn = String(svc.fullyQualifiedName);
      return {
        request: (name) => ({ name, service: fqn, dataModelType: 'SupersetDataModel', columns: COLUMNS }),
        parentFqn: `${fqn}.model`,
        parent: { collection: 'services/dashboardServices', type: 'dashboardService', id: String(svc.id) },
        filter: { service: fqn },
      };
    },
  },
  assetKind('topic', 'topics', 'messagingServices', 'Kafka', { partitions: 1 }),
  assetKind('pipeline', 'pipelines', 'pipelineServices', 'Airflow'),
  assetKind('apiCollection', 'apiCollections', 'apiServices', 'Rest'),
  assetKind('mlmodel', 'mlmodels', 'mlmodelServices', 'Mlflow', { algorithm: 'xgboost' }),
  {
    type: 'databaseSchema',
    collection: 'databaseSchemas',
    requiredField: 'database',
    async scope(app) {
      const { database } = await databaseChain(app);
      const fqn = String(database.fullyQualifiedName);
      return {
        request: (name) => ({ name, database: fqn }),
        parentFqn: fqn,
        parent: { collection: 'databases', type: 'database', id: String(database.id) },
        filter: { database: fqn },
      };
    },
  },
  {
    type: 'table',
    collection: 'tables',
    requiredField: 'databaseSchema',
    async scope(app) {
      const { schema } = await databaseChain(app);
      const fqn = String(schema.fullyQualifiedName);
      return {
        request: (name) => ({ name, databaseSchema: fqn, columns: COLUMNS }),
        parentFqn: fqn,
        parent: { collection: 'databaseSchemas', type: 'databaseSchema', id: String(schema.id) },
        filter: { databaseSchema: fqn },
      };
    },
  },
  {
    type: 'apiEndpoint',
    collection: 'apiEndpoints',
    requiredField: 'apiCollection',
    async scope(app) {
      const svc = await service(app, 'apiServices', 'Rest');
      const coll = await app.create('apiCollections', { name: app.unique('coll'), service: svc.fullyQualifiedName });
      const fqn = String(coll.fullyQualifiedName);
      return {
        request: (name) => ({ name, apiCollection: fqn, endpointURL: 'https://example.com/api/orders' }),
        parentFqn: fqn,
        parent: { collection: 'apiCollections', type: 'apiCollection', id: String(coll.id) },
        filter: { apiCollection: fqn },
      };
    },
  },
  { type: 'classification', collection: 'classifications', scope: async () => top((name) => ({ name, description: 'c' })) },
  {
    type: 'tag',
    collection: 'tags',
    requiredField: 'classification',
    async scope(app) {
      const cls = await app.create('classifications', { name: app.unique('cls'), description: 'c' });
      const fqn = String(cls.fullyQualifiedName);
      return {
        request: (name) => ({ name, classification: fqn, description: 't' }),
        parentFqn: fqn,
        parent: { collection: 'classifications', type: 'classification', id: String(cls.id) },
        filter: { parent: fqn },
      };
    },
  },
  {
    type: 'testCase',
    collection: 'dataQuality/testCases',
    requiredField: 'entityLink',
    async scope(app) {
      const { schema } = await databaseChain(app);
      const table = await app.create('tables', { name: app.unique('tbl'), databaseSchema: schema.fullyQualifiedName, columns: COLUMNS });
      const definition = await app.create('dataQuality/testDefinitions', { name: app.unique('def'), entityType: 'TABLE', testPlatforms: ['OpenMetadata'] });
      const tableFqn = String(table.fullyQualifiedName);
      return { request: (name) => ({ name, entityLink: `<#E::table::${tableFqn}>`, testDefinition: definition.fullyQualifiedName }), parentFqn: tableFqn };
    },
  },
];

/** The row of KINDS for `type`. */
export function kind(type: string): KindCase {
  const found = KINDS.find((k) => k.type === type);
  if (!found) throw new Error(`no kind case ${type}`);
  return found;
}

/** Creates one entity of `kindCase` in a fresh scope. */
export async function createOne(app: TestApp, kindCase: KindCase, extra: Body = {}): Promise<{ entity: Body; scope: Scope }> {
  const scope = await kindCase.scope(app);
  const entity = await app.create(kindCase.collection, { ...scope.request(app.unique(kindCase.type)), ...extra });
  return { entity, scope };
}

export interface TableFixture {
  name: string;
  id: string;
  fqn: string;
  body: Body;
}

/**
 * Creates `svc.db.sch.<name>` (the service, database and schema upserted with those fixed names;
 * default name a fresh `orders_<n>`, so tests can share one app) with the given columns (default
 * order_id BIGINT, amount DECIMAL) and other request fields.
 */
export async function createTable(
  app: TestApp,
  name = app.unique('orders'),
  columns: { name: string; dataType: string }[] = [
    { name: 'order_id', dataType: 'BIGINT' },
    { name: 'amount', dataType: 'DECIMAL' },
  ],
  extra: Body = {},
): Promise<TableFixture> {
  for (const [collection, body] of [
    ['services/databaseServices', { name: 'svc', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } }],
    ['databases', { name: 'db', service: 'svc' }],
    ['databaseSchemas', { name: 'sch', database: 'svc.db' }],
  ] as const) {
    const res = await app.put(v1(collection), body);
    if (res.status !== 200 && res.status !== 201) throw new Error(`createTable: PUT ${collection} → ${res.status} ${JSON.stringify(res.body)}`);
  }
  const res = await app.post(v1('tables'), { name, databaseSchema: 'svc.db.sch', columns, ...extra });
  if (res.status !== 201) throw new Error(`createTable: ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as Body;
  return { name, id: String(body.id), fqn: String(body.fullyQualifiedName), body };
}

export interface SeededCatalog {
  /** Id and FQN of each seeded entity, by kind. */
  ids: Record<string, string>;
  fqns: Record<string, string>;
}

/** A storage service `fuzz-storage` with a container `bucket`, and a database service `fuzz-db` down to one table `fuzz-db.db.sch.t`. */
export async function seedCatalog(app: TestApp): Promise<SeededCatalog> {
  const ids: Record<string, string> = {};
  const fqns: Record<string, string> = {};
  const seed = async (type: string, collection: string, body: Body) => {
    const entity = await app.create(collection, body);
    ids[type] = String(entity.id);
    fqns[type] = String(entity.fullyQualifiedName);
  };
  await seed('storageService', 'services/storageServices', { name: 'fuzz-storage', serviceType: 'CustomStorage', connection: { config: { type: 'CustomStorage' } } });
  await seed('container', 'containers', { name: 'bucket', service: 'fuzz-storage' });
  await seed('databaseService', 'services/databaseServices', { name: 'fuzz-db', serviceType: 'CustomDatabase', connection: { config: { type: 'CustomDatabase' } } });
  await seed('database', 'databases', { name: 'db', service: 'fuzz-db' });
  await seed('databaseSchema', 'databaseSchemas', { name: 'sch', database: 'fuzz-db.db' });
  await seed('table', 'tables', { name: 't', databaseSchema: 'fuzz-db.db.sch', columns: [{ name: 'c', dataType: 'INT' }] });
  return { ids, fqns };
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

export interface ErrorBody {
  code: number;
  errorType: string;
  message: string;
  details?: unknown;
}

/**
 * The error body of a failure (docs/behaviour.md "Errors", profile `contract`): JSON
 * `{code, errorType, message}` with `code` the status (`status` when given), the errorType of that
 * status and a message; when given, this errorType and this message (a text equal, a pattern
 * matched). Returns the body.
 */
export function expectError(res: Response, status?: number, errorType?: string, message?: string | RegExp): ErrorBody {
  const body = res.body as ErrorBody;
  const seen = `${res.status} ${res.text.slice(0, 500)}`;
  if (status !== undefined) expect(res.status, seen).toBe(status);
  expect(res.headers['content-type'], seen).toMatch(/^application\/json/);
  expect(body.code, seen).toBe(res.status);
  expect(body.errorType, seen).toBe(errorType ?? errorTypeOf(res.status));
  expect(typeof body.message === 'string' && body.message.length > 0, seen).toBe(true);
  if (typeof message === 'string') expect(body.message, seen).toBe(message);
  else if (message) expect(body.message, seen).toMatch(message);
  return body;
}

/** Every stored entity with its history and place in the tree, sorted by id: equal dumps, equal state. */
export function storeDump(ctx: CatalogContext): string {
  const rows = [...ctx.store.all()]
    .map((s) => ({ type: s.type, parentId: s.parentId ?? null, deletedBy: s.deletedBy ?? null, history: s.history, entity: s.entity }))
    .sort((a, b) => (a.entity.id < b.entity.id ? -1 : a.entity.id > b.entity.id ? 1 : 0));
  return JSON.stringify(rows);
}

// ---------------------------------------------------------------------------------------------
// The domain without HTTP
// ---------------------------------------------------------------------------------------------

const validators = new Map<ProfileName, Promise<SchemaValidators>>();

function validatorsOf(profile: ProfileName): Promise<SchemaValidators> {
  let found = validators.get(profile);
  if (!found) {
    found = Promise.resolve(createSchemaValidators(() => readDocument(profileByName(profile)), compiledValidators(), profile));
    validators.set(profile, found);
  }
  return found;
}

/**
 * A catalog context with an empty store, as src/app/app.ts builds one, for tests of the domain API:
 * the document's validators of `profile` (default `contract`), the served kinds (or `kinds`), and
 * the clock and id source given.
 */
export async function domainContext(options: { profile?: ProfileName; kinds?: readonly Kind[]; now?: () => number; newId?: () => string } = {}): Promise<CatalogContext> {
  const profile = options.profile ?? 'contract';
  return createCatalogContext({
    profile: profileByName(profile),
    validators: await validatorsOf(profile),
    kinds: kindRegistry(options.kinds ?? SERVED_KINDS),
    now: options.now,
    newId: options.newId,
  });
}
