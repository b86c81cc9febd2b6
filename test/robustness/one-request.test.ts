/**
 * Nothing one request can do takes the server down (docs/behaviour.md "Limits of one request"):
 * each attack that once held the server, replayed through the API on the demo catalog, gets a 4xx
 * or the right answer, and a refused one changes nothing. No timing here: bench/attacks.ts runs the
 * same attacks against a server in its own process and measures how long each takes, how long a
 * concurrent GET waits and what memory does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../kit.ts';
import { SLOW_START, T0, expectError, startApp, storeDump } from '../kit.ts';

const ORDERS = 'acme_snowflake.ecommerce_dw.sales.fact_orders';
/** A 201-character name that almost matches every hostile pattern below: a backtracking engine tries every way to split it. */
const LONG = `${'a'.repeat(200)}!`;

let app: TestApp;
let ordersId: string;
beforeAll(async () => {
  app = await startApp({ fixtures: 'default', at: T0 });
  ordersId = app.ctx.store.getByFqn('table', ORDERS)!.entity.id;
  await app.create('containers', { name: LONG, service: 'acme_s3' });
}, SLOW_START);

const enc = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
const hitNames = (body: { hits: { hits: { _source?: { name?: string } }[] } }) => body.hits.hits.map((h) => h._source?.name);

describe('1. search patterns, from a DataConsumer: answered, linear in the value', () => {
  const regexps = ['((a+))+', '.*.*.*.*.*.*.*.*x', '(a+)+$', '(a|aa)*b', '(.*a){20}'];
  const wildcard = '*a*a*a*a*a*a*a*a*a*c';

  // A regexp matches a whole value or one of its words: the long name's word is its 200 a's.
  it.each([
    { pattern: '((a+))+', want: [LONG] },
    { pattern: '.*.*.*.*.*.*.*.*x', want: [] },
    { pattern: '(a+)+$', want: [LONG] },
    { pattern: '(a|aa)*b', want: [] },
    { pattern: '(.*a){20}', want: [LONG] },
  ])('query_filter regexp $pattern: $want', async ({ pattern, want }) => {
    const res = await app.get(`/api/v1/search/query?index=container&q=*&query_filter=${enc({ regexp: { name: pattern } })}`, app.tokens.consumer).expect(200);
    expect(hitNames(res.body)).toEqual(want);
  });

  it.each(regexps)('aggregate value %s: no key (a key is matched whole, and ends in !)', async (pattern) => {
    const res = await app.get(`/api/v1/search/aggregate?index=container&field=name.keyword&value=${enc(pattern)}`, app.tokens.consumer).expect(200);
    expect(res.body.aggregations['sterms#name.keyword'].buckets).toEqual([]);
  });

  it.each([
    { how: 'query_filter wildcard', path: `/api/v1/search/query?index=container&q=*&query_filter=${enc({ wildcard: { name: wildcard } })}` },
    { how: 'q=field:…', path: `/api/v1/search/query?index=container&q=${enc(`name:${wildcard}`)}` },
    { how: 'free q', path: `/api/v1/search/query?index=container&q=${enc(wildcard)}` },
    { how: 'fieldQuery', path: `/api/v1/search/fieldQuery?index=container&fieldName=name&fieldValue=${enc(wildcard)}` },
  ])('$how with $path: no hit', async ({ path }) => {
    const res = await app.get(path, app.tokens.consumer).expect(200);
    expect(hitNames(res.body)).toEqual([]);
  });

  it('the same patterns, made to match, find the long name', async () => {
    const regexp = await app.get(`/api/v1/search/query?index=container&q=*&query_filter=${enc({ regexp: { name: '(a+)+!' } })}`, app.tokens.consumer).expect(200);
    expect(hitNames(regexp.body)).toEqual([LONG]);
    const wild = await app.get(`/api/v1/search/query?index=container&q=${enc('name:*a*a*a*a*a*a*a*a*a*!')}`, app.tokens.consumer).expect(200);
    expect(hitNames(wild.body)).toEqual([LONG]);
  });
});

describe('2. data-contract semantics rules: a 400 on store, a failed rule on validate', () => {
  /** `depth` nested `map`s over a literal array of `width` items. */
  const nestedMaps = (depth: number, width: number): string => {
    let rule: unknown = { var: '' };
    for (let d = 0; d < depth; d++) rule = { map: [Array.from({ length: width }, (_, i) => i), rule] };
    return JSON.stringify(rule);
  };
  const contractOf = async (semantics: { name: string; rule: string }[]) => {
    const table = await app.create('tables', { name: app.unique('t'), databaseSchema: 'acme_snowflake.ecommerce_dw.sales', columns: [{ name: 'id', dataType: 'INT' }] });
    return app.post('/api/v1/dataContracts', { name: 'c', entity: { id: table.id, type: 'table' }, semantics });
  };

  it('a 15 KB rule of nested maps is refused when stored', async () => {
    const before = storeDump(app.ctx);
    const rule = nestedMaps(5, 800);
    expect(rule.length).toBeGreaterThan(15_000);
    expectError(await contractOf([{ name: 'bomb', rule }]), 400, 'BAD_REQUEST', 'Semantics rule bomb: The rule is longer than 10000 characters (the limit)');
    // Only the table the helper made is new.
    expect(JSON.parse(storeDump(app.ctx)).length).toBe(JSON.parse(before).length + 1);
  });

  it('a rule nested 100,000 levels deep is refused when stored, not a 500', async () => {
    const rule = `${'{"!":['.repeat(100_000)}true${']}'.repeat(100_000)}`;
    expectError(await contractOf([{ name: 'deep', rule }]), 400, 'BAD_REQUEST', /^Semantics rule deep: The rule is longer than 10000 characters/);
  });

  it('a short rule whose evaluation would not end fails on validate, within its budget', async () => {
    const created = await contractOf([{ name: 'bomb', rule: nestedMaps(6, 40) }]);
    expect(created.status).toBe(201);
    const res = await app.post(`/api/v1/dataContracts/${String(created.body.id)}/validate`).expect(200);
    expect(res.body.semanticsValidation.failedRules).toEqual([{ ruleName: 'bomb', reason: 'The rule needs more than 100000 evaluation steps (the limit)' }]);
  });
});

describe('3. JSON Patch: eighteen copies of /extension into itself', () => {
  it('a 400 before the document is built; the table is as it was', async () => {
    const before = storeDump(app.ctx);
    const patch = Array.from({ length: 18 }, (_, i) => ({ op: 'copy', from: '/extension', path: `/extension/copy${i}` }));
    expect(JSON.stringify(patch).length).toBeLessThan(1_500);
    const res = await app.patch(`/api/v1/tables/${ordersId}`, patch);
    expectError(res, 400, 'BAD_REQUEST', /^Invalid JSON Patch: operation \d+ \(copy \/extension\/copy\d+\) would make the table larger than 1048576 bytes, the request body limit/);
    expect(storeDump(app.ctx)).toBe(before);
  });
});

describe('3. JSON Patch on what is not an entity: a thread, a type, eighteen copies of a list into itself', () => {
  // One kilobyte added, then copied into itself: 2^18 KB were it applied. The bound is the entities' (src/core/json-patch.ts).
  const doubling = (list: string) => [
    { op: 'add', path: list, value: [] },
    { op: 'add', path: `${list}/-`, value: 'x'.repeat(1_000) },
    ...Array.from({ length: 18 }, () => ({ op: 'copy', from: list, path: `${list}/-` })),
  ];
  it.each([
    { what: 'thread', path: async () => `/api/v1/feed/${String((await app.get('/api/v1/feed?limit=1').expect(200)).body.data[0].id)}`, list: '/reactions' },
    { what: 'type', path: async () => `/api/v1/metadata/types/${String((await app.get('/api/v1/metadata/types/name/table').expect(200)).body.id)}`, list: '/customProperties' },
  ])('$what: a 400 before the document is built; nothing changes', async ({ what, path, list }) => {
    const target = await path();
    const before = storeDump(app.ctx);
    const res = await app.patch(target, doubling(list));
    expectError(res, 400, 'BAD_REQUEST', new RegExp(`^Invalid JSON Patch: operation \\d+ \\(copy ${list}/-\\) would make the ${what} larger than 1048576 bytes`));
    expect(storeDump(app.ctx)).toBe(before);
  });
});

describe('4. PUT /__admin/state with containers that contain themselves', () => {
  it('a 400, and the next GET and recursive DELETE of those containers answer', async () => {
    const state = (await app.get('/__admin/state').expect(200)).body as { entities: { type: string; parentId?: string; entity: Record<string, unknown> }[] };
    const child = state.entities.find((e) => e.type === 'container' && e.parentId && e.entity.parent)!;
    const parent = state.entities.find((e) => e.entity.id === child.parentId)!;
    parent.parentId = String(child.entity.id);
    parent.entity.parent = { id: child.entity.id, type: 'container' };
    const before = storeDump(app.ctx);
    expectError(await app.put('/__admin/state', state), 400, 'BAD_REQUEST', /contains itself: its parents come back to it/);
    expect(storeDump(app.ctx)).toBe(before);
    await app.get(`/api/v1/containers/${String(child.entity.id)}`).expect(200);
  });
});

describe('5. webhooks: schemes, addresses outside loopback, timeouts', () => {
  it.each([
    'file:///etc/passwd',
    'data:text/plain,x',
    'gopher://127.0.0.1/',
    'javascript:alert(1)',
    'ftp://127.0.0.1/',
    'ws://127.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
  ])('%s: 400, nothing stored', async (endpoint) => {
    const before = storeDump(app.ctx);
    const res = await app.post('/api/v1/events/subscriptions', {
      name: app.unique('hook'),
      alertType: 'Notification',
      destinations: [{ category: 'External', type: 'Webhook', config: { endpoint } }],
    });
    expectError(res, 400, 'BAD_REQUEST', /^config\.endpoint /);
    expect(storeDump(app.ctx)).toBe(before);
  });
});

describe('6. CSV import: a lone LF among CRLF lines', () => {
  it('two rows, not one of 23 fields', async () => {
    const header = 'name*,displayName,description,owner,tags,glossaryTerms,tiers,certification,retentionPeriod,sourceUrl,domains,extension';
    const csv = `${header}\r\nfirst,,,,,,,,,,,\nsecond,,,,,,,,,,,\r\n`;
    const res = await app.request('put', '/api/v1/databases/name/acme_snowflake.ecommerce_dw/import?dryRun=true').set('Content-Type', 'text/plain').send(csv).expect(200);
    expect(res.body).toMatchObject({ status: 'success', numberOfRowsProcessed: 3, numberOfRowsFailed: 0 });
  });
});
