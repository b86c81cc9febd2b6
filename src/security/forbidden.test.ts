/**
 * Roles (docs/behaviour.md "Authentication"): a DataConsumer may read, follow and
 * vote, nothing else. Table-driven over the OpenAPI document, so an operation added later is
 * covered without anyone remembering to: every non-GET operation whose `x-permission` is not
 * `social` answers 403 FORBIDDEN with OpenMetadata's text; social ones are never 403; a
 * DataSteward may edit but never delete. Each request is valid, so it reaches authorisation.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import type { CatalogApp } from '../app.ts';
import { bearer, expectErrorShape, storeDump } from '../robustness/harness.ts';
import { fillPath, listOperations } from '../robustness/operations.ts';
import type { Operation } from '../robustness/operations.ts';
import { loadDocument } from '../openapi/document.ts';
import { minimalBody } from './minimal-body.ts';

const document = await loadDocument();
const operations = listOperations(document);
const writes = operations.filter((op) => op.method !== 'get' && op.permission !== 'social');
const social = operations.filter((op) => op.permission === 'social');
const deletes = operations.filter((op) => op.method === 'delete' && op.permission !== 'social');

let catalog: CatalogApp;
beforeAll(async () => {
  // Response validation off: the 403 bodies are checked below, and compiling the response
  // validators of every operation would dominate the run time.
  catalog = await createApp({ validateResponses: false, log: () => {} });
  // The first request of a token's user creates that user; do it before any state is compared.
  for (const [role, user] of [
    ['DataConsumer', 'consumer'],
    ['DataSteward', 'steward'],
  ] as const) {
    await request(catalog.app)
      .get('/api/v1/containers')
      .set('Authorization', await bearer(role, user))
      .expect(200);
  }
});

const PATH_VALUES: Record<string, string> = {
  id: '6f1e0000-0000-4000-8000-0000000000a1',
  userId: '6f1e0000-0000-4000-8000-0000000000a2',
  fqn: 'svc.thing',
  version: '0.1',
  timestamp: '1700000000000',
};

async function send(op: Operation, authorization: string) {
  const query = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [p.name, p.schema.format === 'uuid' ? PATH_VALUES.id! : Array.isArray(p.schema.enum) ? String(p.schema.enum[0]) : p.name === 'entityType' ? 'table' : 'x']),
  );
  let test = request(catalog.app)[op.method](fillPath(op.path, PATH_VALUES)).query(query).set('Authorization', authorization);
  const body = minimalBody(document, op.body);
  if (body) test = test.set('Content-Type', body.type).send(JSON.stringify(body.value));
  return test;
}

const label = (ops: Operation[]) => ops.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const);

describe('a DataConsumer token', () => {
  it('finds the write operations in the document (the table is not empty)', () => {
    expect(writes.length).toBeGreaterThan(200);
    expect(social.length).toBeGreaterThan(20);
  });

  it.each(label(writes))('%s is 403 FORBIDDEN and changes nothing', async (_label, op) => {
    const before = storeDump(catalog.ctx);
    const res = await send(op, await bearer('DataConsumer', 'consumer'));
    const { message } = expectErrorShape(res, 403);
    expect(res.body.errorType).toBe('FORBIDDEN');
    expect(message).toMatch(/^Principal: CatalogPrincipal\{name='consumer'\} operations \[(Create|EditAll|Delete)\] not allowed$/);
    expect(storeDump(catalog.ctx)).toBe(before);
  });

  it.each(label(social))('%s (x-permission social) is not 403', async (_label, op) => {
    const res = await send(op, await bearer('DataConsumer', 'consumer'));
    expect(res.status, res.text.slice(0, 300)).not.toBe(403);
    expect(res.status).toBeLessThan(500);
  });
});

describe('a DataSteward token', () => {
  it.each(label(deletes))('%s is 403 (stewards create and edit, never delete)', async (_label, op) => {
    const res = await send(op, await bearer('DataSteward', 'steward'));
    expect(expectErrorShape(res, 403).message).toMatch(/operations \[Delete\] not allowed$/);
  });
});
