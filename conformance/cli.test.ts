import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { conformMain, type ConformDeps } from './cli.ts';
import { describeSource, RULES } from './rules.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Server[] = [];

async function fakeTarget(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

/** A loopback port nothing listens on (opened, then closed). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api`;
}

async function run(argv: string[], deps: ConformDeps = {}) {
  let out = '';
  let err = '';
  const code = await conformMain(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: {}, handleSigint: false, ...deps });
  return { code, out, err };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('catalog-kit conform: usage and connection errors exit 2', () => {
  it('prints the usage and exits 0 for --help', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: catalog-kit conform');
  });

  it('exits 2 on a usage error, with one line pointing at --help', async () => {
    const r = await run(['--runs', 'many']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('catalog-kit conform: --runs must be a positive integer (see catalog-kit conform --help)\n');
    expect(r.out).toBe('');
  });

  it('exits 2 when a target is given without any token', async () => {
    const r = await run(['--target', 'http://127.0.0.1:1/api']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('catalog-kit conform: --target needs a token: --token, --token-command or CK_TOKEN (see catalog-kit conform --help)\n');
  });

  it('exits 2 when the target is down', async () => {
    const r = await run(['--target', await closedPort(), '--token', 't']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach the target .*ECONNREFUSED/);
  });

  it('exits 2 when the target answers HTML', async () => {
    const target = await fakeTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
    });
    const r = await run(['--target', target, '--token', 't']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/text\/html, not JSON/);
  });

  it('exits 2 when the target answers JSON that is not this API', async () => {
    const target = await fakeTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
    });
    const r = await run(['--target', target, '--token', 't']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('not a metadata-catalog API');
  });

  it('exits 2 when the target refuses the token, and uses the output of --token-command', async () => {
    let seen = '';
    const target = await fakeTarget((req, res) => {
      seen = String(req.headers.authorization);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"code":401,"message":"Not Authorized! Token not present"}');
    });
    const r = await run(['--target', target, '--token-command', 'echo from-command']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('refused the token');
    expect(seen).toBe('Bearer from-command');
  });

  it('exits 2 when --token-command fails', async () => {
    const r = await run(['--target', 'http://127.0.0.1:1/api', '--token-command', 'exit 3']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--token-command failed');
  });

  it('without --target starts the reference through deps, runs against it and closes it', async () => {
    let closed = false;
    const baseUrl = await closedPort();
    const r = await run(['--profile', 'openmetadata'], {
      startReference: async ({ profile }) => {
        expect(profile).toBe('openmetadata');
        return { baseUrl, token: 'ref-token', close: async () => void (closed = true) };
      },
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot reach the target');
    expect(closed).toBe(true);
  });

  it('prints the rule catalogue for --list-rules: every rule with its source and what each profile expects', async () => {
    const r = await run(['--list-rules']);
    expect(r.code).toBe(0);
    for (const rule of RULES) expect(r.out).toContain(`  ${rule.id}\n    ${rule.name}\n    source: ${describeSource(rule.source)}`);
    expect(r.out).toMatch(/hard-delete\.status\n.*\n.*\n {4}profile contract: 204 with no body\n {4}profile openmetadata: 200 with the deleted entity/);
    expect(r.out).toContain('document.body-matches-schema');
    expect(r.out).toContain('checked on every response the suite receives');
  });

  it('exits 2 when the --openapi document cannot be read, naming it', async () => {
    const target = await fakeTarget((_req, res) => res.end());
    const r = await run(['--target', target, '--token', 't', '--openapi', '/nowhere/openapi.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--openapi /nowhere/openapi.yaml: cannot read it');
  });

  it('without --target and without a reference server exits 2', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no --target');
  });
});
