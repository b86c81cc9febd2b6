/**
 * The suite's client (conformance/http.ts) on a WHATWG fetch: Node's own against loopback servers
 * (connections kept alive, redirects answered as they are), any fetch-compatible function in its
 * place, and the mapping of fetch's errors to the cases conformance/README.md lists. What a whole
 * run makes of a bad target is conformance/bad-target.test.ts.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFetchError, type TransportFailure } from './fetch-errors.ts';
import { HttpClient, TransportError } from './http.ts';

const servers: Server[] = [];
const sockets = new Set<Socket>();

async function listen(server: Server): Promise<{ base: string; connections: () => number }> {
  servers.push(server);
  let connections = 0;
  server.on('connection', (s: Socket) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, connections: () => connections };
}

afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("the platform's fetch", () => {
  it('keeps connections alive (ten requests one after another, at most two connections), and records status, headers (lower case) and body', async () => {
    const target = await listen(
      createHttpServer((_req: IncomingMessage, res: ServerResponse) => {
        res.setHeader('ETag', '"1"');
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":"é"}');
      }),
    );
    const client = new HttpClient({ baseUrl: target.base, token: 't' });
    for (let i = 0; i < 10; i++) {
      const ex = await client.send({ method: 'GET', path: '/v1/x', query: { limit: 1 } });
      expect(ex).toMatchObject({ status: 201, responseText: '{"ok":"é"}', json: { ok: 'é' }, responseContentType: 'application/json' });
      expect(ex.responseHeaders.etag).toBe('"1"');
    }
    expect(target.connections()).toBeLessThanOrEqual(2);
  });

  it('answers a redirect as it came, without following it', async () => {
    const target = await listen(createHttpServer((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end()));
    const ex = await new HttpClient({ baseUrl: target.base, token: 't' }).send({ method: 'GET', path: '/v1/x' });
    expect(ex.status).toBe(302);
    expect(ex.responseHeaders.location).toBe('/elsewhere');
  });
});

describe('a fetch-compatible function in its place', () => {
  it('gets the method, the URL, the headers and the body, and its Response is the exchange', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const client = new HttpClient({
      baseUrl: 'http://catalog.test/api/',
      token: 'secret',
      fetch: async (url, init) => {
        seen.push({ url, init });
        return new Response('{"id":"1"}', { status: 201, headers: { 'content-type': 'application/json', location: 'http://catalog.test/api/v1/x/1' } });
      },
    });
    const ex = await client.send({ method: 'POST', path: '/v1/x', query: { fields: 'a,b' }, body: { name: 'n' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('http://catalog.test/api/v1/x?fields=a%2Cb');
    expect(seen[0]!.init).toMatchObject({ method: 'POST', body: '{"name":"n"}', redirect: 'manual' });
    expect(seen[0]!.init.headers).toMatchObject({ authorization: 'Bearer secret', 'content-type': 'application/json', accept: 'application/json' });
    expect(ex).toMatchObject({ status: 201, json: { id: '1' }, authLabel: 'admin', requestBody: '{"name":"n"}' });
    expect(ex.responseHeaders.location).toBe('http://catalog.test/api/v1/x/1');
  });

  it('a rejection becomes a TransportError naming the request', async () => {
    const client = new HttpClient({
      baseUrl: 'http://catalog.test/api',
      token: 't',
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })),
    });
    const err = await client.send({ method: 'GET', path: '/v1/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err).toMatchObject({ failure: 'refused', message: expect.stringMatching(/^GET http:\/\/catalog\.test\/api\/v1\/x failed: connection refused \(ECONNREFUSED/) });
  });
});

describe("fetch's errors, as the suite reports them", () => {
  const fetchFailed = (cause: object) => new TypeError('fetch failed', { cause });
  const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
  const cases: [string, unknown, TransportFailure, RegExp][] = [
    ['connection refused', fetchFailed(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1')), 'refused', /^connection refused \(ECONNREFUSED: connect/],
    [
      'closed by the server',
      fetchFailed(coded('UND_ERR_SOCKET', 'other side closed')),
      'closed',
      /^the connection was closed without an answer \(UND_ERR_SOCKET: other side closed\)/,
    ],
    ['reset', fetchFailed(coded('ECONNRESET', 'read ECONNRESET')), 'closed', /^the connection was closed without an answer \(ECONNRESET/],
    ['not HTTP', fetchFailed(coded('HPE_INVALID_CONSTANT', 'Expected HTTP/')), 'not-http', /^the answer is not HTTP \(HPE_INVALID_CONSTANT/],
    ['the time limit', new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'timeout', /^no answer within 2\.5 s \(--timeout\)$/],
    ["undici's own headers timeout", fetchFailed(coded('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error')), 'timeout', /^no answer within 2\.5 s/],
    [
      'a URL it cannot parse',
      new TypeError('Failed to parse URL from http://a b/api', { cause: coded('ERR_INVALID_URL', 'Invalid URL') }),
      'bad-url',
      /^not a URL \(ERR_INVALID_URL/,
    ],
    ['anything else', new Error('something odd'), 'other', /^something odd$/],
  ];
  it.each(cases)('%s', (_name, error, failure, reason) => {
    const got = describeFetchError(error, 2500);
    expect(got.failure).toBe(failure);
    expect(got.reason).toMatch(reason);
  });

  it('a real refused connection and a real non-HTTP answer are told apart', async () => {
    const closed = createTcpServer();
    const { base } = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const refused = await new HttpClient({ baseUrl: base, token: 't', timeoutMs: 2000 }).send({ method: 'GET', path: '/v1/x' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ failure: 'refused' });
    const ssh = await listen(createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    const notHttp = await new HttpClient({ baseUrl: ssh.base, token: 't', timeoutMs: 2000 }).send({ method: 'GET', path: '/v1/x' }).catch((e: unknown) => e);
    expect(notHttp).toMatchObject({ failure: 'not-http' });
  });
});
