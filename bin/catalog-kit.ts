#!/usr/bin/env node
// The `catalog-kit` command. Compiled by scripts/build.mjs to dist/bin/catalog-kit.js, the
// package's `bin`; the commands themselves live in src/app/cli/main.ts.
import module from 'node:module';

// Node ≥ 22 keeps the code it compiles between runs (bench: cold start); Node 20 has no such cache,
// and takes the code caches the build wrote instead (openapi/code-cache.ts). Enabled before the
// commands are loaded, so that they are cached too.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('../src/app/cli/main.ts');

process.exitCode = await main(process.argv.slice(2));
