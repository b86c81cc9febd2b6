#!/usr/bin/env node
/**
 * The package build (`npm run build`, and `prepare`, so `npm install` in a clone builds too):
 * dist/ laid out like the repository root (tsconfig.build.json), so the paths src/ computes from
 * import.meta.url find the same assets in dist/:
 *
 *   0. stop when dist/ is current: built by this Node.js from the same inputs (INPUTS below, their
 *      digest kept in dist/.inputs), and the compiled validators are there (`--force` builds anyway);
 *   1. remove dist/ (a file whose source was deleted must not ship);
 *   2. `npm run build:validators --if-present` (writes openapi/generated/validators/);
 *   3. `tsc -p tsconfig.build.json --noCheck` (JavaScript and declarations; `npm run typecheck` checks);
 *   4. copy the runtime assets (ASSETS below) and write dist/openapi/generated/schema.js, the
 *      runtime half of the type-only `catalog-kit/schema` export (package.json `exports`);
 *   5. bundle `catalog-kit serve` (SERVE_BUNDLE below), the catalog in process for Node.js
 *      (CATALOG_BUNDLE), the command (dist/bin/catalog-kit.js), and the catalog in process for
 *      browsers (dist/browser/catalog.js: scripts/browser-build.mjs);
 *   6. write the V8 code caches of the two bundles and the compiled validators (openapi/code-cache.ts);
 *   7. make the command executable.
 *
 * Plain Node, no dependencies but the installed typescript and esbuild: it runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DIST = path.join(ROOT, 'dist');
const BIN = 'bin/catalog-kit.js';

/** Files and folders read at run time, relative to the repository root; `optional` may be absent. */
const ASSETS = [
  { from: 'openapi/generated/openapi.bundle.json' },
  { from: 'openapi/generated/schema.d.ts' },
  { from: 'openapi/admin.yaml' },
  { from: 'openapi/profiles.json' },
  { from: 'fixtures/default' },
  { from: 'openapi/generated/validators' },
];

/** What dist/ is built from, relative to the repository root: folders (test files left out) and files. */
const INPUTS = [
  'src',
  'bin',
  'conformance',
  'openapi',
  'fixtures/default',
  'scripts/build.mjs',
  'scripts/compile-validators.ts',
  'scripts/browser-build.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
const INPUTS_FILE = path.join(DIST, '.inputs');

/** Every input file, sorted; generated validators are an output of the build, not an input. */
function inputFiles() {
  const files = [];
  const visit = (relative) => {
    const full = path.join(ROOT, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(path.join(relative, name));
    } else if (!relative.endsWith('.test.ts') && !relative.startsWith(path.join('openapi', 'generated', 'validators'))) files.push(relative);
  };
  for (const input of INPUTS) visit(input);
  return files;
}

/** A digest of the inputs and of the Node.js that builds (the code caches are its own). */
function inputsDigest() {
  const hash = createHash('sha256').update(process.version);
  for (const file of inputFiles()) hash.update(`\0${file}\0`).update(readFileSync(path.join(ROOT, file)));
  return hash.digest('hex');
}

function run(command, args) {
  // A shell only on Windows, where npm is npm.cmd (which Node no longer spawns without one).
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${[command, ...args].join(' ')} exited with ${result.status ?? result.signal}`);
}

function step(name, action) {
  const started = performance.now();
  action();
  if (process.env.CK_BUILD_VERBOSE) process.stderr.write(`build: ${name} ${Math.round(performance.now() - started)} ms\n`);
}

const started = performance.now();
process.on('uncaughtException', (error) => {
  process.stderr.write(`catalog-kit build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

const digest = inputsDigest();
const current = existsSync(INPUTS_FILE) && readFileSync(INPUTS_FILE, 'utf8') === digest && existsSync(path.join(ROOT, 'openapi/generated/validators/index.cjs'));
if (current && !process.argv.includes('--force')) {
  process.stderr.write('catalog-kit: dist/ is current (built by this Node.js from the same sources; `npm run build -- --force` builds anyway)\n');
  process.exit(0);
}

step('clean', () => rmSync(DIST, { recursive: true, force: true }));

// Before tsc: the compiled validators are assets copied below. Through `npm run`, so the command
// stays in package.json; --if-present keeps the build working in a checkout without the script.
step('validators', () => run('npm', ['run', '--silent', 'build:validators']));

// The tsc of the installed typescript, through node: no shell, no PATH lookup of node_modules/.bin.
// Not --incremental: its build-info file would outlive the clean above and make tsc skip emitting
// into the empty dist/; kept inside dist/ it is deleted every time, so it would save nothing.
// --noCheck: emit only (the same output, in about two thirds of the time); the type check of the
// whole project, tests included, is `npm run typecheck` (part of `npm run check`).
step('tsc', () => run(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck']));

step('assets', () => {
  for (const { from, optional } of ASSETS) {
    const source = path.join(ROOT, from);
    if (!existsSync(source)) {
      if (optional) continue;
      throw new Error(`${from} is missing (openapi/generated/ is written by \`npm run gen:types\`)`);
    }
    cpSync(source, path.join(DIST, from), { recursive: true });
  }
  mkdirSync(path.join(DIST, 'openapi/generated'), { recursive: true });
  writeFileSync(path.join(DIST, 'openapi/generated/schema.js'), '// Types only: see schema.d.ts.\nexport {};\n');
});

// `catalog-kit serve` as one CommonJS file (esbuild), dist/src/app/cli/serve-bundle.cjs, beside
// the modules tsc wrote for it and its dependencies, with a V8 code cache of it (below): resolving,
// reading and compiling those modules was most of the command's cold start (bench: cold start).
// src/app/cli/serve-loader.ts loads the bundle when it exists (the modules when running from
// source). The one module that computes where the assets are (src/config/assets.ts) does so from
// its own location, so the bundle gives `import.meta.url` that module's place in dist/.
// CommonJS because a code cache is for a script, not an ES module. The library exports
// (src/index.ts) keep tsc's modules.
// The in-process catalog (`catalog-kit/fetch` on Node.js) the same way: dist/src/app/in-process/
// catalog-bundle.cjs, which src/app/in-process/catalog-loader.ts loads (bench: in-process import
// and createCatalog).
const SERVE_BUNDLE = path.join(DIST, 'src/app/cli/serve-bundle.cjs');
const CATALOG_BUNDLE = path.join(DIST, 'src/app/in-process/catalog-bundle.cjs');
const esbuild = await import('esbuild');
step('bundle', () => {
  for (const [entry, outfile] of [
    ['src/app/cli/serve.ts', SERVE_BUNDLE],
    ['src/app/in-process/catalog.ts', CATALOG_BUNDLE],
  ]) {
    esbuild.buildSync({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
      define: { 'import.meta.url': '__catalogKitUrl' },
      banner: { js: "const __catalogKitUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '../../config/assets.js')).href;" },
    });
  }
});

// The command itself as one ES module (dist/bin/catalog-kit.js, replacing tsc's): --help and
// `token` in one file, jose's signing code included (bench: `catalog-kit --help`, `catalog-kit
// token`); serve, conform and drift stay the modules tsc wrote, imported when they run.
const COMMAND_MODULES = /^\.\/(serve-loader|conform|drift)\.ts$/;
const VERSION_MODULE = /^\.\.\/\.\.\/config\/version\.ts$/;
await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: [BIN.replace(/\.js$/, '.ts')],
  outfile: path.join(DIST, BIN),
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  plugins: [
    {
      name: 'commands-stay-modules',
      setup(build) {
        build.onResolve({ filter: COMMAND_MODULES }, (args) => ({ path: `../src/app/cli/${path.basename(args.path, '.ts')}.js`, external: true }));
        // Read by `--version` alone: its imports of node:fs, node:path and node:url would be loaded
        // by every command (an ES module imports a built-in through a facade of all its exports).
        build.onResolve({ filter: VERSION_MODULE }, () => ({ path: '../src/config/version.js', external: true }));
      },
    },
  ],
});
// What the command holds is not shipped twice: tsc's modules of it are read by nothing (their
// declarations stay, for the types other modules import from them).
for (const held of ['main', 'token']) rmSync(path.join(DIST, `src/app/cli/${held}.js`));

// `catalog-kit/fetch` for browsers (package.json `exports`, the `browser` condition).
const { buildBrowser } = await import('./browser-build.mjs');
await buildBrowser(esbuild, { root: ROOT, outfile: path.join(DIST, 'browser/catalog.js') });

// With this Node.js, so the Node.js that serves from this build takes the caches; another one
// rejects them and compiles as before. The bundle's cache is written after its `warmUp` (the demo
// catalog built and one request answered in process, no port): it then holds the code V8 compiled
// for a start, not only the parse.
const { writeCodeCache } = await import(pathToFileURL(path.join(DIST, 'openapi/code-cache.js')).href);
// The validator modules (index.cjs `modules`: each family's, scripts/compile-validators.ts).
const VALIDATORS = path.join(DIST, 'openapi/generated/validators');
const { modules: validatorModules } = createRequire(import.meta.url)(path.join(VALIDATORS, 'index.cjs'));
const started_ = performance.now();
await writeCodeCache(SERVE_BUNDLE, (bundle) => bundle.warmUp());
await writeCodeCache(CATALOG_BUNDLE, async (bundle) => {
  // The demo catalog made, and a page and a table read through its fetch, as a test does.
  const catalog = await bundle.createCatalog();
  try {
    const headers = { authorization: `Bearer ${await catalog.token()}` };
    const page = await (await catalog.fetch(`${catalog.baseUrl}/v1/tables?limit=1`, { headers })).json();
    const answer = await catalog.fetch(`${catalog.baseUrl}/v1/tables/${page.data[0].id}`, { headers });
    if (answer.status !== 200) throw new Error(`the in-process warm-up read was answered ${answer.status}: ${await answer.text()}`);
    await answer.json();
  } finally {
    catalog.close();
  }
});
for (const name of Object.values(validatorModules).flat()) await writeCodeCache(path.join(VALIDATORS, name));
if (process.env.CK_BUILD_VERBOSE) process.stderr.write(`build: code cache ${Math.round(performance.now() - started_)} ms\n`);

step('executable', () => chmodSync(path.join(DIST, BIN), 0o755));
// Last: dist/ is whole only now.
writeFileSync(INPUTS_FILE, digest);

process.stderr.write(`catalog-kit: built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
