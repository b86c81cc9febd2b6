/**
 * Tests `catalog-kit drift` as the conformance self-test tests `conform`: two reference servers
 * (in process, each reached through its `fetch`), the target seen through the faulty proxy
 * (./faulty-proxy.ts) with one fault of ./faults.ts at a time. With no fault, no difference (no
 * false positive); with each fault whose behaviour the generated sequences reach, a difference,
 * naming the operation, with its shrunk sequence, replayed from the printed seed and path.
 *
 * `npm test` runs one clean seed in the `contract` profile and a sample of faults. `npm run
 * test:selftest` (SELFTEST_ALL=1, run by .ci/run) runs every observable fault and CK_SEEDS clean
 * seeds per profile (10 there): seeds 1..N in `contract`, 101.. in `openmetadata`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftConsole } from '../../conformance/drift/report.ts';
import type { Fetch } from '../../conformance/http.ts';
import { runDrift, type DriftOptions, type DriftReport, type DriftServer } from '../../conformance/drift/run.ts';
import { signToken } from '../../src/auth/tokens.ts';
import { createCatalog, type InProcessCatalog } from '../../src/app/in-process/catalog.ts';
import type { ProfileName } from '../../src/config/profiles.ts';
import { FAULTS } from './faults.ts';
import { FaultyProxy } from './faulty-proxy.ts';

const ALL = process.env.SELFTEST_ALL === '1';
const SEEDS = ALL ? Number(process.env.CK_SEEDS ?? 10) : 1;
const SEED = 20_251_128;

/**
 * Faults whose behaviour the generated sequences do not reach, or too rarely for a test: the fixed
 * scenarios of `conform` reach them (events, search, lineage, data contracts, table data, CSV,
 * custom properties, conditional requests, fields, concurrency), or they need a shape 25 sequences
 * seldom build (a duplicate of a nested container or of a classification, a name reused in another
 * service, a restore of a parent deleted with children, a second page of a listing, a listing with
 * `include` after a soft delete, a follow read back by a later command, a patch whose test fails);
 * other seeds find some. Two are reached by `conform`'s scenarios only: deleteStale is no command of
 * the sequences, and their names never hold a character 2.0 refuses.
 */
const SCENARIO_GROUPS = /^(events|profiler-config|sample-data|container|data-contract|table-profile|csv|conditional|fields|search|lineage|custom-properties|concurrency)\./;
/** Faults of those groups that change answers the sequences get as well. */
const REACHED_ALL_THE_SAME = new Set(['events.rejected-write-none', 'conditional.etag', 'fields.unknown-400']);
const NOT_REACHED = new Set([
  'uniqueness.duplicate-post-409-nested',
  'uniqueness.same-name-in-other-scope-allowed',
  'restore.brings-back-children',
  'list.cursor-paging',
  'delete.async',
  'uniqueness.duplicate-post-409-classification',
  'followers.consistent',
  'list.include-filter',
  'patch.failed-test-applies-nothing',
  'delete.stale-in-scope',
  'names.refused-characters',
  ...Object.keys(FAULTS).filter((id) => SCENARIO_GROUPS.test(id) && !REACHED_ALL_THE_SAME.has(id)),
]);
/** What `npm test` proves: a fault that changes a status, and one that changes a version. */
const SAMPLE = ['hard-delete.status', 'soft-delete.version-rises'];
const PROFILES = ALL ? (['contract', 'openmetadata'] as const) : (['contract'] as const);
const OBSERVABLE = Object.keys(FAULTS).filter((id) => !NOT_REACHED.has(id));

let token: string;
let restrictedToken: string;
const servers: InProcessCatalog[] = [];
/** An empty reference in process, as drift's side (`baseUrl` and `fetch`; tokens are added by the tests). */
const reference = async (profile: ProfileName = 'contract') => {
  const server = await createCatalog({ fixtures: 'none', profile });
  servers.push(server);
  return server;
};
const side = (server: InProcessCatalog, fetch: Fetch = server.fetch): DriftServer => ({ baseUrl: server.baseUrl, token, restrictedToken, fetch });

beforeAll(async () => {
  token = await signToken({ user: 'conformance-admin', role: 'Admin' });
  restrictedToken = await signToken({ user: 'conformance-reader', role: 'DataConsumer' });
});
afterAll(() => servers.forEach((server) => server.close()));

const explain = (r: DriftReport) => `seed ${r.seed}\n${driftConsole(r)}`;

describe.each(PROFILES)('drift between two clean %s-profile references', (profile) => {
  let a: InProcessCatalog;
  let b: InProcessCatalog;
  beforeAll(async () => {
    [a, b] = await Promise.all([reference(profile), reference(profile)]);
  });
  const seeds = Array.from({ length: SEEDS }, (_, i) => (profile === 'contract' ? 1 : 101) + i);
  it.each(seeds)(
    'seed %i: every pair of answers matches',
    async (seed) => {
      const report = await runDrift({ target: side(a), reference: side(b), profile, seed });
      expect(report.findings, explain(report)).toEqual([]);
      expect(report.parity.length, explain(report)).toBeGreaterThan(30);
      expect(report.parity.every((p) => p.calls === p.identical)).toBe(true);
    },
    120_000,
  );
});

describe('drift between a reference and the reference behind the faulty proxy', () => {
  let proxy: FaultyProxy;
  let options: DriftOptions;
  beforeAll(async () => {
    const [a, b] = await Promise.all([reference(), reference()]);
    proxy = new FaultyProxy({ upstream: a.fetch, faults: FAULTS, adminToken: token });
    options = {
      target: side(a, proxy.fetch),
      reference: side(b),
      seed: SEED,
      runs: ALL ? 25 : 10,
      maxShrinkRuns: 100,
    };
  });

  async function withFault(rule: string): Promise<DriftReport> {
    proxy.setFaults([rule]);
    try {
      return await runDrift(options);
    } finally {
      proxy.setFaults([]);
    }
  }

  it.runIf(ALL)(
    'with no fault on, the proxy is transparent: no difference',
    async () => {
      const report = await runDrift({ ...options, runs: 10 });
      expect(report.findings, explain(report)).toEqual([]);
    },
    120_000,
  );

  it.each(ALL ? OBSERVABLE : SAMPLE)(
    '%s: a difference, named by its operation, with a shrunk sequence that replays',
    async (rule) => {
      const report = await withFault(rule);
      const first = report.findings[0];
      expect(first, `the fault of ${rule} made no difference: ${explain(report)}`).toBeDefined();
      expect(first!.operation).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/v1\//);
      expect(first!.steps.length, explain(report)).toBe(first!.index);
      expect(first!.differences.length).toBeGreaterThan(0);
      if (ALL) return;
      // The printed seed and path replay the same shortest sequence.
      proxy.setFaults([rule]);
      try {
        const replay = await runDrift({ ...options, seed: first!.seed, path: first!.path });
        expect(replay.findings[0]?.operation, explain(replay)).toBe(first!.operation);
        expect(replay.findings[0]?.commands.replace(/\/\*.*?\*\//g, ''), explain(replay)).toBe(first!.commands.replace(/\/\*.*?\*\//g, ''));
      } finally {
        proxy.setFaults([]);
      }
    },
    300_000,
  );
});
