/**
 * The built `catalog-kit serve` starts from its bundle and the V8 code caches the build wrote
 * (scripts/build.mjs, src/app/cli/serve-loader.ts): a Node.js run as the command runs (no flags) takes
 * every cache. Without them the command still works, a third slower to start
 * (bench: cold start), which no other test would notice. And the bundle carries its own copy of
 * the CLI's error classes, so the built command is run here on wrong command lines: cli.test.ts
 * runs the sources, where there is one copy.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const BIN = path.join(DIST, 'bin/catalog-kit.js');
const CACHED = ['src/app/cli/serve-bundle.cjs', 'openapi/generated/validators/requests.cjs', 'openapi/generated/validators/responses.cjs'];

describe('the built serve command', () => {
  it('is one bundle, and it and the compiled validators load with code caches V8 accepts', () => {
    expect(existsSync(path.join(DIST, 'src/app/cli/serve-bundle.cjs')), 'dist/ is missing: run `npm run build`').toBe(true);
    const script = `
      const { requireWithCodeCache } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'openapi/code-cache.js')).href)});
      const files = ${JSON.stringify(CACHED.map((file) => path.join(DIST, file)))};
      const used = files.map((file) => requireWithCodeCache(file).cacheUsed);
      const { loadServe } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'src/app/cli/serve-loader.js')).href)});
      process.stdout.write(JSON.stringify({ used, runServe: typeof (await loadServe()) }));`;
    // A clean environment: NODE_OPTIONS (a test runner's, a debugger's) would change V8's flags.
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ used: CACHED.map(() => true), runServe: 'function' });
  });
});

describe('the built command on a wrong command line: one line pointing at --help, exit 2', () => {
  it.each([
    { argv: ['serve', '--prot'], want: 'catalog-kit serve: unknown option --prot (see catalog-kit serve --help)' },
    { argv: ['serve', '--port', 'abc'], want: 'catalog-kit serve: --port "abc" is not a port (0-65535) (see catalog-kit serve --help)' },
    { argv: ['serve', '--port', '70000'], want: 'catalog-kit serve: --port "70000" is not a port (0-65535) (see catalog-kit serve --help)' },
    {
      argv: ['serve', '--profile', 'bogus'],
      want: 'catalog-kit serve: unknown --profile "bogus" (expected contract, openmetadata or openmetadata-1.10) (see catalog-kit serve --help)',
    },
    { argv: ['serve', '--log', 'loud'], want: 'catalog-kit serve: unknown --log "loud" (expected quiet, pretty, json) (see catalog-kit serve --help)' },
    { argv: ['token', '--expires', 'soon'], want: 'catalog-kit token: --expires "soon" is not a duration (expected e.g. 30m, 1h, 7d) (see catalog-kit token --help)' },
    { argv: ['conform', '--runs', 'many'], want: 'catalog-kit conform: --runs must be a positive integer (see catalog-kit conform --help)' },
  ])('$argv', ({ argv, want }) => {
    const child = spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({ status: 2, stdout: '', stderr: `${want}\n` });
  });

  it('a start-up problem is not a usage error: exit 1, one line without "error:"', () => {
    const child = spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--fixtures', '/no/such/fixtures'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: 'catalog-kit serve: --fixtures /no/such/fixtures: no such file or directory\n',
    });
  });
});
