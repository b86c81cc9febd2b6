/**
 * Two corrections to express-openapi-validator's own code, applied once per process, that take
 * per-request and per-start-up waste out of it without changing what it validates (issue 7; the
 * profiles are in docs/performance.md). Both replace a property of a module object the validator
 * reads at call time, in the copies of the modules the validator itself loads.
 */
import { createRequire } from 'node:module';

const requireFromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
type PathOptions = { sensitive?: boolean; strict?: boolean };
type SchemaValidatorClass = new (opts: { version: string; validateApiSpec: boolean }) => { validate(doc: unknown): { errors: unknown[] } };

let applied = false;

export function applyValidatorShims(): void {
  if (applied) return;
  applied = true;
  // Each shim only saves time: if a future validator release moved what it patches, the server
  // runs unpatched (slower) rather than not at all.
  for (const shim of [cachePathRegexps, skipUnusedSpecValidator]) {
    try {
      shim();
    } catch (error) {
      process.emitWarning(`catalog-kit: validator shim ${shim.name} not applied: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/**
 * `lookupRoute` finds a request's operation by compiling, on every request, the path regexp of
 * each documented path in turn until one matches (≈ a third of the CPU of a GET by id).
 * `pathToRegexp` is a pure function of (path, options) and its regexps carry no state (no `g`/`y`
 * flag), so it answers from a cache. Express's router calls `match()`, which this leaves alone.
 */
function cachePathRegexps(): void {
  const ptr = requireFromValidator('path-to-regexp') as { pathToRegexp: (path: string, options?: PathOptions) => unknown };
  const compile = ptr.pathToRegexp;
  const cache = new Map<string, unknown>();
  ptr.pathToRegexp = (path, options = {}) => {
    const key = `${options.sensitive ? 1 : 0}${options.strict ? 1 : 0}${path}`;
    let compiled = cache.get(key);
    if (compiled === undefined) cache.set(key, (compiled = compile(path, options)));
    return compiled;
  };
}

/**
 * Every validator instance compiles the whole OpenAPI 3.1 meta-schema with ajv (≈ 0.1–0.2 s),
 * even with `validateApiSpec: false`, when the compiled schema is never used. With that option
 * off, the instance built is now an empty one; with it on, the original.
 */
function skipUnusedSpecValidator(): void {
  const module = requireFromValidator('express-openapi-validator/dist/framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: SchemaValidatorClass };
  const Original = module.OpenAPISchemaValidator;
  const unused = { validate: () => ({ errors: [] }) };
  module.OpenAPISchemaValidator = function OpenAPISchemaValidator(opts: { version: string; validateApiSpec: boolean }) {
    return opts.validateApiSpec ? new Original(opts) : unused;
  } as unknown as SchemaValidatorClass;
}
