/**
 * Where `catalog-kit serve` comes from: in the package, the bundle the build wrote
 * (dist/src/app/cli/serve-bundle.cjs, scripts/build.mjs) with its V8 code cache, which starts in
 * about two thirds of the time of the modules it holds (bench: cold start); from
 * source (tests, tsx), where there is no bundle, src/app/cli/serve.ts itself.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../../../openapi/code-cache.ts';

type ServeModule = typeof import('./serve.ts');

export async function loadServe(): Promise<ServeModule['runServe']> {
  const bundle = fileURLToPath(new URL('./serve-bundle.cjs', import.meta.url));
  if (existsSync(bundle)) return (requireWithCodeCache(bundle).exports as ServeModule).runServe;
  return (await import('./serve.ts')).runServe;
}
