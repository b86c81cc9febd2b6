/**
 * `catalog-kit drift`'s command line: --help, usage errors (exit 2 with a pointer to --help), and
 * servers it cannot use (exit 2 naming which one). Runs against real servers are in
 * test/self-test/drift.test.ts.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { driftMain } from './cli.ts';

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

async function refusedUrl(): Promise<string> {
  const server = createTcpServer();
  const url = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  servers.splice(servers.indexOf(server), 1);
  return url;
}

async function drift(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await driftMain(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: {}, handleSigint: false });
  return { code, out, err };
}

describe('catalog-kit drift: the command line', () => {
  it('--help lists every option and the exit statuses', async () => {
    const r = await drift('--help');
    expect(r.code).toBe(0);
    for (const option of ['target', 'token', 'reference', 'reference-token', 'profile', 'seed', 'runs', 'junit', 'ctrf', 'sarif', 'html', 'json'])
      expect(r.out).toContain(`--${option} `);
    expect(r.out).toMatch(/Exit status: 0 every pair of answers matched, 1 a difference, 2 usage or connection error\.\n$/);
  });

  it.each([
    [[], /--target is required/],
    [['--target', 'not a url'], /--target "not a url" is not a URL/],
    [['--target', 'http://127.0.0.1:1/v1'], /ending in \/api/],
    [['--target', 'http://127.0.0.1:1/api', '--bogus'], /Unknown option '--bogus'/],
    [
      ['--target', 'http://127.0.0.1:1/api', '--profile', 'nope'],
      /unknown --profile "nope" \(expected contract, openmetadata or openmetadata-1\.10\) \(see catalog-kit drift --help\)/,
    ],
    [['--target', 'http://127.0.0.1:1/api', '--path', '1:2'], /--path needs the --seed/],
    [['--target', 'http://127.0.0.1:1/api', '--runs', '0'], /--runs must be a positive integer/],
    [['--target', 'http://127.0.0.1:1/api'], /--target needs a token/],
    [['--target', 'http://127.0.0.1:1/api', '--token', 't', '--reference', 'http://127.0.0.1:2/api'], /--reference needs a token/],
  ])('%j: exit 2, one line and a pointer to --help', async (argv, message) => {
    const r = await drift(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/^\s+at /m);
  });

  it('a usage error on the command line itself points at --help', async () => {
    expect((await drift('--target', 'x')).err).toMatch(/\(see catalog-kit drift --help\)\n$/);
  });

  it('a target that is down: exit 2, naming the target', async () => {
    const r = await drift('--target', await refusedUrl(), '--token', 't', '--reference', await refusedUrl(), '--reference-token', 't');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the (target|reference) .*connection refused/);
  });

  it('a reference that is not this API: exit 2, naming the reference', async () => {
    const api = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":[],"paging":{"total":0}}');
      }),
    );
    const html = await listen(createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>')));
    const r = await drift('--target', api, '--token', 't', '--reference', html, '--reference-token', 't');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/answered 200 with text\/html, not JSON: this is not the metadata-catalog API\. Is --reference the API base URL/);
  });
});
