/**
 * Generated invalid requests to EVERY operation of the OpenAPI document. For each
 * one: no 5xx, the error shape (docs/behaviour.md "Errors") with a message that names the problem, the store exactly
 * as it was, and Object.prototype untouched. Fixed seed (FUZZ_SEED, default 42) and few runs per
 * operation in `npm test`; `npm run fuzz` runs many more (FUZZ_RUNS).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/openapi/document.ts';
import type { Method, TestApp } from '../kit.ts';
import { expectError, seedCatalog, startApp, storeDump } from '../kit.ts';
import type { FuzzRequest, PathPool } from './invalid-requests.ts';
import { invalidRequest } from './invalid-requests.ts';
import { listOperations } from './operations.ts';
import { minimalBody } from '../security/minimal-body.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 42);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const document = readDocument();
/** Writes without any parameter or body, as OpenMetadata defines them: the orphan-index cleanup (docs/behaviour.md "Search"). */
const TAKES_NO_INPUT = ['delete /v1/search/stats/orphan'];
const operations = listOperations(document);

let server: TestApp;
let pool: PathPool;
const logged: string[] = [];

beforeAll(async () => {
  server = await startApp({ validateResponses: process.env.FUZZ_VALIDATE_RESPONSES === '1', log: (line) => logged.push(line) });
  const seeded = await seedCatalog(server);
  const admin = await server.get('/api/v1/users/name/admin');
  pool = {
    id: [...Object.values(seeded.ids), '6f1e0000-0000-4000-8000-000000000000'],
    fqn: [...Object.values(seeded.fqns), 'fuzz-storage.bucket'],
    userId: [(admin.body as { id: string }).id, '6f1e0000-0000-4000-8000-0000000000aa'],
  };
});

async function send(r: FuzzRequest) {
  const query = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  let test = server.request(r.method as Method, query ? `${r.url}?${query}` : r.url);
  if (r.contentType) test = test.set('Content-Type', r.contentType);
  return r.body === undefined ? test : test.send(r.body);
}

describe('every operation of the document refuses invalid requests cleanly', () => {
  it('covers every operation that takes input with at least one kind of invalid request', () => {
    expect(operations.length).toBeGreaterThan(400);
    const uncovered = operations.filter((op) => invalidRequest(op, { id: ['x'], fqn: ['x'], userId: ['x'] }) === undefined);
    // Only reads without any parameter or body (e.g. GET /v1/system/version) cannot be made invalid,
    // and the writes OpenMetadata defines with no input at all (TAKES_NO_INPUT), which the case below
    // holds to ignoring hostile query parameters and changing nothing.
    expect(uncovered.filter((op) => op.method !== 'get').map((op) => `${op.method} ${op.path}`)).toEqual(TAKES_NO_INPUT);
  });

  it.each(
    operations.filter((op) => invalidRequest(op, { id: ['x'], fqn: ['x'], userId: ['x'] }) === undefined).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const),
  )('%s: takes no input; hostile query parameters are ignored and change nothing', async (_label, op) => {
    const before = storeDump(server.ctx);
    const res = await server.request(op.method, `/api${op.path}?__proto__=x&constructor=1&hasOwnProperty=1&constructor%5Bprototype%5D%5Bpolluted%5D=1`);
    expect(res.status).toBeLessThan(500);
    expect(storeDump(server.ctx)).toBe(before);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it.each(
    operations.filter((op) => invalidRequest(op, { id: ['x'], fqn: ['x'], userId: ['x'] }) !== undefined).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const),
  )('%s: invalid requests get a 4xx error body and change nothing', async (_label, op) => {
    const arbitrary = invalidRequest(op, pool, minimalBody(document, op.body))!;
    const before = storeDump(server.ctx);
    await fc.assert(
      fc.asyncProperty(arbitrary, async (r) => {
        const res = await send(r);
        const context = `${r.defect} → ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        expect(storeDump(server.ctx), `the store changed (${context})`).toBe(before);
        expect(Object.prototype).not.toHaveProperty('polluted');
        if (r.names.length === 0) return; // nothing invalid the document can express: only the above applies
        expect(res.status, context).toBeGreaterThanOrEqual(400);
        expect([401, 403], context).not.toContain(res.status);
        const { message } = expectError(res);
        const named = r.names.some((n) => message.toLowerCase().includes(n.toLowerCase()));
        const missing = res.status === 404 && (r.pathValues.some((v) => message.includes(v)) || message.includes('no handler'));
        expect(named || missing, `message does not name the problem (${context})`).toBe(true);
      }),
      {
        seed: SEED,
        numRuns: RUNS,
        endOnFailure: true,
        reporter: (details) => {
          if (details.failed) throw new Error(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}\nReplay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
        },
      },
    );
    expect(logged.filter((l) => l.startsWith('500'))).toEqual([]);
  });
});
