/**
 * The faulty proxy on its own, in front of the reference server in process: transparent with no
 * fault on, switched by `setFaults`, and its memory empty after every switch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, type InProcessCatalog } from '../../src/app/in-process/catalog.ts';
import { FAULTS } from './faults.ts';
import { FaultyProxy } from './faulty-proxy.ts';

let server: InProcessCatalog;
let proxy: FaultyProxy;
let token: string;

beforeAll(async () => {
  server = await createCatalog({ fixtures: 'none' });
  token = await server.token();
  proxy = new FaultyProxy({ upstream: server.fetch, faults: FAULTS, adminToken: token });
});

afterAll(() => server?.close());

interface Sent {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One request, to the server directly or through the proxy. */
async function send(via: 'server' | 'proxy', method: string, path: string, body?: unknown, auth = true): Promise<Sent> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = {
    ...(auth ? { authorization: `Bearer ${token}` } : {}),
    ...(data === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const res = await (via === 'server' ? server.fetch : proxy.fetch)(`${new URL(server.baseUrl).origin}${path}`, { method, headers, body: data });
  const answered: Record<string, string> = {};
  res.headers.forEach((value, name) => (answered[name] = value));
  return { status: res.status, headers: answered, text: await res.text() };
}

const json = (sent: Sent) => JSON.parse(sent.text) as Record<string, unknown>;
const service = (name: string) => ({ name, serviceType: 'S3', connection: { config: { type: 'S3' } } });

describe('with no fault on, the proxy is transparent', () => {
  it.each([
    { name: 'a read by name', method: 'GET', path: '/api/v1/services/storageServices/name/transparent' },
    { name: 'an unknown id (404)', method: 'GET', path: '/api/v1/containers/7b2c4e1a-0000-4000-8000-00000000c0de' },
    { name: 'a list with a query', method: 'GET', path: '/api/v1/services/storageServices?limit=1&fields=owners' },
    { name: 'a request without a token (401)', method: 'GET', path: '/api/v1/containers', auth: false },
    { name: 'a path outside /api', method: 'GET', path: '/openapi.json' },
  ])('$name: the same status, headers (ETag included) and bytes as the server answers', async ({ method, path, auth }) => {
    proxy.setFaults([]);
    await send('server', 'PUT', '/api/v1/services/storageServices', service('transparent'));
    const direct = await send('server', method, path, undefined, auth);
    const proxied = await send('proxy', method, path, undefined, auth);
    expect(proxied).toEqual(direct);
  });

  it('forwards a request body and answers what the server answers', async () => {
    proxy.setFaults([]);
    const created = await send('proxy', 'POST', '/api/v1/services/storageServices', service('through_proxy'));
    expect(created.status).toBe(201);
    expect(json(created)).toMatchObject({ name: 'through_proxy', version: 0.1 });
    expect(json(await send('server', 'GET', '/api/v1/services/storageServices/name/through_proxy')).id).toBe(json(created).id);
  });
});

describe('switching faults', () => {
  it('refuses an id that has no fault, and keeps the active set', () => {
    proxy.setFaults(['create.returns-fields']);
    expect(() => proxy.setFaults(['create.returns-fields', 'no.such-rule'])).toThrow('no fault for no.such-rule');
    expect(proxy.active).toEqual(['create.returns-fields']);
    proxy.setFaults([]);
    expect(proxy.active).toEqual([]);
  });

  it('an answer a fault rewrites loses its ETag and gets its new length; the server is untouched', async () => {
    proxy.setFaults(['create.returns-fields']);
    try {
      const created = await send('proxy', 'POST', '/api/v1/services/storageServices', service('no_version'));
      expect(created.status).toBe(201);
      expect(json(created)).not.toHaveProperty('version');
      expect(created.headers.etag).toBeUndefined();
      expect(created.headers['content-length']).toBe(String(Buffer.byteLength(created.text)));
      expect(json(await send('server', 'GET', '/api/v1/services/storageServices/name/no_version')).version).toBe(0.1);
    } finally {
      proxy.setFaults([]);
    }
  });

  it('a fault that rewrites the request reaches the server changed (PUT sent as POST: 409)', async () => {
    await send('server', 'PUT', '/api/v1/services/storageServices', service('upsert_as_post'));
    proxy.setFaults(['upsert.never-409']);
    try {
      expect((await send('proxy', 'PUT', '/api/v1/services/storageServices', service('upsert_as_post'))).status).toBe(409);
    } finally {
      proxy.setFaults([]);
    }
    expect((await send('proxy', 'PUT', '/api/v1/services/storageServices', service('upsert_as_post'))).status).toBe(200);
  });

  it('starts with an empty memory at every switch', async () => {
    // given a service soft-deleted through the proxy while the fault that remembers it is on
    proxy.setFaults(['upsert.restores-soft-deleted']);
    try {
      const created = json(await send('proxy', 'POST', '/api/v1/services/storageServices', service('remembered')));
      await send('proxy', 'DELETE', `/api/v1/services/storageServices/${String(created.id)}`);
      // want: the upsert answered still deleted while the memory holds it
      expect(json(await send('proxy', 'PUT', '/api/v1/services/storageServices', service('remembered'))).deleted).toBe(true);
      await send('proxy', 'DELETE', `/api/v1/services/storageServices/${String(created.id)}`);
      // want: after a switch, the same fault no longer knows the id, so the server's answer passes
      proxy.setFaults(['upsert.restores-soft-deleted']);
      expect(json(await send('proxy', 'PUT', '/api/v1/services/storageServices', service('remembered'))).deleted).toBe(false);
    } finally {
      proxy.setFaults([]);
    }
  });
});
