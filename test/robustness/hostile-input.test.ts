/**
 * Named hostile inputs, each a test. Every one must end in a 4xx in the error shape
 * (docs/behaviour.md "Errors") (or be ignored where the contract ignores it), never a 500, never pollute
 * Object.prototype, and never leave the store changed by a refused request.
 */
import { connect } from 'node:net';
import type { Response } from 'supertest';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorTypeOf } from '../../src/http/errors.ts';
import { MAX_BODY_DEPTH } from '../../src/http/request-body.ts';
import type { SeededCatalog, TestApp } from '../kit.ts';
import { expectError, seedCatalog, startApp, storeDump } from '../kit.ts';

let catalog: TestApp;
let seeded: SeededCatalog;
const SERVICES = '/api/v1/services/storageServices';
const service = (name: string) => ({ name, serviceType: 'CustomStorage', connection: { config: { type: 'CustomStorage' } } });

beforeAll(async () => {
  catalog = await startApp();
  seeded = await seedCatalog(catalog);
});
afterEach(() => {
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Object.prototype).not.toHaveProperty('isAdmin');
});

const post = (path: string, body: unknown) =>
  catalog
    .post(path)
    .set('Content-Type', 'application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));

/** Sends a request that must be refused, and checks the error shape and the unchanged store. */
async function refused(status: number, send: () => PromiseLike<Response>): Promise<string> {
  const before = storeDump(catalog.ctx);
  const res = await send();
  const { message } = expectError(res, status);
  expect(storeDump(catalog.ctx)).toBe(before);
  return message;
}

describe('prototype keys in bodies and query strings pollute nothing', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('a create body with a "%s" key is refused as an unknown field', async (key) => {
    const raw = `{"name":"proto-${key}","serviceType":"CustomStorage","connection":{"config":{"type":"CustomStorage"}},"${key}":{"polluted":true,"prototype":{"polluted":true}}}`;
    const message = await refused(400, () => post(SERVICES, raw));
    expect(message).toContain(`Unrecognized field "${key}"`);
  });

  it('a "__proto__" key nested in an open object (connection.config) stays a plain key', async () => {
    const raw =
      '{"name":"proto-nested","serviceType":"CustomStorage","connection":{"config":{"type":"CustomStorage","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}}';
    const res = await post(SERVICES, raw);
    expect([201, 400]).toContain(res.status);
    if (res.status !== 201) expectError(res);
  });

  it.each([['/__proto__/polluted'], ['/constructor/prototype/polluted'], ['/__proto__']])('a JSON Patch to %s is refused with 400', async (path) => {
    const message = await refused(400, () =>
      catalog
        .request('patch', `${SERVICES}/${seeded.ids.storageService}`)
        .set('Content-Type', 'application/json-patch+json')
        .send(JSON.stringify([{ op: 'add', path, value: { polluted: true } }])),
    );
    expect(message.length).toBeGreaterThan(0);
  });

  it('bulk items and a restore body with prototype keys are refused or reported, never applied', async () => {
    const before = storeDump(catalog.ctx);
    const bulk = await catalog
      .put(`${SERVICES}/bulk`)
      .set('Content-Type', 'application/json')
      .send('[{"__proto__":{"polluted":true}},{"constructor":{"prototype":{"polluted":true}}}]');
    expect(bulk.status).toBeLessThan(500);
    if (bulk.status === 200) expect((bulk.body as { numberOfRowsPassed: number }).numberOfRowsPassed).toBe(0);
    else expectError(bulk, 400);
    await refused(400, () => catalog.put(`${SERVICES}/restore`).set('Content-Type', 'application/json').send('{"__proto__":{"id":"x"}}'));
    expect(storeDump(catalog.ctx)).toBe(before);
  });

  it.each(['__proto__=x', 'constructor=x', 'hasOwnProperty=1', 'toString=1', 'valueOf=1', '__proto__[polluted]=1', 'constructor[prototype][polluted]=1'])(
    'a list with the undeclared query parameter %s answers as if it were absent',
    async (query) => {
      const plain = await catalog.get('/api/v1/containers').expect(200);
      const hostile = await catalog.get(`/api/v1/containers?${query}`);
      expect(hostile.status, hostile.text).toBe(200);
      const ids = (body: unknown) => (body as { data: { id: string }[] }).data.map((e) => e.id);
      expect(ids(hostile.body)).toEqual(ids(plain.body));
      expect((hostile.body as { paging: unknown }).paging).toEqual({ total: 1 });
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'owners,__proto__'])('fields=%s is 400 Invalid field name', async (fields) => {
    const message = await refused(400, () => catalog.get(`/api/v1/containers/${seeded.ids.container}`).query({ fields }));
    expect(message).toMatch(/Invalid field name (__proto__|constructor|toString)/);
  });
});

describe('size and nesting limits', () => {
  it('a body over the size limit (1 MB) is 413 PAYLOAD_TOO_LARGE', async () => {
    const message = await refused(413, () => post(SERVICES, { ...service('big'), description: 'x'.repeat(1_100_000) }));
    expect(message).toMatch(/larger than the limit/);
  });

  it('a smaller configured limit (bodyLimit) is enforced too', async () => {
    const small = await startApp({ bodyLimit: '1kb' });
    const res = await small.post(SERVICES, { ...service('big'), description: 'x'.repeat(2000) });
    expectError(res, 413);
  });

  it.each([
    ['arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ])('10,000-deep %s in a create body are 400, not a crash', async (_kind, deep) => {
    const message = await refused(400, () => post(SERVICES, `{"name":"deep","serviceType":"CustomStorage","connection":{"config":${deep}}}`));
    expect(message).toBe(`Request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('10,000-deep nesting in a JSON Patch value and in a bulk body is 400', async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    await refused(400, () =>
      catalog
        .request('patch', `${SERVICES}/${seeded.ids.storageService}`)
        .set('Content-Type', 'application/json-patch+json')
        .send(`[{"op":"add","path":"/description","value":${deep}}]`),
    );
    await refused(400, () => catalog.put(`${SERVICES}/bulk`).set('Content-Type', 'application/json').send(`[${deep}]`));
  });

  it(`nesting up to ${MAX_BODY_DEPTH} levels is accepted (struct columns nest legitimately)`, async () => {
    let column: Record<string, unknown> = { name: 'leaf', dataType: 'INT' };
    for (let i = 0; i < 20; i++) column = { name: `s${i}`, dataType: 'STRUCT', children: [column] };
    const res = await post('/api/v1/tables', { name: 'nested-struct', databaseSchema: seeded.fqns.databaseSchema, columns: [column] });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
  });
});

describe('missing bodies', () => {
  it('a create without a body or Content-Type is 415 naming the missing header', async () => {
    const message = await refused(415, () => catalog.post(SERVICES));
    expect(message).toBe('Missing Content-Type header: send the request body as application/json');
  });

  it('a create with a JSON Content-Type and an empty body is 400', async () => {
    await refused(400, () => catalog.post(SERVICES).set('Content-Type', 'application/json'));
  });
});

describe('entity names', () => {
  it('a 1 MB name is 400 naming the 256-character limit', async () => {
    const message = await refused(400, () => post(SERVICES, service('n'.repeat(1_000_000))));
    expect(message).toBe('[name must NOT have more than 256 characters]');
  });

  it('a 256-character name is accepted and a 257-character one refused', async () => {
    await post(SERVICES, service('m'.repeat(256))).expect(201);
    await refused(400, () => post(SERVICES, service('m'.repeat(257))));
  });

  it.each(['a::b', '::', 'x::'])('a name with "::" (%s) is 400', async (name) => {
    const message = await refused(400, () => post(SERVICES, service(name)));
    expect(message).toContain('name must match pattern');
  });

  it.each(['a"b', '"quoted"', '"', 'a>b', 'tab\there', 'ctl\u0001'])('a name with a double quote, a ">" or a control character (%s) is 400 naming the pattern', async (name) => {
    expect(await refused(400, () => post(SERVICES, service(name)))).toContain('name must match pattern');
  });

  it.each(['a"b', '"quoted"', '"'])('in profile openmetadata-1.10, a name with a double quote (%s) is 400 Invalid name', async (name) => {
    const old = await startApp({ profile: 'openmetadata-1.10' });
    try {
      const res = await old.post(SERVICES, service(name));
      expect([res.status, (res.body as { message?: string }).message]).toEqual([400, `Invalid name ${name}`]);
    } finally {
      await old.close();
    }
  });

  it.each([
    ['a dot', 'v1.2', '"v1.2"'],
    ['a slash', 'raw/2024', 'raw/2024'],
    ['a dot and a slash', 'a.b/c', '"a.b/c"'],
    ['unicode', 'données-日本-🚀', 'données-日本-🚀'],
    ['spaces', ' spaced  name ', ' spaced  name '],
    ['percent signs', '100%25 %', '100%25 %'],
  ])('a service and a container named with %s keep a quoted FQN and are found by name', async (_label, name, quoted) => {
    const svc = await post(SERVICES, service(name)).expect(201);
    expect((svc.body as { fullyQualifiedName: string }).fullyQualifiedName).toBe(quoted);
    const byName = await catalog.get(`${SERVICES}/name/${encodeURIComponent(quoted)}`).expect(200);
    expect((byName.body as { id: string }).id).toBe((svc.body as { id: string }).id);

    const child = await post('/api/v1/containers', { name, service: quoted }).expect(201);
    expect((child.body as { fullyQualifiedName: string }).fullyQualifiedName).toBe(`${quoted}.${quoted}`);
    const found = await catalog.get(`/api/v1/containers/name/${encodeURIComponent(`${quoted}.${quoted}`)}`).expect(200);
    expect((found.body as { id: string }).id).toBe((child.body as { id: string }).id);
    const listed = await catalog.get('/api/v1/containers').query({ service: quoted }).expect(200);
    expect((listed.body as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([(child.body as { id: string }).id]);
  });

  it('a name with a newline is 400 (the name pattern matches single lines only)', async () => {
    await refused(400, () => post(SERVICES, service('line\nbreak')));
  });
});

describe('paging parameters', () => {
  const list = (query: string) => catalog.get(`/api/v1/containers?${query}`);
  it.each([
    ['limit=-1', /limit must be >= 0/],
    ['limit=1e9', /limit must be <= 1000000/],
    ['limit=abc', /limit must be integer/],
    ['limit=1.5', /limit must be integer/],
    ['before=abc&after=def', /Only one of before or after/],
    ['after=Zm9yZ2Vk', /Invalid cursor Zm9yZ2Vk/],
    ['before=%00%01', /Invalid cursor|before/],
    [`after=${'A'.repeat(5000)}`, /after/],
  ])('%s is 400 naming the parameter', async (query, expected) => {
    expect(await refused(400, () => list(query))).toMatch(expected);
  });

  it('a well-formed cursor for a key that does not exist pages from where it would sort', async () => {
    const cursor = Buffer.from('zzz\u00006f1e0000-0000-4000-8000-000000000000', 'utf8').toString('base64url');
    const res = await list(`after=${cursor}`).expect(200);
    expect((res.body as { data: unknown[] }).data).toEqual([]);
  });
});

describe('the followers body', () => {
  const follow = (body: string, type = 'application/json') => catalog.put(`/api/v1/containers/${seeded.ids.container}/followers`).set('Content-Type', type).send(body);
  it.each([
    ['an object', '{"id":"6f1e0000-0000-4000-8000-000000000000"}'],
    ['an array', '["6f1e0000-0000-4000-8000-000000000000"]'],
    ['a number', '42'],
    ['null', 'null'],
    ['a non-UUID string', '"admin"'],
  ])('%s is 400', async (_label, body) => {
    await refused(400, () => follow(body));
  });

  it('a UUID of no user is 404 naming it', async () => {
    expect(await refused(404, () => follow('"6f1e0000-0000-4000-8000-000000000000"'))).toBe('user instance for 6f1e0000-0000-4000-8000-000000000000 not found');
  });
});

describe('request bodies are never coerced: a value of the wrong type is a 400 naming the field', () => {
  const put = (path: string, body: unknown) => catalog.put(path).set('Content-Type', 'application/json').send(JSON.stringify(body));

  it.each([
    ['a number', 12345],
    ['a boolean', false],
    ['null', null],
  ])('a container whose name is %s is refused, and nothing is created', async (_what, name) => {
    const message = await refused(400, () => post('/api/v1/containers', { name, service: 'fuzz-storage' }));
    expect(message).toMatch(/\bname must be string\b/);
  });

  it('a profiler config whose profileQuery is a boolean is refused, and nothing is stored', async () => {
    const message = await refused(400, () => put(`/api/v1/tables/${seeded.ids.table}/profilerConfig`, { profileQuery: true }));
    expect(message).toMatch(/\bprofileQuery must be string\b/);
  });

  it('query parameters still are coerced: ?limit=2 is the integer 2', async () => {
    const res = await catalog.get('/api/v1/containers?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(2);
  });
});

describe("a request Node's HTTP parser refuses is answered in the error shape, then closed", () => {
  /** The raw answer to `raw`, sent on a connection of its own, read until the server closes it. */
  const rawAnswer = (raw: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(catalog.baseUrl).port), '127.0.0.1', () => socket.write(raw));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });

  it.each([
    { given: 'a control character in a header value', raw: 'GET /api/v1/tables HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', want: 400 },
    { given: 'a header block over maxHeaderSize', raw: `GET /api/v1/tables HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, want: 431 },
    { given: 'an unknown method token', raw: 'BLAH\r\n\r\n', want: 400 },
  ])('$given → $want with the JSON error body', async ({ raw, want }) => {
    const text = await rawAnswer(raw);
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1.1 ${want} `));
    expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body)).toMatchObject({ code: want, errorType: errorTypeOf(want), message: expect.any(String) });
  });
});
