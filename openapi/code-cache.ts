/**
 * CommonJS modules loaded with a V8 code cache: the compiled validators (~3 MB of generated
 * JavaScript, src/openapi/compiled.ts; this lives in openapi/, beside what it loads) and the
 * bundled `catalog-kit serve` (src/cli/serve-loader.ts)
 * took V8 about 50 ms and 100 ms to parse and compile at every start.
 * The build (scripts/build.mjs) loads each one once and writes what V8 compiled beside it
 * (`<file>.v8cache`); at start-up V8 takes that instead (docs/performance.md "Cold start"). V8
 * checks the cache against the source and its own version and flags: a cache written by another
 * Node.js, for other source or under other flags (a profiler, a test runner) is rejected, and the
 * module is compiled as `require` would compile it. No cache file, likewise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

export const CODE_CACHE_SUFFIX = '.v8cache';

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

function compile(filename: string, cachedData?: Buffer): Script {
  return new Script(Module.wrap(readFileSync(filename, 'utf8')), { filename, ...(cachedData ? { cachedData } : {}) });
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

/** The exports of a CommonJS file, with its code cache when there is one V8 accepts. */
export function requireWithCodeCache(filename: string): { exports: unknown; cacheUsed: boolean } {
  const cachedData = readCache(filename);
  const script = compile(filename, cachedData);
  return { exports: run(script, filename), cacheUsed: cachedData !== undefined && script.cachedDataRejected === false };
}

/**
 * Writes `<file>.v8cache` for a CommonJS file (run by the build, with the Node.js that will serve).
 * `warmUp` gets the module's exports and runs what the command will run first: the cache then holds
 * the code V8 compiled for it too, not only the module's top level.
 */
export async function writeCodeCache(filename: string, warmUp?: (exports: unknown) => Promise<void>): Promise<number> {
  const script = compile(filename);
  const exports = run(script, filename);
  await warmUp?.(exports);
  const data = script.createCachedData();
  writeFileSync(filename + CODE_CACHE_SUFFIX, data);
  return data.length;
}
