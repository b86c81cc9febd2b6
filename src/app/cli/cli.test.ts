/**
 * The `catalog-kit` command run in-process through main()'s Io (src/app/cli/main.ts): help and
 * version, one-line usage errors (exit 2), one-line start-up problems before any banner (exit 1),
 * and `token` minting what a server started with the same --jwt-* options accepts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_FORMATS } from '../request-log.ts';
import { ListenError, startServer } from '../server.ts';
import type { TestApp } from '../../../test/kit.ts';
import { startApp } from '../../../test/kit.ts';
import { staticClosure } from '../../../test/static-imports.ts';
import { main } from './main.ts';
import { isLoopbackHost, SERVE_COMMAND } from './serve.ts';
import { TOKEN_COMMAND } from './token.ts';

interface Run {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs `serve` in-process until its banner is complete (the line `until` matches), then stops it
 * through Io.stop and returns what it printed.
 */
async function runUntilListening(until: RegExp, ...argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const stop = new AbortController();
  const code = await main(argv, {
    out: (t) => {
      out += t;
      if (until.test(out)) stop.abort();
    },
    err: (t) => void (err += t),
    stop: stop.signal,
  });
  return { code, out, err };
}

async function run(...argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

/** Exactly one line on stderr, nothing on stdout: the shape of every CLI error. */
function expectOneErrorLine(r: Run, code: number, pattern: RegExp): void {
  expect(r).toMatchObject({ code, out: '' });
  expect(r.err).toMatch(/^[^\n]+\n$/);
  expect(r.err).toMatch(pattern);
}

const packageVersion = (JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../package.json'), 'utf8')) as { version: string }).version;

describe('catalog-kit --help and --version', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the command list, exit 0', async (flag) => {
    const r = await run(flag);
    expect(r).toMatchObject({ code: 0, err: '' });
    for (const command of ['serve', 'token', 'conform', '--version']) expect(r.out).toContain(command);
  });

  it.each([['--version'], ['-v']])('%s prints the package version, exit 0', async (flag) => {
    expect(await run(flag)).toEqual({ code: 0, out: `${packageVersion}\n`, err: '' });
  });

  it('no command: the usage on stderr, exit 2', async () => {
    const r = await run();
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toContain('Usage: catalog-kit <command>');
  });

  it.each([
    { argv: ['nope'], want: 'catalog-kit: unknown command "nope" (see catalog-kit --help)' },
    { argv: ['--nope'], want: 'catalog-kit: unknown option "--nope" (see catalog-kit --help)' },
    { argv: ['toString'], want: 'catalog-kit: unknown command "toString" (see catalog-kit --help)' },
  ])('$argv: one line, exit 2', async ({ argv, want }) => {
    expect(await run(...argv)).toEqual({ code: 2, out: '', err: `${want}\n` });
  });
});

/** The subcommands `catalog-kit --help` lists, read from its "Commands:" section. */
async function listedCommands(): Promise<string[]> {
  const { out } = await run('--help');
  const section = out.slice(out.indexOf('Commands:\n') + 'Commands:\n'.length, out.indexOf('\n\n', out.indexOf('Commands:')));
  return section.split('\n').map((line) => line.trim().split(/\s+/)[0]!);
}

/**
 * What differs from the one layout of a command's --help (src/app/cli/options.ts formatHelp): the
 * usage line, the summary, `Options:` with every option's text starting in one column (short names
 * in a column of their own) and `-h, --help` last, defaults as `(default: …)`, the exit statuses
 * last, no line over 100 characters.
 */
function layoutProblems(command: string, help: string): string[] {
  const problems: string[] = [];
  const lines = help.replace(/\n$/, '').split('\n');
  // What a command cannot run without comes before `[options]` (drift's --target).
  if (!new RegExp(`^Usage: catalog-kit ${command}( \\S+)* \\[options\\]$`).test(lines[0] ?? '')) problems.push(`first line: ${lines[0]}`);
  if (lines[1] !== '' || !lines[2]) problems.push('no summary after a blank line');
  const options = lines.indexOf('Options:');
  const exit = lines.findIndex((line) => line.startsWith('Exit status: '));
  if (options < 0 || exit < options) return [...problems, 'no "Options:" followed by "Exit status:"'];
  if (lines[options - 1] !== '' || lines[exit - 1] !== '') problems.push('sections not separated by blank lines');
  const rows = lines.slice(options + 1, exit - 1);
  const column = /^( {2}-\w, | {6})--[\w-]+(?: \S+)? +/.exec(rows[0] ?? '')?.[0].length;
  for (const row of rows) {
    const option = /^( {2}-\w, | {6})--[\w-]+(?: \S+)? +/.exec(row);
    if (option ? option[0].length !== column : !row.startsWith(' '.repeat(column ?? 0)) || row[column ?? 0] === ' ') problems.push(`out of the column: ${row}`);
  }
  if (!/^ {2}-h, --help +show this help and exit$/.test(rows.at(-1) ?? '')) problems.push('-h, --help is not the last option');
  for (const line of lines) if (line.length > 100) problems.push(`over 100 characters: ${line}`);
  if (/\(default [^:]/.test(help)) problems.push('a default not written "(default: …)"');
  return problems;
}

describe('every subcommand listed by --help has the same --help layout and usage errors', () => {
  it('lists serve, token, conform and drift', async () => {
    expect(await listedCommands()).toEqual(expect.arrayContaining(['serve', 'token', 'conform', 'drift']));
  });

  it("each one's --help has the layout of the others", async () => {
    for (const command of await listedCommands()) {
      const r = await run(command, '--help');
      expect(r, command).toMatchObject({ code: 0, err: '' });
      expect(layoutProblems(command, r.out), command).toEqual([]);
    }
  });

  it('each one answers an unknown option with one line naming it and pointing at its --help, exit 2', async () => {
    for (const command of await listedCommands()) {
      const r = await run(command, '--no-such-option');
      expect(r, command).toMatchObject({ code: 2, out: '' });
      expect(r.err, command).toMatch(new RegExp(`^catalog-kit ${command}: [^\\n]*--no-such-option[^\\n]* \\(see catalog-kit ${command} --help\\)\\n$`, 'i'));
    }
  });
});

describe('every subcommand answers --help without starting anything', () => {
  it.each([
    { command: 'serve', spec: SERVE_COMMAND },
    { command: 'token', spec: TOKEN_COMMAND },
  ])('$command --help and -h list every option it accepts, with the exit statuses', async ({ command, spec }) => {
    for (const flag of ['--help', '-h']) {
      const r = await run(command, flag);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toContain(`Usage: catalog-kit ${command} [options]`);
      for (const option of spec.options) expect(r.out).toMatch(new RegExp(`--${option.name}\\b`));
      expect(r.out).toMatch(/\nExit status: 0 [^]*2 wrong command line\.\n$/);
    }
  });

  it('serve --help shows the defaults of its options', async () => {
    const { out } = await run('serve', '--help');
    for (const shown of [
      '(default: $PORT, else 8585)',
      '(default: 127.0.0.1)',
      '(default: contract)',
      '(default: pretty)',
      '(default: default)',
      '(default: loopback hosts only)',
    ]) {
      expect(out).toContain(shown);
    }
  });

  it('token --help names --jwt-secret and its alias --secret', async () => {
    const { out } = await run('token', '--help');
    expect(out).toMatch(/--jwt-secret SECRET +HMAC secret/);
    expect(out).toMatch(/--secret SECRET +the same as --jwt-secret/);
  });

  it('conform --help prints its usage, exit 0', async () => {
    const r = await run('conform', '--help');
    expect(r).toMatchObject({ code: 0, err: '' });
    for (const option of ['--target', '--token', '--token-command', '--restricted-token', '--profile', '--runs', '--seed', '--path', '--rules', '--junit', '--json', '--timeout']) {
      expect(r.out).toContain(option);
    }
  });

  it('help <command> is <command> --help', async () => {
    expect(await run('help', 'serve')).toEqual(await run('serve', '--help'));
  });

  it('--help wins over the other options: nothing starts', async () => {
    const r = await run('serve', '--port', '1', '--help');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('Usage: catalog-kit serve');
  });
});

describe('usage errors: one line naming the problem and pointing at --help, exit 2', () => {
  it.each([
    { argv: ['serve', '--bogus'], want: 'catalog-kit serve: unknown option --bogus (see catalog-kit serve --help)' },
    { argv: ['serve', '-x'], want: 'catalog-kit serve: unknown option -x (see catalog-kit serve --help)' },
    { argv: ['serve', 'extra'], want: 'catalog-kit serve: unexpected argument "extra" (see catalog-kit serve --help)' },
    { argv: ['serve', '--port'], want: 'catalog-kit serve: --port needs a value (PORT) (see catalog-kit serve --help)' },
    { argv: ['serve', '--port', 'eighty'], want: 'catalog-kit serve: --port "eighty" is not a port (0-65535) (see catalog-kit serve --help)' },
    { argv: ['serve', '--port', '70000'], want: 'catalog-kit serve: --port "70000" is not a port (0-65535) (see catalog-kit serve --help)' },
    {
      argv: ['serve', '--profile', 'nope'],
      want: 'catalog-kit serve: unknown --profile "nope" (expected contract, openmetadata or openmetadata-1.10) (see catalog-kit serve --help)',
    },
    { argv: ['serve', '--log', 'loud'], want: `catalog-kit serve: unknown --log "loud" (expected ${LOG_FORMATS.join(', ')}) (see catalog-kit serve --help)` },
    { argv: ['serve', '--insecure-dev-key=yes'], want: 'catalog-kit serve: --insecure-dev-key takes no value (see catalog-kit serve --help)' },
    { argv: ['serve', '--jwt-secret', ''], want: 'catalog-kit serve: --jwt-secret must not be empty (see catalog-kit serve --help)' },
    { argv: ['serve', '--host', 'a', '--host', 'b'], want: 'catalog-kit serve: --host given twice (see catalog-kit serve --help)' },
    {
      argv: ['serve', '--webhook-allow', 'https://hooks.example.com'],
      want: 'catalog-kit serve: --webhook-allow "https://hooks.example.com" is not a host pattern (a host name or address, * for any run of characters: hooks.example.com, *.internal) (see catalog-kit serve --help)',
    },
    { argv: ['token', '--bogus'], want: 'catalog-kit token: unknown option --bogus (see catalog-kit token --help)' },
    { argv: ['token', '--role', 'Root'], want: 'catalog-kit token: unknown role "Root" (expected Admin, DataSteward, DataConsumer) (see catalog-kit token --help)' },
    { argv: ['token', '--expires', 'soon'], want: 'catalog-kit token: --expires "soon" is not a duration (expected e.g. 30m, 1h, 7d) (see catalog-kit token --help)' },
    { argv: ['token', '--secret', 'a', '--jwt-secret', 'b'], want: 'catalog-kit token: --jwt-secret given twice (see catalog-kit token --help)' },
    { argv: ['conform', '--bogus'], want: 'catalog-kit conform: unknown option --bogus (see catalog-kit conform --help)' },
  ])('$argv', async ({ argv, want }) => {
    expect(await run(...argv)).toEqual({ code: 2, out: '', err: `${want}\n` });
  });
});

describe('token: what a server started with the same --jwt-* options accepts', () => {
  const SECRET = 'cli-test-secret-0123456789abcdef0123456789abcdef';
  const FLAGS = ['--jwt-secret', SECRET, '--jwt-issuer', 'https://idp.test', '--jwt-audience', 'catalog-kit-test'];
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp({ auth: { secret: SECRET, issuer: 'https://idp.test', audience: 'catalog-kit-test' } });
  });

  async function mint(...argv: string[]): Promise<string> {
    const r = await run('token', ...argv);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    return r.out.trim();
  }

  async function status(token: string): Promise<number> {
    const res = await fetch(`${server.baseUrl}/v1/users/name/cli-steward`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    return res.status;
  }

  it.each([
    { label: '--jwt-secret with the same issuer and audience', argv: [...FLAGS], want: 200 },
    { label: 'the --secret alias', argv: ['--secret', SECRET, ...FLAGS.slice(2)], want: 200 },
    { label: 'another secret', argv: ['--jwt-secret', `${SECRET}-other`, ...FLAGS.slice(2)], want: 401 },
    { label: 'no issuer', argv: [...FLAGS.slice(0, 2), ...FLAGS.slice(4)], want: 401 },
    { label: 'another audience', argv: [...FLAGS.slice(0, 4), '--jwt-audience', 'someone-else'], want: 401 },
    { label: 'the development key', argv: FLAGS.slice(2), want: 401 },
  ])('$label: $want', async ({ argv, want }) => {
    // The user exists once a token naming it was accepted; a 200 is the user read with it.
    expect(await status(await mint('--user', 'cli-steward', '--role', 'DataSteward', ...argv))).toBe(want);
  });

  it('the claims are the ones asked for', async () => {
    const token = await mint('--user', 'someone', '--role', 'DataConsumer', '--expires', '30m', ...FLAGS);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'someone', roles: ['DataConsumer'], iss: 'https://idp.test', aud: 'catalog-kit-test' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(1800);
  });
});

describe('serve: a start-up problem is one line on stderr and exit 1, before any banner', () => {
  let busy: Server;
  let busyPort: number;
  let dir: string;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    busyPort = (busy.address() as { port: number }).port;
    dir = mkdtempSync(join(tmpdir(), 'catalog-kit-cli-'));
  });
  afterAll(async () => {
    await new Promise<void>((done) => busy.close(() => done()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('startServer rejects with a ListenError on a busy port (express 5 app.listen would call back as if listening)', async () => {
    await expect(startServer({ port: busyPort, host: '127.0.0.1', log: () => {} })).rejects.toThrow(ListenError);
    await expect(startServer({ port: busyPort, host: '127.0.0.1', log: () => {} })).rejects.toMatchObject({ code: 'EADDRINUSE', port: busyPort });
  });

  it('startServer keeps the OpenAPI document lazy: `document` stays a getter, read when first asked for, not at start', async () => {
    const running = await startServer({ port: 0, host: '127.0.0.1', log: () => {} });
    try {
      expect(typeof Object.getOwnPropertyDescriptor(running, 'document')?.get).toBe('function');
      expect(running.document.paths['/v1/containers']).toBeDefined();
      expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    } finally {
      await running.close();
    }
  });

  it('a port already in use', async () => {
    const r = await run('serve', '--port', String(busyPort));
    expect(r).toEqual({
      code: 1,
      out: '',
      err: `catalog-kit serve: port ${busyPort} on 127.0.0.1 is already in use (EADDRINUSE); choose another with --port\n`,
    });
  });

  it('the PORT variable is used when --port is absent (and the same check applies)', async () => {
    const previous = process.env.PORT;
    process.env.PORT = String(busyPort);
    try {
      const r = await run('serve', '--fixtures', 'none');
      expectOneErrorLine(r, 1, new RegExp(`^catalog-kit serve: port ${busyPort} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      if (previous === undefined) delete process.env.PORT;
      else process.env.PORT = previous;
    }
  });

  it('a fixtures directory that does not exist', async () => {
    const missing = join(dir, 'missing');
    expect(await run('serve', '--port', '0', '--fixtures', missing)).toEqual({ code: 1, out: '', err: `catalog-kit serve: --fixtures ${missing}: no such file or directory\n` });
  });

  it('a fixtures "directory" that is a file', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    expectOneErrorLine(await run('serve', '--port', '0', '--fixtures', file), 1, /^catalog-kit serve: --fixtures .*plain\.txt: not a directory\n$/);
  });

  it('a fixture file that is not JSON, named', async () => {
    const fixtures = join(dir, 'broken-json');
    mkdirSync(fixtures);
    writeFileSync(join(fixtures, '10-ok.json'), '{"kind": "tag", "requests": []}');
    writeFileSync(join(fixtures, '20-broken.json'), '{ "kind": \n');
    // Named by load-fixtures.ts itself, with the line where the JSON stops (a cut-off file: its end).
    expectOneErrorLine(
      await run('serve', '--port', '0', '--fixtures', fixtures),
      1,
      /^catalog-kit serve: --fixtures .*broken-json: fixture 20-broken\.json: not valid JSON: line 2 column 1: Unexpected end of JSON input\n$/,
    );
    writeFileSync(join(fixtures, '20-broken.json'), '{\n  "kind": "tag",\n  "requests": [\n    {"name": "a"}\n    {"name": "b"}\n  ]\n}\n');
    expectOneErrorLine(await run('serve', '--port', '0', '--fixtures', fixtures), 1, /: fixture 20-broken\.json: not valid JSON: line 5 column 5: /);
  });

  it('a fixture the server cannot apply, named', async () => {
    const fixtures = join(dir, 'unknown-kind');
    mkdirSync(fixtures);
    writeFileSync(join(fixtures, '10-x.json'), '{"kind": "nosuchkind", "requests": [{}]}');
    expectOneErrorLine(await run('serve', '--port', '0', '--fixtures', fixtures), 1, /^catalog-kit serve: --fixtures .*unknown-kind: fixture 10-x\.json: /);
  });

  it('--webhook-allow lets a subscription name a host outside loopback; without it, the fixture naming one is refused', async () => {
    const fixtures = join(dir, 'webhook-host');
    mkdirSync(fixtures);
    const subscription = {
      name: 'outside',
      alertType: 'Notification',
      enabled: false,
      destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: 'https://a.hooks.test/x' } }],
    };
    writeFileSync(join(fixtures, '10-hooks.json'), JSON.stringify({ kind: 'eventsubscription', requests: [subscription] }));
    expectOneErrorLine(
      await run('serve', '--port', '0', '--fixtures', fixtures),
      1,
      /a\.hooks\.test is not a loopback host, and the server calls other hosts only when started with --webhook-allow/,
    );
    const r = await runUntilListening(
      /Admin token/,
      'serve',
      '--port',
      '0',
      '--fixtures',
      fixtures,
      '--log',
      'quiet',
      '--webhook-allow',
      '*.hooks.test',
      '--webhook-allow',
      'other.test',
    );
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/Catalog: \d+ entities/);
  });

  it('a data file in a directory that does not exist', async () => {
    const file = join(dir, 'no', 'such', 'state.json');
    expect(await run('serve', '--port', '0', '--data', file)).toEqual({ code: 1, out: '', err: `catalog-kit serve: --data ${file}: no such file or directory\n` });
  });

  it('a data file that is not a state export', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'not json\nat all');
    expectOneErrorLine(await run('serve', '--port', '0', '--data', file), 1, /^catalog-kit serve: cannot read the data file .*state\.json: /);
  });

  it('a public key file that does not exist, or is not a key', async () => {
    const missing = join(dir, 'missing.pem');
    expect(await run('serve', '--port', '0', '--jwt-public-key', missing)).toEqual({
      code: 1,
      out: '',
      err: `catalog-kit serve: --jwt-public-key ${missing}: no such file or directory\n`,
    });
    const garbage = join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a key');
    expectOneErrorLine(
      await run('serve', '--port', '0', '--jwt-public-key', garbage),
      1,
      /^catalog-kit serve: --jwt-public-key .*garbage\.pem: Cannot read the configured public key/,
    );
  });
});

const here = dirname(fileURLToPath(import.meta.url));

describe('start-up cost: what each entry point imports at load', () => {
  it.each([
    { entry: 'main.ts', files: ['src/app/cli/main.ts', 'src/app/cli/options.ts'], packages: [] },
    // jose's signing module only, not its index (JWE, JWK, JWKS too) nor its verifying modules.
    { entry: 'token.ts', files: ['src/app/cli/options.ts', 'src/app/cli/token.ts', 'src/auth/tokens.ts'], packages: ['jose/jwt/sign'] },
    {
      entry: 'serve.ts',
      files: ['src/app/cli/options.ts', 'src/app/cli/serve.ts', 'src/app/request-log.ts', 'src/app/request-path.ts', 'src/config/profiles.ts'],
      packages: [],
    },
  ])('$entry loads only $files and $packages', ({ entry, files, packages }) => {
    expect(staticClosure(join(here, entry))).toEqual({ files, packages });
  });

  it('the server module loads the catalog, not express nor body-parser: a request outside /api, or with a body, imports them', () => {
    const closure = staticClosure(join(here, '../server.ts'));
    expect(closure.files).toContain('src/app/app.ts');
    expect(closure.packages).not.toContain('express');
    expect(closure.packages).not.toContain('body-parser');
    // The walker sees them where they are loaded.
    expect(staticClosure(join(here, '../express-app.ts')).packages).toContain('express');
  });
});

describe('serve: the public development key is never exposed by accident', () => {
  const REFUSED =
    /^catalog-kit serve: --host \S+ is not a loopback address .*development key: give --jwt-secret or --jwt-public-key \(or --insecure-dev-key to allow it anyway\)\n$/;

  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '128.0.0.1', '::ffff:10.0.0.1'])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10'])('--host %s with the development key is refused before anything else, exit 1', async (host) => {
    // The fixtures directory does not exist and the port is taken: neither is reached, so
    // nothing was read and nothing bound.
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = String((busy.address() as { port: number }).port);
    try {
      const r = await run('serve', '--host', host, '--port', port, '--fixtures', '/no/such/fixtures');
      expectOneErrorLine(r, 1, REFUSED);
    } finally {
      await new Promise<void>((done) => busy.close(() => done()));
    }
  });

  it('--insecure-dev-key allows it, and the banner warns', async () => {
    const r = await runUntilListening(/Admin token/, 'serve', '--host', '0.0.0.0', '--port', '0', '--fixtures', 'none', '--log', 'quiet', '--insecure-dev-key');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^API base URL: http:\/\/0\.0\.0\.0:\d+\/api /m);
    expect(r.out).toMatch(/^WARNING: listening on 0\.0\.0\.0 with the public development key: anyone who can reach this server can mint an Admin token/m);
  });

  it('--jwt-secret allows it, without a warning', async () => {
    const r = await runUntilListening(
      /Admin token/,
      'serve',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--fixtures',
      'none',
      '--log',
      'quiet',
      '--jwt-secret',
      'a-real-secret-of-some-length',
    );
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^API base URL: http:\/\/0\.0\.0\.0:\d+\/api /m);
    expect(r.out).not.toMatch(/WARNING/);
  });

  it('a loopback --host needs neither', async () => {
    const r = await runUntilListening(/Admin token/, 'serve', '--host', 'localhost', '--port', '0', '--fixtures', 'none', '--log', 'quiet');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).not.toMatch(/WARNING/);
  });
});

describe('serve: the banner', () => {
  it('leads with the API reference, which a browser opens without a token; the base URL is printed once', async () => {
    let out = '';
    const stop = new AbortController();
    let opened: Promise<{ first: string; status: number; root: { status: number; location: string | null } }> | undefined;
    const code = await main(['serve', '--port', '0', '--fixtures', 'none', '--log', 'quiet'], {
      out: (t) => {
        out += t;
        if (!/Admin token/.test(out)) return;
        opened ??= (async () => {
          const first = /https?:\/\/\S+/.exec(out)![0];
          const status = (await fetch(first)).status;
          const root = await fetch(first.replace(/\/docs$/, '/'), { redirect: 'manual' });
          stop.abort();
          return { first, status, root: { status: root.status, location: root.headers.get('location') } };
        })();
      },
      err: () => {},
      stop: stop.signal,
    });
    expect(code).toBe(0);
    const { first, status, root } = (await opened)!;
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs$/);
    expect(status).toBe(200);
    expect(root).toEqual({ status: 302, location: '/docs' });
    const baseUrl = /^API base URL: (\S+)/m.exec(out)![1]!;
    expect(out.split(baseUrl)).toHaveLength(2);
    expect(out.split('\n')[0]).toBe('catalog-kit mock server listening (profile contract)');
  });
});

describe('serve --log json: every line printed is JSON', () => {
  it.each([
    { given: ['--data', '/nonexistent-dir/state.json'], want: /^catalog-kit serve: --data \/nonexistent-dir\/state\.json: no such file or directory$/ },
    { given: ['--fixtures', '/nonexistent-dir'], want: /^catalog-kit serve: --fixtures \/nonexistent-dir: no such file or directory$/ },
    { given: ['--host', '0.0.0.0'], want: /not a loopback address.*--jwt-secret/ },
  ])('a start-up problem ($given) is one JSON line on stderr, exit 1, nothing on stdout', async ({ given, want }) => {
    let out = '';
    let err = '';
    const code = await main(['serve', '--port', '0', '--log', 'json', ...given], { out: (t) => void (out += t), err: (t) => void (err += t) });
    expect(code).toBe(1);
    expect(out).toBe('');
    const lines = err.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: string; message: string; exitCode: number; time: string };
    expect(line).toMatchObject({ level: 'error', exitCode: 1, message: expect.stringMatching(want) });
  });

  it('the banner is one JSON object with the URLs, the token, the profile and the catalog; request log lines are JSON', async () => {
    let out = '';
    let err = '';
    const stop = new AbortController();
    const requests: Promise<unknown>[] = [];
    const code = await main(['serve', '--port', '0', '--fixtures', 'none', '--log', 'json', '--insecure-dev-key'], {
      out: (t) => {
        out += t;
        const banner = JSON.parse(t) as { baseUrl: string; token: string };
        // Two requests (one answered, one an error), then stop once both are logged.
        requests.push(
          (async () => {
            await fetch(`${banner.baseUrl}/v1/tables`, { headers: { authorization: `Bearer ${banner.token}` } });
            await fetch(`${banner.baseUrl}/v1/tables`, { headers: { authorization: banner.token } });
            stop.abort();
          })(),
        );
      },
      err: (t) => void (err += t),
      stop: stop.signal,
    });
    await Promise.all(requests);
    expect(code).toBe(0);
    const outLines = out.split('\n').filter(Boolean);
    expect(outLines).toHaveLength(1);
    const banner = JSON.parse(outLines[0]!) as Record<string, unknown>;
    expect(banner).toMatchObject({
      message: 'listening',
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api$/),
      docsUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/docs$/),
      token: expect.stringMatching(/^ey/),
      profile: 'contract',
      catalog: { entities: expect.any(Number), source: 'fixtures: none' },
    });
    // Loopback: --insecure-dev-key changes nothing there, so no warning.
    expect(banner.warning).toBeUndefined();
    const errLines = err.split('\n').filter(Boolean);
    expect(errLines.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual([200, 401]);
  });
});
