#!/usr/bin/env node
// The published command: runs the TypeScript sources through tsx, so there is no build step to
// remember (DESIGN.md "Conventions").
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
