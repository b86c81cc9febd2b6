/**
 * Test support for the handler tests: an in-process app (supertest), tokens per role, and a
 * database service → database → schema → table chain to hang table data and contracts on.
 * Not used by the server itself.
 */
import request from 'supertest';
import type { Test } from 'supertest';
import type { AppOptions, CatalogApp } from '../app.ts';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';

export interface TestCatalog extends CatalogApp {
  admin: string;
  steward: string;
  consumer: string;
  /** A fixed clock the tests move by hand (no timed assertions). */
  clock: { now: number };
  get(path: string, token?: string): Test;
  put(path: string, body: unknown, token?: string): Test;
  post(path: string, body?: unknown, token?: string): Test;
  patch(path: string, body: unknown, token?: string): Test;
  del(path: string, token?: string): Test;
}

/** Timeout for a `beforeAll` that builds apps: the first requests of an app compile the validator. */
export const SLOW_START = 180_000;

/** 2025-11-21T00:00:00Z: a 13-digit epoch-ms instant. */
export const T0 = 1_763_683_200_000;

export async function testCatalog(options: AppOptions = {}): Promise<TestCatalog> {
  const clock = { now: T0 };
  const built = await createApp({ now: () => clock.now, log: () => {}, ...options });
  const [admin, steward, consumer] = await Promise.all([
    signToken({ user: 'admin', role: 'Admin' }),
    signToken({ user: 'steward', role: 'DataSteward' }),
    signToken({ user: 'consumer', role: 'DataConsumer' }),
  ]);
  const auth = (test: Test, token: string | undefined) => (token === '' ? test : test.set('Authorization', `Bearer ${token ?? admin}`));
  const agent = request(built.app);
  return {
    ...built,
    admin,
    steward,
    consumer,
    clock,
    get: (path, token) => auth(agent.get(`/api${path}`), token),
    put: (path, body, token) => auth(agent.put(`/api${path}`), token).send(body as object),
    post: (path, body, token) => {
      const test = auth(agent.post(`/api${path}`), token);
      return body === undefined ? test : test.send(body as object);
    },
    patch: (path, body, token) =>
      auth(agent.patch(`/api${path}`), token)
        .set('Content-Type', 'application/json-patch+json')
        .send(JSON.stringify(body)),
    del: (path, token) => auth(agent.delete(`/api${path}`), token),
  };
}

export interface TableFixture {
  name: string;
  id: string;
  fqn: string;
  body: Record<string, unknown>;
}

let tables = 0;

/**
 * Creates `svc.db.sch.<name>` (default a fresh `orders_<n>`, so that tests can share one app: the
 * first requests of a new app are slow while the validator compiles) with the given columns
 * (default order_id BIGINT, amount DECIMAL).
 */
export async function createTable(
  c: TestCatalog,
  name = `orders_${++tables}`,
  columns: { name: string; dataType: string }[] = [
    { name: 'order_id', dataType: 'BIGINT' },
    { name: 'amount', dataType: 'DECIMAL' },
  ],
  extra: Record<string, unknown> = {},
): Promise<TableFixture> {
  await c.put('/v1/services/databaseServices', { name: 'svc', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } }).expect((r) => expectOk(r.status));
  await c.put('/v1/databases', { name: 'db', service: 'svc' }).expect((r) => expectOk(r.status));
  await c.put('/v1/databaseSchemas', { name: 'sch', database: 'svc.db' }).expect((r) => expectOk(r.status));
  const res = await c.post('/v1/tables', { name, databaseSchema: 'svc.db.sch', columns, ...extra });
  if (res.status !== 201) throw new Error(`createTable: ${res.status} ${JSON.stringify(res.body)}`);
  return { name, id: res.body.id as string, fqn: res.body.fullyQualifiedName as string, body: res.body as Record<string, unknown> };
}

function expectOk(status: number): void {
  if (status !== 200 && status !== 201) throw new Error(`fixture request failed with ${status}`);
}
