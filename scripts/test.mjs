#!/usr/bin/env node
/**
 * `npm test`: the type check and the build run side by side (each is one single-threaded tsc, and
 * the machine has two cores), then the tests (vitest, which runs the built command too), then the
 * package lint (publint, attw) side by side with ESLint, the Prettier check, knip (unused files,
 * exports and dependencies) and the boundary check (dependency-cruiser, .dependency-cruiser.cjs).
 * Stops at the first step that fails, with its exit status.
 */
import { spawn } from 'node:child_process';

const npm = (script) =>
  new Promise((resolve) => {
    // A shell only on Windows, where npm is npm.cmd.
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

// The last step's checks are short and mostly single-threaded: they share the two cores.
const steps = [['typecheck', 'build'], ['test:unit'], ['lint:package', 'lint', 'format:check', 'knip', 'lint:boundaries']];
for (const step of steps) {
  const codes = await Promise.all(step.map(npm));
  const failed = codes.findIndex((code) => code !== 0);
  if (failed !== -1) {
    process.stderr.write(`npm test: \`npm run ${step[failed]}\` failed (exit ${codes[failed]})\n`);
    process.exit(codes[failed]);
  }
}
