/**
 * Shared set-up for the robustness and security tests: one admin token (a new user name
 * in a token creates that user, which would change the store), a canonical dump of the store to
 * compare before and after, a small seeded catalog, and the error-shape check.
 */
import { expect } from 'vitest';
import type { Response } from 'supertest';
import request from 'supertest';
import { signToken } from '../auth/tokens.ts';
import type { CatalogContext } from '../domain/context.ts';

export type App = Parameters<typeof request>[0];

const ERROR_TYPES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'ENTITY_ALREADY_EXISTS',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
];

export async function bearer(role: 'Admin' | 'DataSteward' | 'DataConsumer' = 'Admin', user = role === 'Admin' ? 'admin' : role.toLowerCase()): Promise<string> {
  return `Bearer ${await signToken({ user, role })}`;
}

/** Every stored entity with its history and place in the tree, sorted by id: equal dumps, equal state. */
export function storeDump(ctx: CatalogContext): string {
  const rows = [...ctx.store.all()]
    .map((s) => ({ type: s.type, parentId: s.parentId ?? null, deletedBy: s.deletedBy ?? null, history: s.history, entity: s.entity }))
    .sort((a, b) => (a.entity.id < b.entity.id ? -1 : a.entity.id > b.entity.id ? 1 : 0));
  return JSON.stringify(rows);
}

/** The error body (docs/behaviour.md "Errors", profile `contract`): `{code, errorType, message}` with `code` equal to the status. */
export function expectErrorShape(res: Response, status?: number): { code: number; errorType: string; message: string } {
  if (status !== undefined) expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.body as { code: number; errorType: string; message: string };
  expect(body.code).toBe(res.status);
  expect(ERROR_TYPES).toContain(body.errorType);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

export interface SeededCatalog {
  ids: Record<string, string>;
  fqns: Record<string, string>;
}

/** A storage service with a container and a database service down to one table. */
export async function seedCatalog(app: App, token: string): Promise<SeededCatalog> {
  const ids: Record<string, string> = {};
  const fqns: Record<string, string> = {};
  const create = async (kind: string, path: string, body: Record<string, unknown>) => {
    const res = await request(app).post(`/api${path}`).set('Authorization', token).send(body);
    if (res.status !== 201) throw new Error(`seeding ${kind} failed: ${res.status} ${res.text}`);
    ids[kind] = (res.body as { id: string }).id;
    fqns[kind] = (res.body as { fullyQualifiedName: string }).fullyQualifiedName;
  };
  await create('storageService', '/v1/services/storageServices', { name: 'fuzz-storage', serviceType: 'CustomStorage', connection: { config: { type: 'CustomStorage' } } });
  await create('container', '/v1/containers', { name: 'bucket', service: 'fuzz-storage' });
  await create('databaseService', '/v1/services/databaseServices', { name: 'fuzz-db', serviceType: 'CustomDatabase', connection: { config: { type: 'CustomDatabase' } } });
  await create('database', '/v1/databases', { name: 'db', service: 'fuzz-db' });
  await create('databaseSchema', '/v1/databaseSchemas', { name: 'sch', database: 'fuzz-db.db' });
  await create('table', '/v1/tables', { name: 't', databaseSchema: 'fuzz-db.db.sch', columns: [{ name: 'c', dataType: 'INT' }] });
  return { ids, fqns };
}
