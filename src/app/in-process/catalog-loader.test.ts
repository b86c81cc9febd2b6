/**
 * `catalog-kit/fetch` as the package gives it on Node.js (package.json `exports`, built by
 * scripts/build.mjs): the bundle of the in-process catalog, loaded with a code cache V8 accepts,
 * exporting what src/app/in-process/catalog.ts exports, and answering as it does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as source from './catalog.ts';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const href = (file: string) => JSON.stringify(pathToFileURL(path.join(DIST, file)).href);

describe('the built catalog-kit/fetch on Node.js', () => {
  it('is the bundle with its code cache, gives what catalog.ts exports, and its catalog answers', () => {
    expect(existsSync(path.join(DIST, 'src/app/in-process/catalog-bundle.cjs')), 'dist/ is missing: run `npm run build`').toBe(true);
    const script = `
      const { requireWithCodeCache } = await import(${href('openapi/code-cache.js')});
      const { cacheUsed } = requireWithCodeCache(${JSON.stringify(path.join(DIST, 'src/app/in-process/catalog-bundle.cjs'))});
      const entry = await import(${href('src/app/in-process/catalog-loader.js')});
      const catalog = await entry.createCatalog();
      const answer = await catalog.fetch(catalog.baseUrl + '/v1/tables?limit=1', { headers: { authorization: 'Bearer ' + (await catalog.token()) } });
      const page = await answer.json();
      catalog.close();
      process.stdout.write(JSON.stringify({ cacheUsed, exports: Object.keys(entry).sort(), status: answer.status, tables: page.data.length }));`;
    // A clean environment: NODE_OPTIONS (a test runner's, a debugger's) would change V8's flags.
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ cacheUsed: true, exports: Object.keys(source).sort(), status: 200, tables: 1 });
  });
});
