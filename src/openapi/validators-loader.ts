/**
 * Loads the compiled validators on Node.js: the generator's output folder (openapi/generated/
 * validators/, copied into dist/ by the build): the two large validator modules with the code cache
 * the build wrote (openapi/code-cache.ts), so V8 neither parses nor compiles them at start-up, and
 * each operation's parameter validator from its own small module on first use (index.cjs `params`).
 * The request bodies' module is loaded by the first request with a body: a start and its reads
 * need none of it (bench: cold start, in process createCatalog). The browser build of the catalog
 * in process takes validators-loader.browser.ts instead.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { VALIDATORS_DIR } from '../config/assets.ts';
import { requireWithCodeCache } from '../../openapi/code-cache.ts';
import type { CompiledFunction, CompiledValidators } from './compiled.ts';

/** The validator modules loaded with their code cache; index.cjs (which requires them) is for other readers. */
export const VALIDATOR_MODULES = ['requests.cjs', 'responses.cjs'] as const;

/** What `read` gives, or an error that says to build when the generator's output is missing. */
function loading<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ENOENT') throw new Error(`The compiled validators are missing (${VALIDATORS_DIR}): run \`npm run build\``);
    throw error;
  }
}

export function loadCompiledValidators(): CompiledValidators {
  const require = createRequire(import.meta.url);
  const file = (name: string) => path.join(VALIDATORS_DIR, name);
  const cached = (name: (typeof VALIDATOR_MODULES)[number]) => loading(() => requireWithCodeCache(file(name)).exports as Record<string, CompiledFunction>);
  const responses = cached('responses.cjs');
  const { source, params } = loading(() => require(file('index.cjs')) as Pick<CompiledValidators, 'source' | 'params'>);
  const tables = loading(() => require(file('operations.json')) as CompiledValidators['tables']);
  let requests: Record<string, CompiledFunction> | undefined;
  return {
    source,
    params,
    get requests() {
      return (requests ??= cached('requests.cjs'));
    },
    responses,
    tables,
    get adminDocument() {
      return loading(() => require(file('admin-document.json')) as Record<string, unknown>);
    },
  };
}
