/**
 * Test support for the lifecycle tests: one app per test file, an authenticated
 * request helper, unique names, and a table of entity kinds — each row knows how to build the
 * parents a new entity needs through the API — so that a generic rule is asserted for many kinds.
 * Used only by `*.test.ts` files.
 */
import type { Server } from 'node:http';
import supertest from 'supertest';
import type { Response, Test } from 'supertest';
import type { AppOptions, CatalogApp } from '../app.ts';
import { createApp } from '../app.ts';
import type { Role } from '../auth/tokens.ts';
import { signToken } from '../auth/tokens.ts';

export type Body = Record<string, unknown>;

export interface Api {
  readonly catalog: CatalogApp;
  readonly token: string;
  get(path: string, token?: string): Test;
  post(path: string, body: unknown, token?: string): Test;
  put(path: string, body?: unknown, token?: string): Test;
  patch(path: string, operations: unknown, token?: string): Test;
  delete(path: string, token?: string): Test;
  tokenFor(role: Role, user?: string): Promise<string>;
  /** A name no other test of this file uses (tests share one app). */
  unique(stem: string): string;
  /** POSTs and expects 201; returns the created entity. */
  create(collection: string, body: Body): Promise<Body>;
  /** Stops the server (call in afterAll). */
  close(): Promise<void>;
}

/** `/api/v1/<collection>` plus an optional suffix. */
export const v1 = (collection: string, suffix = ''): string => `/api/v1/${collection}${suffix}`;

export async function startApi(options: AppOptions = {}): Promise<Api> {
  const catalog = await createApp({ log: () => {}, ...options });
  const token = await signToken({ user: 'admin', role: 'Admin' });
  // One server on 127.0.0.1 for the whole file: a stable port (so `href`s compare equal) and no
  // server start per request.
  const server: Server = await new Promise((resolve) => {
    const s = catalog.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const agent = supertest(server);
  const auth = (test: Test, t: string | undefined): Test => test.set('Authorization', `Bearer ${t ?? token}`);
  let counter = 0;
  const api: Api = {
    catalog,
    token,
    get: (path, t) => auth(agent.get(path), t),
    post: (path, body, t) => auth(agent.post(path), t).send(body as object),
    put: (path, body, t) => {
      const test = auth(agent.put(path), t);
      return body === undefined ? test : test.send(body as object);
    },
    patch: (path, operations, t) => auth(agent.patch(path), t).set('Content-Type', 'application/json-patch+json').send(JSON.stringify(operations)),
    delete: (path, t) => auth(agent.delete(path), t),
    tokenFor: (role, user) => signToken({ user: user ?? role.toLowerCase(), role }),
    unique: (stem) => `${stem}_${++counter}`,
    async create(collection, body) {
      const res = await api.post(v1(collection), body);
      if (res.status !== 201) throw new Error(`POST ${collection} ${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Body;
    },
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
  return api;
}

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

export interface KindCase {
  readonly type: string;
  readonly collection: string;
  /** A required create-request field other than `name` (for the 400 rule). */
  readonly requiredField?: string;
  scope(api: Api): Promise<Scope>;
}

const top = (build: (name: string) => Body): Scope => ({ request: build, parentFqn: '' });

async function service(api: Api, collection: string, serviceType: string): Promise<Body> {
  return api.create(`services/${collection}`, { name: api.unique('svc'), serviceType, connection: { config: { type: serviceType } } });
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
    async scope(api) {
      const svc = await service(api, serviceCollection, serviceType);
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

export async function databaseChain(api: Api): Promise<{ service: Body; database: Body; schema: Body }> {
  const svc = await service(api, 'databaseServices', 'Mysql');
  const database = await api.create('databases', { name: api.unique('db'), service: svc.fullyQualifiedName });
  const schema = await api.create('databaseSchemas', { name: api.unique('sch'), database: database.fullyQualifiedName });
  return { service: svc, database, schema };
}

export const COLUMNS = [
  { name: 'id', dataType: 'INT' },
  { name: 'amount', dataType: 'DECIMAL' },
];

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
  assetKind('topic', 'topics', 'messagingServices', 'Kafka', { partitions: 1 }),
  assetKind('pipeline', 'pipelines', 'pipelineServices', 'Airflow'),
  assetKind('apiCollection', 'apiCollections', 'apiServices', 'Rest'),
  assetKind('mlmodel', 'mlmodels', 'mlmodelServices', 'Mlflow', { algorithm: 'xgboost' }),
  {
    type: 'databaseSchema',
    collection: 'databaseSchemas',
    requiredField: 'database',
    async scope(api) {
      const { database } = await databaseChain(api);
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
    async scope(api) {
      const { schema } = await databaseChain(api);
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
    async scope(api) {
      const svc = await service(api, 'apiServices', 'Rest');
      const coll = await api.create('apiCollections', { name: api.unique('coll'), service: svc.fullyQualifiedName });
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
    async scope(api) {
      const cls = await api.create('classifications', { name: api.unique('cls'), description: 'c' });
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
    async scope(api) {
      const table = await createTable(api);
      const definition = await api.create('dataQuality/testDefinitions', { name: api.unique('def'), entityType: 'TABLE', testPlatforms: ['OpenMetadata'] });
      const tableFqn = String(table.fullyQualifiedName);
      return { request: (name) => ({ name, entityLink: `<#E::table::${tableFqn}>`, testDefinition: definition.fullyQualifiedName }), parentFqn: tableFqn };
    },
  },
];

export function kind(type: string): KindCase {
  const found = KINDS.find((k) => k.type === type);
  if (!found) throw new Error(`no kind case ${type}`);
  return found;
}

async function createTable(api: Api): Promise<Body> {
  const { schema } = await databaseChain(api);
  return api.create('tables', { name: api.unique('tbl'), databaseSchema: schema.fullyQualifiedName, columns: COLUMNS });
}

/** Creates one entity of `kindCase` in a fresh scope. */
export async function createOne(api: Api, kindCase: KindCase, extra: Body = {}): Promise<{ entity: Body; scope: Scope }> {
  const scope = await kindCase.scope(api);
  const entity = await api.create(kindCase.collection, { ...scope.request(api.unique(kindCase.type)), ...extra });
  return { entity, scope };
}

/** The error body every failure has (docs/behaviour.md "Errors", profile `contract`). */
export function expectError(res: Response, status: number, errorType: string, message: string | RegExp): void {
  const body = res.body as Body;
  const ok =
    res.status === status && body.code === status && body.errorType === errorType && (typeof message === 'string' ? body.message === message : message.test(String(body.message)));
  if (!ok) throw new Error(`expected ${status} ${errorType} ${String(message)}, got ${res.status} ${JSON.stringify(body)}`);
}
