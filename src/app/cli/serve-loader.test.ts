/**
 * The built `catalog-kit serve` starts from its bundle and the V8 code caches the build wrote
 * (scripts/build.mjs, src/app/cli/serve-loader.ts): a Node.js run as the command runs (no flags) takes
 * every cache. Without them the command still works, a third slower to start
 * (bench: cold start), which no other test would notice.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const CACHED = [
  'src/app/cli/serve-bundle.cjs',
  'openapi/generated/validators/params.cjs',
  'openapi/generated/validators/requests.cjs',
  'openapi/generated/validators/responses.cjs',
];

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
