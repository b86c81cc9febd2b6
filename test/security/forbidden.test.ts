/**
 * Roles (docs/behaviour.md "Authentication"): a DataConsumer may read, follow and
 * vote, nothing else. Table-driven over the OpenAPI document, so an operation added later is
 * covered without anyone remembering to: every non-GET operation whose `x-permission` is not
 * `social` answers 403 FORBIDDEN with OpenMetadata's text; social ones are never 403; a
 * DataSteward may edit but never delete. Each request is valid, so it reaches authorisation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../kit.ts';
import { expectError, startApp, storeDump } from '../kit.ts';
import { fillPath, listOperations } from '../robustness/operations.ts';
import type { Operation } from '../robustness/operations.ts';
import { readDocument } from '../../src/openapi/document.ts';
import { minimalBody } from './minimal-body.ts';

const document = readDocument();
const operations = listOperations(document);
// A POST that only reads (`x-permission: read`, a search or a report) is anyone's to make.
const writes = operations.filter((op) => op.method !== 'get' && op.permission !== 'social' && op.permission !== 'read');
const social = operations.filter((op) => op.permission === 'social');
// A DELETE that is an edit (`x-permission: edit`, a lineage edge) is the steward's to make.
const deletes = operations.filter((op) => op.method === 'delete' && op.permission !== 'social' && op.permission !== 'edit');

let catalog: TestApp;
beforeAll(async () => {
  // Response validation off: the 403 bodies are checked below, and compiling the response
  // validators of every operation would dominate the run time.
  catalog = await startApp({ validateResponses: false });
  // The first request of a token's user creates that user; do it before any state is compared.
  for (const token of [catalog.tokens.consumer, catalog.tokens.steward]) await catalog.get('/api/v1/containers', token).expect(200);
});

const PATH_VALUES: Record<string, string> = {
  id: '6f1e0000-0000-4000-8000-0000000000a1',
  userId: '6f1e0000-0000-4000-8000-0000000000a2',
  fromId: '6f1e0000-0000-4000-8000-0000000000a3',
  toId: '6f1e0000-0000-4000-8000-0000000000a4',
  testSuiteId: '6f1e0000-0000-4000-8000-0000000000a5',
  // A CSV job's id is its number (CsvJobId in openapi/schemas/csv-jobs.yaml).
  jobId: '42',
  fqn: 'svc.thing',
  version: '0.1',
  timestamp: '1700000000000',
};

async function send(op: Operation, token: string) {
  const query = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => [p.name, p.schema.format === 'uuid' ? PATH_VALUES.id! : Array.isArray(p.schema.enum) ? String(p.schema.enum[0]) : p.name === 'entityType' ? 'table' : 'x']),
  );
  let test = catalog.request(op.method, fillPath(op.path, PATH_VALUES), token).query(query);
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
    const res = await send(op, catalog.tokens.consumer);
    const { message } = expectError(res, 403);
    expect(res.body.errorType).toBe('FORBIDDEN');
    expect(message).toMatch(/^Principal: CatalogPrincipal\{name='consumer'\} operations \[(Create|EditAll|Delete)\] not allowed$/);
    expect(storeDump(catalog.ctx)).toBe(before);
  });

  it.each(label(social))('%s (x-permission social) is not 403', async (_label, op) => {
    const res = await send(op, catalog.tokens.consumer);
    expect(res.status, res.text.slice(0, 300)).not.toBe(403);
    expect(res.status).toBeLessThan(500);
  });
});

describe('a DataSteward token', () => {
  it.each(label(deletes))('%s is 403 (stewards create and edit, never delete)', async (_label, op) => {
    const res = await send(op, catalog.tokens.steward);
    expect(expectError(res, 403).message).toMatch(/operations \[Delete\] not allowed$/);
  });
});
