/**
 * Tests the tester: the conformance suite passes every rule against the reference server, and each
 * rule catches the fault built to break it. The clean run is against the built command, unmodified,
 * run as a child process and reached over HTTP, as users run it. The runs with a fault talk to the
 * reference in process (src/app/in-process/catalog.ts: the same dispatcher, reached through its
 * `fetch`) through the faulty proxy (./faulty-proxy.ts), which this test switches to one fault of
 * ./faults.ts at a time. Fixed seed; every failure message carries the seed and the report.
 *
 * Where each part runs (docs/contributing.md "Testing"): `npm test` runs the fault-table equality, the clean
 * run, the random-phase and profile tests, and the faults of a fixed sample of rules: the first
 * rule of every group (the id before its first dot), so that every group keeps a proved fault and a
 * new group joins by itself. `npm run test:selftest` (SELFTEST_ALL=1, run by .ci/run) runs every
 * rule against its fault. The reference server records search hits and events synchronously, so
 * the suite runs with a short --settle-timeout: a fault that hides a search hit or an event then
 * costs half a second, not the 5 to 10 s a real target is given.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fetch } from '../../conformance/http.ts';
import { consoleReport } from '../../conformance/report/console.ts';
import { RULES } from '../../conformance/rules.ts';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '../../conformance/run.ts';
import { createCatalog, type InProcessCatalog } from '../../src/app/in-process/catalog.ts';
import type { ProfileName } from '../../src/config/profiles.ts';
import { FAULTS } from './faults.ts';
import { FaultyProxy } from './faulty-proxy.ts';

const SEED = 20_251_122;
/** `npm run test:selftest`: every rule against its fault, not only the sample. */
const ALL = process.env.SELFTEST_ALL === '1';
/** `--settle-timeout` of every run here (see above). */
const SETTLE_MS = 500;
/** Dev aid: a shell command starting another server that prints the same lines; every run goes to it, the faults through the proxy in front of it. */
const OVERRIDE = process.env.CK_SELFTEST_SERVER;
/** The built command (scripts/build.mjs), as `npm start` and the installed package run it. */
const BIN = fileURLToPath(new URL('../../dist/bin/catalog-kit.js', import.meta.url));
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first (the self-test runs the built command)`);
const JWT = /(eyJ[\w-]+\.[\w-]+\.[\w-]+)/;

let child: ChildProcess | undefined;
let proxy: FaultyProxy | undefined;
/** Where the runs with a fault go: the in-process reference (or the override), through the proxy. */
let target: { baseUrl: string; token: string; restrictedToken: string; fetch: Fetch };
const catalogs: InProcessCatalog[] = [];

/** The reference in process, empty, in a profile, with an Admin and a DataConsumer token. */
async function inProcess(profile?: ProfileName): Promise<{ baseUrl: string; token: string; restrictedToken: string; fetch: Fetch }> {
  const catalog = await createCatalog({ fixtures: 'none', profile });
  catalogs.push(catalog);
  return { baseUrl: catalog.baseUrl, token: await catalog.token(), restrictedToken: await catalog.token({ role: 'DataConsumer', user: 'reader' }), fetch: catalog.fetch };
}
afterAll(() => catalogs.forEach((catalog) => catalog.close()));

/** The built command (or the override), on a free port; `child` until it is stopped. */
function startServer(): Promise<{ baseUrl: string; token: string; restricted?: string }> {
  const proc = OVERRIDE
    ? spawn(OVERRIDE, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [BIN, 'serve', '--port', '0', '--fixtures', 'none'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the reference server printed no URL and token within 90 s:\n${out}\n${err}`)), 90_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const baseUrl = /(http:\/\/127\.0\.0\.1:\d+\/api)/.exec(out)?.[1];
      const token = /admin token[^\n]*?(eyJ[\w-]+\.[\w-]+\.[\w-]+)/i.exec(out)?.[1] ?? JWT.exec(out)?.[1];
      if (baseUrl && token) {
        clearTimeout(timer);
        resolve({ baseUrl, token, restricted: /restricted token[^\n]*?(eyJ[\w-]+\.[\w-]+\.[\w-]+)/i.exec(out)?.[1] });
      }
    });
    proc.stderr?.on('data', (d: Buffer) => void (err += d.toString()));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference server exited (${code}) before it was ready:\n${out}\n${err}`));
    });
  });
}

function restrictedToken(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, 'token', '--role', 'DataConsumer', '--user', 'reader'], (error, stdout, stderr) => {
      const token = JWT.exec(stdout)?.[1];
      if (error || !token) reject(new Error(`catalog-kit token failed: ${error?.message ?? ''} ${stderr}`));
      else resolve(token);
    });
  });
}

function run(options: Partial<ConformanceOptions>): Promise<ConformanceReport> {
  return runConformance({ ...target, seed: SEED, runs: 5, settleTimeoutMs: SETTLE_MS, ...options });
}

/** Runs `body` with exactly `rule`'s fault on, and the proxy transparent again after. */
async function withFault<T>(rule: string, body: () => Promise<T>): Promise<T> {
  proxy!.setFaults([rule]);
  try {
    return await body();
  } finally {
    proxy!.setFaults([]);
  }
}

const explain = (report: ConformanceReport) => `seed ${SEED}\n${consoleReport(report)}`;

/** The rules whose faults `npm test` proves: the first rule of every group, in RULES order. */
function sampleRules(): string[] {
  const seen = new Set<string>();
  return RULES.map((r) => r.id).filter((id) => {
    const group = id.split('.')[0] ?? id;
    if (seen.has(group)) return false;
    seen.add(group);
    return true;
  });
}
const FAULTED = ALL ? Object.keys(FAULTS) : sampleRules().filter((id) => id in FAULTS);

describe('the fault table', () => {
  it('has exactly one fault per rule of the suite: no rule untested, no stale fault', () => {
    expect(Object.keys(FAULTS).sort()).toEqual(RULES.map((r) => r.id).sort());
  });
});

describe('the conformance suite against the reference server', () => {
  /** The built command's URL and tokens: the clean run's target. */
  let command: { baseUrl: string; token: string; restrictedToken: string };
  beforeAll(async () => {
    const started = await startServer();
    command = { baseUrl: started.baseUrl, token: started.token, restrictedToken: started.restricted ?? (await restrictedToken()) };
    // The override is reached over HTTP like the command; by default the faults sit in front of the reference in process.
    const behind = OVERRIDE ? { ...command, fetch: ((input, init) => fetch(input, init)) as Fetch } : await inProcess();
    proxy = new FaultyProxy({ upstream: behind.fetch, faults: FAULTS, adminToken: behind.token });
    target = { ...behind, fetch: proxy.fetch };
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      // The override runs in its own process group (shell + server): stop the whole group we started.
      if (OVERRIDE && child.pid) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
      await exited;
    }
  });

  // The built command over HTTP; the first full run also pays its first-request costs on every
  // route. It makes the same claims as a default run of ./seeds.test.ts, which `npm test`
  // therefore leaves to `npm run test:selftest`.
  it('passes every rule with no fault on, exercising all of them and every operation of the interface', async () => {
    const report = await runConformance({ ...command, seed: SEED, runs: 10, settleTimeoutMs: SETTLE_MS });
    expect(report.failed, explain(report)).toBe(0);
    expect(report.notExercised, explain(report)).toBe(0);
    expect(report.coverage.interface.missing, explain(report)).toEqual([]);
    expect(report.coverage.undocumented, explain(report)).toEqual([]);
  }, 400_000);

  describe(ALL ? 'fails each rule with its fault on' : 'fails each rule of the sample (the first of each group) with its fault on', () => {
    it.each(FAULTED)(
      '%s',
      async (rule) => {
        const report = await withFault(rule, () => run({ rules: [rule], runs: 3 }));
        expect(
          report.rules.map((r) => [r.id, r.status]),
          `the fault of ${rule} was not caught: ${explain(report)}`,
        ).toEqual([[rule, 'fail']]);
      },
      60_000,
    );
  });

  describe('the random model-based phase on its own', () => {
    it.each(['soft-delete.version-rises', 'upsert.never-409', 'not-found.unknown-id'])(
      'finds %s broken by its fault, shrinks it, and replays it from the printed seed and path',
      async (rule) => {
        await withFault(rule, async () => {
          const report = await run({ rules: [rule], runs: 15, phases: { scenarios: false } });
          const failure = report.rules[0]?.failures[0];
          expect(failure?.origin.kind, explain(report)).toBe('random');
          if (failure?.origin.kind !== 'random') return;
          expect(failure.steps.length, explain(report)).toBeLessThanOrEqual(4);
          const replay = await run({ rules: [rule], seed: failure.origin.seed, path: failure.origin.path });
          const again = replay.rules[0]?.failures[0];
          expect(again?.origin.kind === 'random' && again.origin.commands.replace(/\/\*.*?\*\//g, ''), explain(replay)).toBe(failure.origin.commands.replace(/\/\*.*?\*\//g, ''));
        });
      },
      120_000,
    );
  });
});

describe('the profiles (docs/behaviour.md "Profiles")', () => {
  // The reference in process, reached through its `fetch` (catalog-kit/fetch) without the proxy:
  // in each profile the suite in that profile passes every rule, so the catalog in process answers
  // as the served one does; the suite in the `contract` profile fails an `openmetadata` server
  // exactly where the two profiles differ.
  let om: { baseUrl: string; token: string; restrictedToken: string; fetch: Fetch };
  beforeAll(async () => {
    om = await inProcess('openmetadata');
  });

  it.each(['contract', 'openmetadata'] as const)(
    'the %s profile of the suite passes every rule against the reference in process in that profile',
    async (profile) => {
      const target = profile === 'openmetadata' ? om : await inProcess(profile);
      const report = await runConformance({ ...target, seed: SEED, runs: 5, profile, settleTimeoutMs: SETTLE_MS });
      expect(report.failed, explain(report)).toBe(0);
      expect(report.notExercised, explain(report)).toBe(0);
    },
    400_000,
  );

  it('the openmetadata-1.10 profile of the suite passes the rules 2.0 changed against an openmetadata-1.10 server, and the 2.0 profile fails them there', async () => {
    const old = await inProcess('openmetadata-1.10');
    const rules = ['names.refused-characters', 'search.search-after', 'events.lineage'];
    const same = await runConformance({ ...old, seed: SEED, runs: 1, profile: 'openmetadata-1.10', rules, settleTimeoutMs: SETTLE_MS });
    const statuses = (report: ConformanceReport) => report.rules.map((r) => [r.id, r.status]).sort();
    expect(statuses(same), explain(same)).toEqual(rules.map((id) => [id, 'pass']).sort());
    const newer = await runConformance({ ...old, seed: SEED, runs: 1, profile: 'openmetadata', rules, settleTimeoutMs: SETTLE_MS });
    expect(statuses(newer), explain(newer)).toEqual(rules.map((id) => [id, 'fail']).sort());
  }, 200_000);

  it('the contract profile of the suite fails the hard-delete and error-shape rules against it', async () => {
    const report = await runConformance({ ...om, seed: SEED, runs: 3, profile: 'contract', rules: ['hard-delete.status', 'errors.body-shape'], settleTimeoutMs: SETTLE_MS });
    expect(
      report.rules.map((r) => [r.id, r.status]),
      explain(report),
    ).toEqual([
      ['hard-delete.status', 'fail'],
      ['errors.body-shape', 'fail'],
    ]);
  }, 120_000);
});
