#!/usr/bin/env node
/**
 * `npm test`, within 90 s on two cores: first the type check, the build (nothing to do when dist/
 * is current: scripts/build.mjs), ESLint, the Prettier check, knip (unused files, exports and
 * dependencies) and the boundary check (dependency-cruiser, .dependency-cruiser.cjs) side by side
 * (each is mostly single-threaded and none needs another's output), then the tests (vitest, which
 * runs the built command too). The package test and lint (npm pack into an empty project; publint,
 * attw) and the validators against the oracle are `npm run test:package`, `npm run lint:package`
 * and `npm run test:differential`, which CI (.ci/run) runs after this. Stops at the first step
 * that fails, with its exit status.
 */
import { spawn } from 'node:child_process';

const npm = (script) =>
  new Promise((resolve) => {
    // A shell only on Windows, where npm is npm.cmd.
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const steps = [['typecheck', 'build', 'lint', 'format:check', 'knip', 'lint:boundaries'], ['test:unit']];
for (const step of steps) {
  const codes = await Promise.all(step.map(npm));
  const failed = codes.findIndex((code) => code !== 0);
  if (failed !== -1) {
    process.stderr.write(`npm test: \`npm run ${step[failed]}\` failed (exit ${codes[failed]})\n`);
    process.exit(codes[failed]);
  }
}
