#!/usr/bin/env node
// The `catalog-kit` command. Compiled by scripts/build.mjs to dist/bin/catalog-kit.js, the
// package's `bin`; the commands themselves live in src/cli/main.ts.
import { main } from '../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
