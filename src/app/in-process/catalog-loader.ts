/**
 * `catalog-kit/fetch` on Node.js: in the package, the bundle the build wrote of ./catalog.ts
 * (dist/src/app/in-process/catalog-bundle.cjs, scripts/build.mjs) with its V8 code cache, which a
 * test file imports in a fraction of the time of the modules it holds (bench: in-process import and
 * createCatalog); from source (tests, tsx), where there is no bundle, ./catalog.ts itself. Its
 * types are ./catalog.ts's (package.json `exports`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../../../openapi/code-cache.ts';

type CatalogModule = typeof import('./catalog.ts');

const bundle = fileURLToPath(new URL('./catalog-bundle.cjs', import.meta.url));
const catalog: CatalogModule = existsSync(bundle) ? (requireWithCodeCache(bundle).exports as CatalogModule) : await import('./catalog.ts');

export const { createCatalog } = catalog;
