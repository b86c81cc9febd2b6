/**
 * The published package, as a user gets it: `npm pack`, then `npm install <tarball>` into an empty
 * project, and there the installed `catalog-kit` command (serve, token, conform), the client
 * imported from plain JavaScript, the programmatic API of docs/programmatic-api.md, and a
 * TypeScript consumer compiled against the shipped declarations (`node16` resolution).
 *
 * It packs the existing dist/ (scripts/build.mjs; built here only when absent) as a publisher does,
 * with the pack scripts: `prepack` strips the development scripts and dependencies from the packed
 * manifest (clean-package, configured in package.json) and `postpack` puts package.json back; the
 * build `prepare` runs finds dist/ current and changes nothing. The install is offline-first from
 * the npm cache, as a user runs it, and the test asserts no installed package has an install
 * script. Everything binds to 127.0.0.1; the one long-running process, the installed `serve`, is
 * stopped by its PID.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The repository's own compiler: compiling the consumer downloads nothing. */
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const BASE_URL = /(http:\/\/127\.0\.0\.1:\d+\/api)/;
const JWT = /(eyJ[\w-]+\.[\w-]+\.[\w-]+)/;
const STEP_TIMEOUT_MS = 90_000;
/** Generous: the whole file takes ~25 s alone, but shares two cores with the rest of `npm test`. */
const TEST = { timeout: 2 * STEP_TIMEOUT_MS };

interface Output {
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string): Promise<Output> {
  return exitOf(command, args, cwd).then(({ code, stdout, stderr }) => {
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
    return { stdout, stderr };
  });
}

/** Runs a command to completion: its exit status and output, whatever the status. */
function exitOf(command: string, args: string[], cwd: string): Promise<Output & { code: number | string }> {
  return new Promise((resolve, reject) => {
    // A shell only on Windows, where npm is npm.cmd.
    execFile(command, args, { cwd, timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) did not run to its end: ${error.message}\n${stderr}`));
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

/** Everything below `dir`, as paths relative to it with `/` separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(path.join(dir, file)).isFile())
    .map((file) => file.split(path.sep).join('/'));
}

/**
 * The module specifiers a JavaScript file loads: static and dynamic imports, re-exports, and
 * string arguments of require-like calls (`require(x)`, `createRequire(...).resolve(x)`,
 * `requireFromX(x)`), read from the syntax tree so comments and strings do not count.
 */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const callee = node.expression.getText(source);
      // `require_debug()("body-parser:json")` in the serve bundle is esbuild's initializer of a bundled
      // module, called with a string: not a load.
      const bundled = /^require_[\w$]+\(\)$/.test(callee);
      const loads = node.expression.kind === ts.SyntaxKind.ImportKeyword || (/require/i.test(callee) && !bundled);
      if (loads && first && ts.isStringLiteralLike(first)) found.push(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);
}

/** Every package directory under a node_modules folder, nested ones included. */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(path.join(nodeModules, entry)).map((name) => path.join(nodeModules, entry, name)) : [path.join(nodeModules, entry)];
    for (const dir of dirs) {
      if (!existsSync(path.join(dir, 'package.json'))) continue;
      found.push(dir, ...installedPackages(path.join(dir, 'node_modules')));
    }
  }
  return found;
}

interface Manifest {
  name: string;
  version: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let work: string;
/** The repository's package.json before `npm pack`, and after it. */
let manifestBefore: string;
let manifestAfter: string;
/** The package.json inside the tarball, as npm install reads it. */
let packedManifest: Record<string, unknown>;
/** What `npm install <tarball>` printed. */
let installOutput: Output;
let project: string;
/** node_modules/catalog-kit in the consumer project. */
let installed: string;
let manifest: Manifest;
/** Paths in the tarball, relative to its `package/` root. */
let packedFiles: string[];
let server: ChildProcess | undefined;
let baseUrl: string;
/** What the installed serve printed once listening. */
let banner: string;
let token: string;

const bin = (): string => path.join(project, 'node_modules/.bin', process.platform === 'win32' ? 'catalog-kit.cmd' : 'catalog-kit');

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/bin/catalog-kit.js'))) await run(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], ROOT);
  work = mkdtempSync(path.join(tmpdir(), 'catalog-kit-pack-'));
  manifestBefore = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  const packed = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', work], ROOT)).stdout) as [{ filename: string; files: { path: string }[] }];
  manifestAfter = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  packedFiles = packed[0].files.map((f) => f.path);
  const tarball = path.join(work, packed[0].filename);
  packedManifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'], work)).stdout) as Record<string, unknown>;

  project = path.join(work, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'catalog-kit-consumer', private: true, type: 'module' }));
  installOutput = await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], project);
  installed = path.join(project, 'node_modules/catalog-kit');
  manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Manifest;
}, 2 * STEP_TIMEOUT_MS);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
}, STEP_TIMEOUT_MS);

describe('the Node.js it runs on', () => {
  // CI runs this file again on Node.js 24 (.ci/run): a PATH that did not take would test 20 twice.
  it.runIf(process.env.CK_EXPECT_NODE_MAJOR !== undefined)('is the one CI asked for', () => {
    expect(process.versions.node.split('.')[0]).toBe(process.env.CK_EXPECT_NODE_MAJOR);
  });
});

describe('the tarball ships only the build', () => {
  it('holds package.json, README.md, the documents and dist/ only: no sources but declarations, no tests', () => {
    const docs = ['package.json', 'README.md', 'docs/behaviour.md', 'docs/cli.md', 'docs/troubleshooting.md', 'conformance/README.md'];
    for (const doc of docs) expect(packedFiles).toContain(doc);
    const isDocument = (f: string) => ['package.json', 'README.md', 'conformance/README.md'].includes(f) || /^docs\/[\w-]+\.md$/.test(f);
    expect(packedFiles.filter((f) => !isDocument(f) && !f.startsWith('dist/'))).toEqual([]);
    expect(packedFiles.filter((f) => /\.(ts|mts|cts)$/.test(f) && !/\.d\.c?ts$/.test(f))).toEqual([]);
    // The browser variants of src/ are read by the browser build, from the sources: dist/browser/catalog.js holds them.
    expect(packedFiles.filter((f) => /\.browser\./.test(f) && !f.startsWith('dist/browser/'))).toEqual([]);
    expect(packedFiles.filter((f) => /\.test\.|(^|\/)(robustness|security)\//.test(f))).toEqual([]);
  });

  it('holds every file its README.md links to', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((target) => !packedFiles.includes(path.posix.normalize(target)))).toEqual([]);
  });

  it('holds the command and every exports target, JavaScript with declarations, and no wildcard export', () => {
    const targets = [...Object.values(manifest.bin), ...Object.values(manifest.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)))];
    for (const target of targets) expect(packedFiles, target).toContain(path.posix.normalize(target));
    for (const [entry, target] of Object.entries(manifest.exports)) {
      expect(entry).not.toContain('*');
      if (entry === './package.json') continue;
      const conditions = entry === './fetch' ? ['types', 'browser', 'default'] : ['types', 'default'];
      expect(Object.keys(target), `${entry}: types first, default last`).toEqual(conditions);
      for (const [condition, file] of Object.entries(target as Record<string, string>)) expect(file, `${entry} ${condition}`).toMatch(condition === 'types' ? /\.d\.ts$/ : /\.js$/);
    }
  });
});

describe('packing it', () => {
  it("leaves the repository's package.json as it was", () => {
    expect(manifestAfter).toBe(manifestBefore);
    expect(existsSync(path.join(ROOT, 'package.json.backup'))).toBe(false);
  });

  it('ships a package.json without scripts (lifecycle or development) and without development dependencies', () => {
    expect(Object.keys(packedManifest).filter((key) => ['scripts', 'devDependencies', 'clean-package'].includes(key))).toEqual([]);
    // What a clone needs stays in the repository: `npm install` there builds dist/.
    const repository = JSON.parse(manifestBefore) as { scripts: Record<string, string> };
    expect(repository.scripts.prepare).toBe('node scripts/build.mjs');
  });
});

describe('installing it', TEST, () => {
  it('prints no warning about install scripts', () => {
    expect(`${installOutput.stdout}${installOutput.stderr}`).not.toMatch(/install[- ]scripts?|catalog-kit@/i);
  });

  it('runs no install script in any installed package and installs no telemetry (@scarf/scarf)', () => {
    const packages = installedPackages(path.join(project, 'node_modules'));
    expect(packages.length).toBeGreaterThan(10);
    const withScripts = packages.flatMap((dir) => {
      const { name, scripts = {} } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
      const hooks = ['preinstall', 'install', 'postinstall'].filter((hook) => scripts[hook]);
      // npm runs `node-gyp rebuild` for a binding.gyp even without an install script.
      if (existsSync(path.join(dir, 'binding.gyp'))) hooks.push('binding.gyp');
      return hooks.map((hook) => `${name}: ${hook}`);
    });
    expect(withScripts).toEqual([]);
    expect(packages.map((dir) => path.relative(project, dir).split(path.sep).join('/')).filter((dir) => dir.endsWith('node_modules/@scarf/scarf'))).toEqual([]);
  });

  it('no shipped file imports a package outside its dependencies (no development dependency at run time)', () => {
    const allowed = new Set(Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies }));
    const offenders = filesUnder(path.join(installed, 'dist'))
      .filter((file) => /\.(c|m)?js$/.test(file))
      .flatMap((file) => specifiersOf(path.join(installed, 'dist', file)).map((specifier) => ({ file, specifier })))
      .filter(({ specifier }) => !specifier.startsWith('.') && !isBuiltin(specifier) && !allowed.has(packageNameOf(specifier)))
      .map(({ file, specifier }) => `dist/${file} imports ${specifier}`);
    expect(offenders).toEqual([]);
  });

  it('catalog-kit/fetch for browsers is one self-contained module: no Node.js built-in, no package to resolve', () => {
    const browser = (manifest.exports['./fetch'] as Record<string, string>).browser!;
    expect(specifiersOf(path.join(installed, browser)).filter((specifier) => !specifier.startsWith('.'))).toEqual([]);
    expect(readFileSync(path.join(installed, browser), 'utf8')).not.toMatch(/["'`]node:[a-z]/);
  });

  it('ships no test-only module: every compiled module is reachable from the command or an export', () => {
    const entries = [...Object.values(manifest.bin), ...Object.values(manifest.exports).map((t) => (typeof t === 'string' ? t : t.default!))]
      .filter((target) => target.endsWith('.js'))
      .map((target) => path.join(installed, target));
    const reached = new Set<string>();
    const pending = [...entries];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const specifier of specifiersOf(file)) {
        if (specifier.startsWith('.')) pending.push(path.resolve(path.dirname(file), specifier));
      }
    }
    const compiled = filesUnder(path.join(installed, 'dist')).filter((f) => /^(src|conformance|bin)\/.*\.js$/.test(f));
    expect(compiled.length).toBeGreaterThan(50);
    // A module of types only compiles to an empty `export {};`: its declarations, not its code, are what ships.
    const typesOnly = (f: string) => readFileSync(path.join(installed, 'dist', f), 'utf8').trim() === 'export {};';
    expect(compiled.filter((f) => !reached.has(path.join(installed, 'dist', f)) && !typesOnly(f))).toEqual([]);
  });
});

describe('the installed command', TEST, () => {
  it('--help prints the commands', async () => {
    const { stdout } = await run(bin(), ['--help'], project);
    expect(stdout).toMatch(/Usage: catalog-kit/);
    for (const command of ['serve', 'token', 'conform']) expect(stdout).toContain(command);
  });

  it('--version prints the version of the installed package', async () => {
    const { stdout } = await run(bin(), ['--version'], project);
    expect(stdout.trim()).toBe(manifest.version);
  });

  it('answers a wrong command line of every command it lists with exit 2 and one line pointing at --help', async () => {
    const { stdout } = await run(bin(), ['--help'], project);
    const commands = stdout
      .slice(stdout.indexOf('Commands:\n') + 'Commands:\n'.length, stdout.indexOf('\n\n', stdout.indexOf('Commands:')))
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[0]!);
    expect(commands).toEqual(expect.arrayContaining(['serve', 'token', 'conform', 'drift']));
    const cases = [
      ...commands.map((command) => ({
        argv: [command, '--no-such-option'],
        want: new RegExp(`^catalog-kit ${command}: [^\\n]*--no-such-option[^\\n]* \\(see catalog-kit ${command} --help\\)\\n$`, 'i'),
      })),
      { argv: ['serve', '--prot'], want: 'catalog-kit serve: unknown option --prot' },
      { argv: ['serve', '--port', 'abc'], want: 'catalog-kit serve: --port "abc" is not a port (0-65535)' },
      { argv: ['serve', '--port', '70000'], want: 'catalog-kit serve: --port "70000" is not a port (0-65535)' },
      { argv: ['serve', '--profile', 'bogus'], want: 'catalog-kit serve: unknown --profile "bogus" (expected contract, openmetadata or openmetadata-1.10)' },
      { argv: ['serve', '--log', 'loud'], want: 'catalog-kit serve: unknown --log "loud" (expected quiet, pretty, json)' },
      { argv: ['token', '--role', 'Root'], want: 'catalog-kit token: unknown role "Root" (expected Admin, DataSteward, DataConsumer)' },
      { argv: ['conform', '--runs', 'many'], want: 'catalog-kit conform: --runs must be a positive integer' },
      { argv: ['conform', '--target', 'http://127.0.0.1:1/api'], want: 'catalog-kit conform: --target needs a token: --token, --token-command or CK_TOKEN' },
    ];
    const answers = await Promise.all(cases.map(({ argv }) => exitOf(bin(), argv, project)));
    expect(answers.map(({ code, stdout, stderr }) => ({ code, stdout, stderr }))).toEqual(
      cases.map(({ argv, want }) => ({ code: 2, stdout: '', stderr: typeof want === 'string' ? `${want} (see catalog-kit ${argv[0]} --help)\n` : expect.stringMatching(want) })),
    );
  });

  it('token prints a JWT', async () => {
    const { stdout } = await run(bin(), ['token'], project);
    token = JWT.exec(stdout)?.[1] ?? '';
    expect(token, stdout).not.toBe('');
  });

  it('serve --port 0 prints the base URL it listens on, with the default fixtures loaded', async () => {
    const proc = spawn(bin(), ['serve', '--port', '0', '--host', '127.0.0.1', '--log', 'quiet'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    server = proc;
    baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`serve printed no base URL within ${STEP_TIMEOUT_MS} ms:\n${out}\n${err}`)), STEP_TIMEOUT_MS);
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const url = BASE_URL.exec(out)?.[1];
        // The banner is whole once the token is printed.
        if (url && out.includes('Admin token')) {
          clearTimeout(timer);
          banner = out;
          resolve(url);
        }
      });
      proc.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited (${code}) before printing its URL:\n${out}\n${err}`));
      });
    });
    const res = await fetch(`${baseUrl}/v1/containers?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it("serve's banner leads with a page a browser opens without a token, and the server's root leads there; the base URL is printed once", async () => {
    const first = /https?:\/\/\S+/.exec(banner)![0];
    expect(first).toBe(baseUrl.replace(/\/api$/, '/docs'));
    expect((await fetch(first)).status).toBe(200);
    const root = await fetch(baseUrl.replace(/\/api$/, '/'), { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/docs']);
    expect(banner.split(baseUrl)).toHaveLength(2);
  });

  it('serve answers Prefer: code=503, 429 and 504 on a list call, and a 400 names every problem of a body', async () => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const forced = await Promise.all([503, 429, 504].map((status) => fetch(`${baseUrl}/v1/tables?limit=1`, { headers: { ...headers, prefer: `code=${status}` } })));
    expect(forced.map((res) => res.status)).toEqual([503, 429, 504]);
    const refused = await fetch(`${baseUrl}/v1/containers`, { method: 'POST', headers, body: JSON.stringify({ name: false, service: 3 }) });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { message: string; details: { path: string }[] };
    expect(body.details.map((d) => d.path).sort()).toEqual(['/body/name', '/body/service']);
    expect(body.message).toMatch(/name must be string.*service must be string/);
  });

  it('conform, without --target, passes every rule against its in-process server', async () => {
    const { stdout } = await run(bin(), ['conform', '--runs', '2', '--seed', '1'], project);
    const last = stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(last, stdout).toMatch(/^\d+ passed, 0 failed/);
    expect(Number(/^(\d+) passed/.exec(last)?.[1])).toBeGreaterThan(0);
  });
});

describe('the installed library', TEST, () => {
  it('a plain .mjs file imports the client and calls the running server', async () => {
    writeFileSync(
      path.join(project, 'client.mjs'),
      `import { createCatalogClient } from 'catalog-kit/client';
const [baseUrl, token] = process.argv.slice(2);
const catalog = createCatalogClient({ baseUrl, token });
const version = await catalog.GET('/v1/system/version');
const containers = await catalog.GET('/v1/containers', { params: { query: { limit: 2 } } });
const anonymous = await createCatalogClient({ baseUrl }).GET('/v1/containers');
console.log(JSON.stringify({
  version: [version.response.status, version.data?.version],
  containers: [containers.response.status, containers.data?.data.length],
  anonymous: anonymous.response.status,
}));
`,
    );
    const { stdout } = await run(process.execPath, ['client.mjs', baseUrl, token], project);
    expect(JSON.parse(stdout)).toEqual({
      version: [200, manifest.version],
      containers: [200, 2],
      anonymous: 401,
    });
  });

  it('the package root gives the programmatic API of docs/programmatic-api.md: server, token, client, conformance', async () => {
    writeFileSync(
      path.join(project, 'programmatic.mjs'),
      `import { createCatalogClient, runConformance, signToken, startServer } from 'catalog-kit';
const server = await startServer({ port: 0, host: '127.0.0.1', fixtures: 'default', log: () => {} });
try {
  const token = await signToken({ user: 'admin', role: 'Admin' });
  const catalog = createCatalogClient({ baseUrl: server.baseUrl, token });
  const { data } = await catalog.GET('/v1/tables', { params: { query: { limit: 3 } } });
  const report = await runConformance({ baseUrl: server.baseUrl, token, runs: 1, seed: 1, phases: { random: false } });
  console.log(JSON.stringify({ tables: data.data.length, passed: report.passed > 0, failed: report.failed }));
} finally {
  await server.close();
}
`,
    );
    const { stdout } = await run(process.execPath, ['programmatic.mjs'], project);
    expect(JSON.parse(stdout)).toEqual({ tables: 3, passed: true, failed: 0 });
  });

  it("createApp's app serves from your own http server, and its dispatcher answers the same without one", async () => {
    writeFileSync(
      path.join(project, 'own-server.mjs'),
      `import { createServer } from 'node:http';
import { createApp, signToken } from 'catalog-kit';
const catalog = await createApp({ fixtures: 'default', log: () => {} });
const server = createServer(catalog.app);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const token = await signToken({ user: 'admin', role: 'Admin' });
  const headers = { authorization: \`Bearer \${token}\` };
  const res = await fetch(\`http://127.0.0.1:\${server.address().port}/api/v1/tables?limit=2\`, { headers });
  const served = await res.json();
  const direct = await catalog.dispatch({ method: 'GET', url: '/api/v1/tables?limit=2', origin: 'http://in-process.test', headers });
  const page = JSON.parse(direct.body);
  console.log(JSON.stringify({ status: res.status, tables: served.data.length, direct: direct.status, same: page.data.map((t) => t.id).join() === served.data.map((t) => t.id).join(), href: page.data[0].href.startsWith('http://in-process.test/api/') }));
} finally {
  server.close();
  catalog.webhooks.stop();
}
`,
    );
    const { stdout } = await run(process.execPath, ['own-server.mjs'], project);
    expect(JSON.parse(stdout)).toEqual({ status: 200, tables: 2, direct: 200, same: true, href: true });
  });

  it('a TypeScript consumer (node16 resolution) compiles against the client, catalog-kit/schema and the package root, and runs', async () => {
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'node16',
          moduleResolution: 'node16',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          // Nothing from the consumer's own @types: what the declarations need, the package brings.
          types: [],
          strict: true,
          // The shipped declarations are checked too, not only their use.
          skipLibCheck: false,
          outDir: 'out',
          rootDir: '.',
        },
        files: ['consumer.ts', 'api.ts'],
      }),
    );
    writeFileSync(
      path.join(project, 'consumer.ts'),
      `import { createCatalogClient, type CatalogClient } from 'catalog-kit/client';
import type { components } from 'catalog-kit/schema';

type Table = components['schemas']['Table'];
const describeTable = (table: Table): string => table.fullyQualifiedName;

const catalog: CatalogClient = createCatalogClient({ baseUrl: ${JSON.stringify(baseUrl)}, token: ${JSON.stringify(token)} });
const { data, error, response } = await catalog.GET('/v1/tables', { params: { query: { limit: 1 } } });
if (error !== undefined || data === undefined) throw new Error('GET /v1/tables answered ' + response.status);
console.log(JSON.stringify({ status: response.status, tables: data.data.map(describeTable) }));

// The declarations carry the contract, not \`any\`: if they did not, these expected errors would
// not happen, and an unused @ts-expect-error fails the compilation.
// @ts-expect-error: not a path of the API
export const unknownPath = () => catalog.GET('/v1/no-such-path');
// @ts-expect-error: not a field of Table
export const unknownField = (table: Table) => table.noSuchField;
`,
    );
    // Compiled, not run (the .mjs test above runs the same calls).
    writeFileSync(
      path.join(project, 'api.ts'),
      `import { createCatalogClient, runConformance, signToken, startServer, type ConformanceReport, type RunningServer } from 'catalog-kit';

export async function conformanceOfAFreshServer(): Promise<ConformanceReport> {
  const server: RunningServer = await startServer({ port: 0, host: '127.0.0.1', fixtures: 'default', log: () => {} });
  try {
    const token = await signToken({ user: 'admin', role: 'Admin' });
    const tables = await createCatalogClient({ baseUrl: server.baseUrl, token }).GET('/v1/tables');
    const names: string[] | undefined = tables.data?.data.map((table) => table.name);
    void names;
    return await runConformance({ baseUrl: server.baseUrl, token, runs: 1 });
  } finally {
    await server.close();
  }
}
// @ts-expect-error: not a role
export const wrongRole = () => signToken({ role: 'Superuser' });
// @ts-expect-error: runConformance needs a token
export const noToken = () => runConformance({ baseUrl: 'http://127.0.0.1:8585/api' });
`,
    );
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project);
    const { stdout } = await run(process.execPath, ['out/consumer.js'], project);
    const result = JSON.parse(stdout) as { status: number; tables: string[] };
    expect(result.status).toBe(200);
    expect(result.tables).toHaveLength(1);
    expect(result.tables[0]).toMatch(/\./);
  });
});

describe('the installed catalog in process (catalog-kit/fetch, catalog-kit/msw)', TEST, () => {
  beforeAll(async () => {
    // msw is an optional peer dependency: a project that uses catalog-kit/msw installs it itself.
    const { devDependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    await run('npm', ['install', `msw@${devDependencies.msw}`, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], project);
  }, STEP_TIMEOUT_MS);

  it('a plain .mjs file creates a catalog, calls it through fetch and the typed client, and through msw/node', async () => {
    writeFileSync(
      path.join(project, 'in-process.mjs'),
      `import { createCatalog } from 'catalog-kit/fetch';
import { catalogHandler } from 'catalog-kit/msw';
import { createCatalogClient } from 'catalog-kit/client';
import { setupServer } from 'msw/node';
const catalog = await createCatalog();
const token = await catalog.token();
const client = createCatalogClient({ baseUrl: catalog.baseUrl, token, fetch: catalog.fetch });
const tables = await client.GET('/v1/tables', { params: { query: { limit: 2 } } });
const server = setupServer(catalogHandler(catalog));
server.listen({ onUnhandledRequest: 'error' });
const created = await fetch(catalog.baseUrl + '/v1/services/storageServices', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'from-msw', serviceType: 'S3', connection: { config: { type: 'S3' } } }),
});
const twice = await fetch(catalog.baseUrl + '/v1/services/storageServices', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'from-msw', serviceType: 'S3', connection: { config: { type: 'S3' } } }),
});
server.close();
catalog.reset();
const afterReset = await client.GET('/v1/services/storageServices/name/{fqn}', { params: { path: { fqn: 'from-msw' } } });
catalog.close();
console.log(JSON.stringify({ tables: [tables.response.status, tables.data?.data.length], created: created.status, twice: twice.status, afterReset: afterReset.response.status }));
`,
    );
    const { stdout } = await run(process.execPath, ['in-process.mjs'], project);
    expect(JSON.parse(stdout)).toEqual({ tables: [200, 2], created: 201, twice: 409, afterReset: 404 });
  });

  it('a TypeScript consumer (node16 resolution) compiles against catalog-kit/fetch, /msw and /playwright', async () => {
    writeFileSync(
      path.join(project, 'tsconfig.in-process.json'),
      JSON.stringify({
        compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, skipLibCheck: true, noEmit: true },
        files: ['in-process.ts'],
      }),
    );
    writeFileSync(
      path.join(project, 'in-process.ts'),
      `import { createCatalog, type InProcessCatalog } from 'catalog-kit/fetch';
import { catalogHandler } from 'catalog-kit/msw';
import { routeCatalog } from 'catalog-kit/playwright';
import type { HttpHandler } from 'msw';

export async function start(): Promise<{ catalog: InProcessCatalog; handler: HttpHandler }> {
  const catalog = await createCatalog({ fixtures: 'none', profile: 'openmetadata', clock: () => 0 });
  const token: string = await catalog.token({ user: 'alice', role: 'DataSteward' });
  void token;
  return { catalog, handler: catalogHandler(catalog) };
}
export { routeCatalog };
// @ts-expect-error: not a profile
export const wrongProfile = () => createCatalog({ profile: 'prism' });
// @ts-expect-error: not a role
export const wrongRole = (catalog: InProcessCatalog) => catalog.token({ role: 'Superuser' });
`,
    );
    await run(process.execPath, [TSC, '-p', 'tsconfig.in-process.json'], project);
  });
});
