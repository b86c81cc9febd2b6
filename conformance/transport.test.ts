/**
 * The suite's HTTP/1.1 client (conformance/transport.ts) against loopback servers that frame their
 * answers each way HTTP allows: Content-Length, chunked coding (cut anywhere), the end of the
 * connection, interim 1xx answers, and answers without a body; and that it keeps connections
 * alive only when the server lets it. The failures of a bad target are conformance/bad-target.test.ts.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConnectionPool, sendRequest, TransportError } from './transport.ts';

const servers: Server[] = [];
const sockets = new Set<Socket>();

/** Listens on loopback; returns the base URL and how many connections the server accepted so far. */
async function listen(server: Server): Promise<{ base: string; connections: () => number }> {
  servers.push(server);
  let connections = 0;
  server.on('connection', (s: Socket) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server that answers every request with the same raw bytes, written in pieces of `cut` bytes. */
function rawTarget(answer: string, cut = Infinity) {
  return listen(
    createTcpServer((socket) => {
      socket.on('data', () => {
        const bytes = Buffer.from(answer, 'utf8');
        for (let i = 0; i < bytes.length; i += cut) socket.write(bytes.subarray(i, Math.min(bytes.length, i + cut)));
      });
    }),
  );
}

const get = (url: string, pool: ConnectionPool) => sendRequest(url, 'GET', { accept: 'application/json' }, undefined, 5000, pool);

describe('the response framing', () => {
  it('Content-Length: the body, the status and the headers (names in lower case), on one kept-alive connection', async () => {
    const target = await listen(
      createHttpServer((_req: IncomingMessage, res: ServerResponse) => {
        res.setHeader('ETag', '"1"');
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":"é"}');
      }),
    );
    const pool = new ConnectionPool();
    for (let i = 0; i < 3; i++) {
      const res = await get(`${target.base}/api/v1/x?limit=1`, pool);
      expect(res).toMatchObject({ status: 201, text: '{"ok":"é"}' });
      expect(res.headers).toMatchObject({ 'content-type': 'application/json', etag: '"1"', 'set-cookie': 'a=1, b=2' });
    }
    expect(target.connections()).toBe(1);
  });

  it('chunked coding cut at every byte, with chunk extensions and trailers, and a multi-byte character across chunks', async () => {
    const body = ['{"a":', '"ü€', '"}'];
    const chunks = body.map((c) => `${Buffer.byteLength(c).toString(16)};ext=1\r\n${c}\r\n`).join('');
    const target = await rawTarget(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\nX-Trailer: 1\r\n\r\n`, 1);
    const pool = new ConnectionPool();
    expect((await get(`${target.base}/a`, pool)).text).toBe('{"a":"ü€"}');
    expect((await get(`${target.base}/b`, pool)).text).toBe('{"a":"ü€"}');
    expect(target.connections()).toBe(1);
  });

  it('a body that lasts until the connection ends; the connection is not reused', async () => {
    const target = await listen(createTcpServer((socket) => socket.once('data', () => socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end'))));
    const pool = new ConnectionPool();
    expect((await get(`${target.base}/a`, pool)).text).toBe('until the end');
    expect((await get(`${target.base}/b`, pool)).text).toBe('until the end');
    expect(target.connections()).toBe(2);
  });

  it('an interim 100 answer is skipped; 204 and 304 have no body and keep the connection', async () => {
    let n = 0;
    const answers = [
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 204 No Content\r\n\r\n',
      'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n',
    ];
    const target = await listen(createTcpServer((socket) => socket.on('data', () => socket.write(answers[n++ % answers.length]!))));
    const pool = new ConnectionPool();
    expect(await get(`${target.base}/a`, pool)).toMatchObject({ status: 200, text: 'ok' });
    expect(await get(`${target.base}/b`, pool)).toMatchObject({ status: 204, text: '' });
    expect(await get(`${target.base}/c`, pool)).toMatchObject({ status: 304, text: '', headers: { etag: '"x"' } });
    expect(target.connections()).toBe(1);
  });

  it('Connection: close, or a Keep-Alive hint of a second or less, opens a new connection for the next request', async () => {
    for (const header of ['Connection: close', 'Keep-Alive: timeout=1']) {
      const target = await listen(createTcpServer((socket) => socket.on('data', () => socket.write(`HTTP/1.1 200 OK\r\n${header}\r\nContent-Length: 2\r\n\r\nok`))));
      const pool = new ConnectionPool();
      await get(`${target.base}/a`, pool);
      await get(`${target.base}/b`, pool);
      expect(target.connections()).toBe(2);
    }
  });

  it('a connection closed in the middle of the body is a closed connection while reading the response', async () => {
    const target = await listen(createTcpServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"cut'))));
    const err = await get(`${target.base}/a`, new ConnectionPool()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).failure).toBe('closed');
    expect((err as TransportError).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/a: reading the response failed: the connection was closed without an answer \(ECONNRESET: the connection was closed in the middle of the answer\)$/,
    );
  });
});

describe('the request', () => {
  it('carries the method, path and query, Host, the headers, and the body with its length in bytes; PUT without a body says Content-Length: 0', async () => {
    const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
    const target = await listen(
      createHttpServer((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (c: string) => (body += c));
        req.on('end', () => {
          seen.push({ method: req.method, url: req.url, headers: req.headers, body });
          res.end();
        });
      }),
    );
    const pool = new ConnectionPool();
    await sendRequest(`${target.base}/api/v1/x?q=a%20b`, 'POST', { 'content-type': 'application/json', 'If-Match': '"3"' }, '{"d":"ü"}', 5000, pool);
    await sendRequest(`${target.base}/api/v1/y`, 'PUT', {}, undefined, 5000, pool);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/x?q=a%20b', body: '{"d":"ü"}' });
    expect(seen[0]!.headers).toMatchObject({ host: target.base.slice('http://'.length), 'content-type': 'application/json', 'if-match': '"3"', 'content-length': '10' });
    expect(seen[1]).toMatchObject({ method: 'PUT', url: '/api/v1/y', body: '' });
    expect(seen[1]!.headers['content-length']).toBe('0');
  });

  it('refuses a header value with a line break (no header injection)', () => {
    expect(() => sendRequest('http://127.0.0.1:1/x', 'GET', { authorization: 'Bearer a\r\nX-Evil: 1' }, undefined, 5000, new ConnectionPool())).toThrow(
      /Invalid character in header content/,
    );
  });
});

/**
 * HTTPS with a certificate made for the test (openssl): for `localhost` only. Node's own trust
 * store decides, so the trusted case runs in a child process given the certificate through
 * NODE_EXTRA_CA_CERTS (read at start-up only).
 */
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
describe.skipIf(!hasOpenssl)('HTTPS (skipped without the openssl command, which makes the test certificate)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ck-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tls = () => {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      {
        stdio: 'ignore',
      },
    );
    return { key: readFileSync(key), cert: readFileSync(cert), certFile: cert };
  };
  const httpsTarget = async () => {
    const { key, cert, certFile } = tls();
    const server = createHttpsServer({ key, cert }, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"secure":true}'));
    let connections = 0;
    server.on('secureConnection', () => connections++);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, certFile, connections: () => connections };
  };

  it('a certificate nobody trusts is a connection failure that says so', async () => {
    const target = await httpsTarget();
    const failure = get(`https://localhost:${target.port}/api/v1/x`, new ConnectionPool());
    await expect(failure).rejects.toThrow(TransportError);
    await expect(failure).rejects.toThrow(/self[- ]signed certificate/i);
  });

  it('trusted: answers on one kept-alive connection; the certificate must name the host (127.0.0.1 is not localhost)', async () => {
    const target = await httpsTarget();
    const script = join(dir, 'client.mts');
    writeFileSync(
      script,
      `import { ConnectionPool, sendRequest } from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL('./transport.ts', import.meta.url))).href)};
const pool = new ConnectionPool();
const out = [];
for (let i = 0; i < 3; i++) out.push((await sendRequest('https://localhost:${target.port}/api/v1/x', 'GET', {}, undefined, 5000, pool)).text);
const other = await sendRequest('https://127.0.0.1:${target.port}/api/v1/x', 'GET', {}, undefined, 5000, pool).then(() => 'answered', (e) => e.message);
console.log(JSON.stringify({ out, other }));
`,
    );
    // Asynchronously: the server answering it runs in this process.
    const child = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NODE_EXTRA_CA_CERTS: target.certFile },
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout) as { out: string[]; other: string };
    expect(result.out).toEqual(['{"secure":true}', '{"secure":true}', '{"secure":true}']);
    expect(result.other).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list|ERR_TLS_CERT_ALTNAME_INVALID/);
    // Three answers over one connection to localhost, one more attempted for 127.0.0.1.
    expect(target.connections()).toBe(1);
  });
});
