#!/usr/bin/env node
/**
 * `npm test`, within 90 s on two cores: the build (nothing to do when dist/ is current:
 * scripts/build.mjs; the tests run the built command), then the tests (vitest). What CI
 * (.ci/run) runs after this, each in full: the type check and the lint, format, dead-code and
 * layer checks (`npm run check`: tsc, ESLint, Redocly, Prettier, knip, dependency-cruiser), the
 * pages in headless Chromium (`npm run test:browser`), the generated types regenerated (`npm run
 * check:types`), the package packed into an empty project (`npm run test:package`, `npm run
 * lint:package`), the validators against the oracle (`npm run test:differential`) and every
 * self-test fault (`npm run test:selftest`). Stops at the first step that fails, with its exit status.
 */
import { spawn } from 'node:child_process';

const npm = (script) =>
  new Promise((resolve) => {
    // A shell only on Windows, where npm is npm.cmd.
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const steps = [['build'], ['test:unit']];
for (const step of steps) {
  const codes = await Promise.all(step.map(npm));
  const failed = codes.findIndex((code) => code !== 0);
  if (failed !== -1) {
    process.stderr.write(`npm test: \`npm run ${step[failed]}\` failed (exit ${codes[failed]})\n`);
    process.exit(codes[failed]);
  }
}
