/**
 * `catalog-kit conform` against a target in bad shape — down, slow, silent, HTML,
 * garbage, 500s, dropped connections — ends with a clear message and the right exit code: 2 when the
 * target cannot be tested (connection, usage, not this API), 1 when it answers but breaks rules.
 * Never a stack trace, never a hang. Fake targets are loopback servers (127.0.0.1, port 0).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { conformMain } from './cli.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: (Server | TcpServer)[] = [];
const sockets = new Set<Socket>();

async function listen(server: Server | TcpServer): Promise<string> {
  servers.push(server);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

const fakeTarget = (handler: Handler) => listen(createHttpServer(handler));

afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The probe: `GET /v1/services/storageServices?limit=1` answered as the API would. */
const isProbe = (req: IncomingMessage) => req.method === 'GET' && (req.url ?? '').startsWith('/api/v1/services/storageServices?');
function emptyList(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"data":[],"paging":{"total":0}}');
}

async function conform(target: string, ...extra: string[]) {
  let out = '';
  let err = '';
  const code = await conformMain(['--target', target, '--token', 't', ...extra], {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env: {},
    handleSigint: false,
  });
  return { code, out, err, all: out + err };
}

/** A stack frame (`    at fn (file:1:2)`) or the suite's last-resort message would mean an unhandled case. */
function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(text).not.toContain('internal error');
}

describe('a target that is down or drops connections: exit 2 with the reason', () => {
  it('connection refused names ECONNREFUSED and asks whether the server runs', async () => {
    const server = createTcpServer();
    const url = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const r = await conform(url);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the target .*connection refused \(ECONNREFUSED.*Is the server running/);
    expectNoStackTrace(r.all);
  });

  it('a server that reads each request and closes the connection without answering is reported as a closed connection', async () => {
    const url = await listen(createTcpServer((socket) => socket.once('data', () => socket.destroy())));
    const r = await conform(url);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the target .*the connection was closed without an answer/);
    expectNoStackTrace(r.all);
  });

  // The close may come before or after the request is written, and a client may report it or the
  // time limit: either message is right, and neither may hang.
  it('a server that drops each connection before reading anything is a closed connection or a timeout', async () => {
    const url = await listen(createTcpServer((socket) => socket.destroy()));
    const r = await conform(url, '--timeout', '0.5');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the target .*(no answer within 0\.5 s|the connection was closed without an answer)/);
    expectNoStackTrace(r.all);
  });

  it('a target that answers the probe and then drops every connection stops the run with exit 2', async () => {
    const url = await fakeTarget((req, res) => (isProbe(req) ? emptyList(res) : req.socket.destroy()));
    const r = await conform(url, '--runs', '2');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the target stopped answering .*the connection was closed without an answer/);
    expectNoStackTrace(r.all);
  });
});

describe('a slow or silent target: a clear timeout, exit 2, no hang', () => {
  it('a server that never answers is given up after --timeout, with the advice to raise it', async () => {
    const url = await fakeTarget(() => {});
    const r = await conform(url, '--timeout', '0.5');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the target .*no answer within 0\.5 s \(--timeout\)\. .*Raise --timeout/);
    expectNoStackTrace(r.all);
  });

  it('an answer that comes after the time limit counts as no answer', async () => {
    const url = await fakeTarget((_req, res) => void setTimeout(() => emptyList(res), 3000).unref());
    const r = await conform(url, '--timeout', '0.5');
    expect(r.code).toBe(2);
    expect(r.err).toContain('no answer within 0.5 s');
  });

  it('headers on time and then a body that never ends in time is a timeout too', async () => {
    const url = await fakeTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    const r = await conform(url, '--timeout', '0.5');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/reading the response failed: no answer within 0\.5 s/);
    expectNoStackTrace(r.all);
  });

  it('a target that answers the probe and then goes silent stops the run with exit 2', async () => {
    const url = await fakeTarget((req, res) => (isProbe(req) ? emptyList(res) : undefined));
    const r = await conform(url, '--timeout', '0.5', '--runs', '2');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the target stopped answering .*no answer within 0\.5 s/);
    expectNoStackTrace(r.all);
  });

  it('the command itself exits by itself (no open handle keeps it alive) with status 2', async () => {
    const url = await fakeTarget(() => {});
    // The built command (scripts/build.mjs), as `npm start` and the installed package run it.
    const bin = fileURLToPath(new URL('../dist/bin/catalog-kit.js', import.meta.url));
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first (this test runs the built command)`);
    const proc = spawn(process.execPath, [bin, 'conform', '--target', url, '--token', 't', '--timeout', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => void (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('no answer within 1 s');
    expectNoStackTrace(err);
  }, 60_000);
});

describe('a target that is not this API: exit 2 saying what came back', () => {
  it.each([
    ['an HTML page with status 200', 200, 'text/html', '<html><body>Welcome to nginx!</body></html>', /answered 200 with text\/html, not JSON/],
    ['an HTML 404 page', 404, 'text/html; charset=utf-8', '<!doctype html><h1>Not Found</h1>', /answered 404 with text\/html; charset=utf-8, not JSON/],
    ['bytes that claim to be JSON', 200, 'application/json', '\u0000\u00ff{{{ garbage', /answered 200 with application\/json, not JSON/],
    ['an empty body', 200, '', '', /answered 200 with no content type, not JSON/],
    ['JSON of another API', 200, 'application/json', '[1,2,3]', /not a metadata-catalog API \(expected 200 with \{data/],
  ])('%s', async (_name, status, type, body, message) => {
    const url = await fakeTarget((_req, res) => {
      res.writeHead(status, type ? { 'content-type': type } : {});
      res.end(body);
    });
    const r = await conform(url);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expectNoStackTrace(r.all);
  });

  it('something that does not speak HTTP at all', async () => {
    const url = await listen(createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    const r = await conform(url);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the target .*the answer is not HTTP \(HPE_.*Something that does not speak HTTP/);
    expectNoStackTrace(r.all);
  });

  it('an answer that never ends is cut off (size limit or time limit), not read into memory forever', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const url = await fakeTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const r = await conform(url, '--timeout', '10');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the answer is larger than 32 MB|no answer within 10 s/);
    expectNoStackTrace(r.all);
  });
});

describe('a target that answers 500: exit 2 when it cannot be tested, exit 1 when it breaks rules', () => {
  it.each([
    ['a JSON error', 'application/json', '{"code":500,"message":"Internal Server Error"}', 500],
    ['a proxy page', 'text/html', '<html><h1>502 Bad Gateway</h1></html>', 502],
  ])('500s for everything (%s) stop at the first request: the target fails', async (_name, type, body, status) => {
    const url = await fakeTarget((_req, res) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
    const r = await conform(url);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`the target fails: GET .*/v1/services/storageServices\\?limit=1 answered ${status} .*fix the server`));
    expectNoStackTrace(r.all);
  });

  it('500s for everything after a good probe: the rules fail (exit 1) and the table is printed', async () => {
    const url = await fakeTarget((req, res) => {
      if (isProbe(req)) return emptyList(res);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"code":500,"message":"boom"}');
    });
    const r = await conform(url, '--runs', '2', '--seed', '7');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/create\.[\w-]+ .*fail/i);
    // Only the valid list answers of the probe's kind pass a rule: their bodies match the document.
    expect(r.out).toMatch(/\b1 passed, \d+ failed\s*$/);
    expect(r.out).toMatch(/document\.body-matches-schema +pass/);
    expect(r.out).toContain('500');
    // Every DELETE of the cleanup failed too: the first few are shown, not hundreds.
    expect(r.out).toMatch(/cleanup: could not remove (\d+) root\(s\): [^\n]*; … and \d+ more \(all in --json\)/);
    expectNoStackTrace(r.all);
  });
});
