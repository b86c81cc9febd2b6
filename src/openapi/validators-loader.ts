/**
 * Loads the compiled validators on Node.js: the generator's output folder (openapi/generated/
 * validators/, copied into dist/ by the build). The request and response validators are modules
 * loaded with the code cache the build wrote (openapi/code-cache.ts), so V8 neither parses nor
 * compiles them at start-up: each family's base module, and a profile's own module (what reaches a
 * component its document changes) when a name in it is first asked for. Each operation's
 * parameter validator comes from its own small module on first use (index.cjs `params`). The
 * response validators' base module is loaded at once (a start's first read needs it); the request
 * bodies' by the first request with a body: a start and its reads need none (bench: cold start, in
 * process createCatalog). The browser build of the catalog in process takes
 * validators-loader.browser.ts instead.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { VALIDATORS_DIR } from '../config/assets.ts';
import { requireWithCodeCache } from '../../openapi/code-cache.ts';
import type { CompiledFunction, CompiledValidators } from './compiled.ts';

type Functions = Record<string, CompiledFunction>;

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

/**
 * A family's functions by name: the name `<prefix><i>_<N>` is in its module i, any other in its
 * base module (scripts/compile-validators.ts `Family`); a module is loaded when a name in it is
 * first asked for, all of them when the names are listed.
 */
function family(files: readonly string[], loadBase = false): Functions {
  const modules: (Functions | undefined)[] = [];
  const load = (i: number): Functions => (modules[i] ??= loading(() => requireWithCodeCache(path.join(VALIDATORS_DIR, files[i]!)).exports as Functions));
  const moduleOf = (name: string | symbol): Functions | undefined => {
    if (typeof name !== 'string') return undefined;
    const i = Number(/^[a-z]+(\d+)_/.exec(name)?.[1] ?? 0);
    return i < files.length ? load(i) : undefined;
  };
  const all = (): Functions => Object.assign({}, ...files.map((_, i) => load(i))) as Functions;
  if (loadBase) load(0);
  return new Proxy({} as Functions, {
    get: (_, name) => moduleOf(name)?.[name as string],
    has: (_, name) => moduleOf(name)?.[name as string] !== undefined,
    ownKeys: () => Reflect.ownKeys(all()),
    getOwnPropertyDescriptor: (_, name) => {
      const fn = moduleOf(name)?.[name as string];
      return fn === undefined ? undefined : { value: fn, enumerable: true, configurable: true, writable: false };
    },
  });
}

export function loadCompiledValidators(): CompiledValidators {
  const require = createRequire(import.meta.url);
  const file = (name: string) => path.join(VALIDATORS_DIR, name);
  const index = loading(() => require(file('index.cjs')) as Pick<CompiledValidators, 'source' | 'params'> & { modules: { requests: string[]; responses: string[] } });
  return {
    source: index.source,
    params: index.params,
    requests: family(index.modules.requests),
    // A start's first read validates its answer: the base module now, not in that read.
    responses: family(index.modules.responses, true),
    tables: loading(() => require(file('operations.json')) as CompiledValidators['tables']),
    get adminDocument() {
      return loading(() => require(file('admin-document.json')) as Record<string, unknown>);
    },
  };
}
