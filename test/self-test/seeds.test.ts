/**
 * No false positives: a default run of the conformance suite (25 random sequences, the default
 * --settle-timeout) passes every rule against the reference server, in both profiles, whatever the
 * seed, and checks every operation of the interface's kinds. `npm test` runs only the
 * --min-coverage test here: the self-test's clean run (./selftest.test.ts) makes the same claims
 * for one seed, so a default run here would repeat it. `npm run test:selftest` (SELFTEST_ALL=1,
 * run by .ci/run) tries CK_SEEDS seeds per profile (10 there, 1 when unset);
 * `CK_SEEDS=20 npx vitest run test/self-test/seeds.test.ts` tries twenty (the seeds are 1..N, so a
 * failure names the one to replay with `catalog-kit conform --seed N`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformMain } from '../../conformance/cli.ts';
import { consoleReport } from '../../conformance/report/console.ts';
import { runConformance } from '../../conformance/run.ts';
import { signToken } from '../../src/auth/tokens.ts';
import type { ProfileName } from '../../src/config/profiles.ts';
import { startServer, type RunningServer } from '../../src/app/server.ts';

const SEEDED = process.env.SELFTEST_ALL === '1' || process.env.CK_SEEDS !== undefined;
const COUNT = Number(process.env.CK_SEEDS ?? 1);
if (!Number.isInteger(COUNT) || COUNT < 1) throw new Error(`CK_SEEDS must be a positive integer, not ${process.env.CK_SEEDS}`);

describe.runIf(SEEDED).each(['contract', 'openmetadata'] as const satisfies readonly ProfileName[])('a default run against the %s-profile reference server', (profile) => {
  // One seed range per profile, so that the two profiles do not try the same sequences.
  const seeds = Array.from({ length: COUNT }, (_, i) => (profile === 'contract' ? 1 : 101) + i);
  let server: RunningServer;
  let tokens: { token: string; restrictedToken: string };
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', profile, log: () => {} });
    tokens = { token: await signToken({ user: 'conformance-admin', role: 'Admin' }), restrictedToken: await signToken({ user: 'conformance-reader', role: 'DataConsumer' }) };
  }, 60_000);
  afterAll(() => server?.close());

  it.each(seeds)(
    'seed %i: every rule passes and is exercised; every operation of the interface is checked',
    async (seed) => {
      const report = await runConformance({ baseUrl: server.baseUrl, ...tokens, profile, seed });
      const explain = `seed ${seed}, profile ${profile}\n${consoleReport(report)}`;
      expect(report.failed, explain).toBe(0);
      expect(report.notExercised, explain).toBe(0);
      expect(report.coverage.interface.missing, explain).toEqual([]);
      expect(report.coverage.undocumented, explain).toEqual([]);
    },
    120_000,
  );
});

describe('--min-coverage', () => {
  it('fails a run whose rules all hold but which checks fewer operations than asked, and passes it with a lower bar', async () => {
    const server = await startServer({ port: 0, host: '127.0.0.1', log: () => {} });
    try {
      const token = await signToken({ user: 'conformance-admin', role: 'Admin' });
      // given: one rule selected (creates only), so a small share of the interface's operations is checked
      for (const [min, want] of [
        ['90', 1],
        ['1', 0],
      ] as const) {
        let out = '';
        const code = await conformMain(['--target', server.baseUrl, '--token', token, '--rules', 'create.returns-fields', '--runs', '1', '--seed', '7', '--min-coverage', min], {
          stdout: (t) => void (out += t),
          stderr: () => {},
          env: {},
          handleSigint: false,
        });
        expect(code, out).toBe(want);
        expect(out).toContain(`--min-coverage ${min}%: ${want === 1 ? 'NOT MET' : 'met'}`);
        expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed');
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
