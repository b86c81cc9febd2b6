/**
 * CommonJS modules loaded with a V8 code cache (bench: cold start): the compiled validators (about
 * 3 MB of generated JavaScript, src/openapi/compiled.ts) and the bundle of `catalog-kit serve`
 * (src/app/cli/serve-loader.ts). The build (scripts/build.mjs) loads each one once and writes what
 * V8 compiled beside it (`<file>.v8cache`); at start-up V8 takes that instead. V8 checks the cache
 * against the source, its own version and flags: a cache written by another Node.js, for other
 * source or under other flags is rejected, and the module is compiled as `require` would. Where
 * Node's own compile cache is on (Node ≥ 22), `require` is used and that cache does the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

export const CODE_CACHE_SUFFIX = '.v8cache';

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/**
 * A file with a code cache is ASCII (writeCodeCache makes it so), and read as latin1, which for
 * ASCII is the same text without UTF-8 decoding (bench: cold start).
 */
function compile(filename: string, cachedData?: Buffer): Script {
  return new Script(Module.wrap(readFileSync(filename, cachedData ? 'latin1' : 'utf8')), { filename, ...(cachedData ? { cachedData } : {}) });
}

/**
 * The source with each non-ASCII UTF-16 unit written `\uXXXX`. V8 holds ASCII source as a one-byte
 * string: one non-ASCII character in the 2.6 MB of the serve bundle made reading and compiling it
 * several times slower (bench: cold start). Meant for generated code (esbuild's, Ajv's), where such
 * a character is only in a string, a regular-expression literal or a comment, and the escape means
 * the same there.
 */
function asciiSource(source: string): string {
  return source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Runs a compiled module as Node runs a CommonJS file: its own `require`, `module`, `exports`. */
function run(script: Script, filename: string): unknown {
  const module = { exports: {} as unknown };
  (script.runInThisContext() as ModuleFunction).call(module.exports, module.exports, createRequire(filename), module, filename, path.dirname(filename));
  return module.exports;
}

function readCache(filename: string): Buffer | undefined {
  try {
    return readFileSync(filename + CODE_CACHE_SUFFIX);
  } catch {
    return undefined;
  }
}

/** Node's own compile cache (Node ≥ 22, enabled by the command: bin/catalog-kit.ts), when it is on. */
const nodeCompileCache = (Module as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();

/**
 * The exports of a CommonJS file, with its code cache when there is one V8 accepts; with Node's own
 * compile cache on, loaded by `require`, which that cache covers.
 */
export function requireWithCodeCache(filename: string): { exports: unknown; cacheUsed: boolean } {
  if (nodeCompileCache !== undefined) return { exports: createRequire(filename)(filename) as unknown, cacheUsed: false };
  const cachedData = readCache(filename);
  const script = compile(filename, cachedData);
  return { exports: run(script, filename), cacheUsed: cachedData !== undefined && script.cachedDataRejected === false };
}

/**
 * Writes `<file>.v8cache` for a CommonJS file (run by the build, with the Node.js that will serve),
 * after making the file ASCII (asciiSource).
 * `warmUp` gets the module's exports and runs what the command will run first: the cache then holds
 * the code V8 compiled for it too, not only the module's top level.
 */
export async function writeCodeCache(filename: string, warmUp?: (exports: unknown) => Promise<void>): Promise<number> {
  const source = readFileSync(filename, 'utf8');
  if (asciiSource(source) !== source) writeFileSync(filename, asciiSource(source));
  const script = compile(filename);
  const exports = run(script, filename);
  await warmUp?.(exports);
  const data = script.createCachedData();
  writeFileSync(filename + CODE_CACHE_SUFFIX, data);
  return data.length;
}
