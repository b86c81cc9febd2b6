/**
 * runConformance: probe the target, run the deterministic scenarios, then the random model-based
 * sequences (fast-check), then remove everything the run created. Returns a structured report.
 */
import { randomBytes } from 'node:crypto';
import { Tally } from './checker.ts';
import { loadDocument } from './document.ts';
import { AbortedError, HttpClient, TransportError, type Fetch } from './http.ts';
import { expectationsFor, type Profile } from './profiles.ts';
import { probeKinds, probeTarget, resolveUser, TargetError } from './probe.ts';
import { randomPhase } from './random-phase.ts';
import { buildReport, type ConformanceReport } from './report/model.ts';
import { RULE_IDS, RULES } from './rules.ts';
import { scenarioPhase } from './scenario-phase.ts';
import { CleanupRegistry, type RunContext } from './session.ts';

export interface ConformanceOptions {
  /** Base URL of the target, ending in /api. */
  baseUrl: string;
  /** How requests reach the target (default `globalThis.fetch`; an in-process catalog's `fetch` needs no port). */
  fetch?: Fetch;
  token: string;
  restrictedToken?: string;
  profile?: Profile;
  /** Random sequences to run (default 25). */
  runs?: number;
  seed?: number;
  /** Replay one counterexample: `<fast-check path>~<replayPath>` as printed by a failure. */
  path?: string;
  /** Rules to check (default: all). */
  rules?: readonly string[];
  /** Longest random sequence (default 25). */
  maxCommands?: number;
  /** Runs spent shrinking a failure before reporting the smallest found (default 300). */
  maxShrinkRuns?: number;
  log?: (line: string) => void;
  isAborted?: () => boolean;
  timeoutMs?: number;
  /** `--settle-timeout`: how long eventually consistent reads (search, events, feed) are retried before a rule fails (default: each scenario's own). */
  settleTimeoutMs?: number;
  /** Which phases run (default both; tests use this to prove each phase catches faults). */
  phases?: { scenarios?: boolean; random?: boolean };
  /** The target's own OpenAPI document (URL or file) to check responses against, instead of the kit's. */
  openapi?: string;
  /** `--min-coverage`: the least percentage of the interface's operations the run must check (the report says whether it did). */
  minCoverage?: number;
}

const DEFAULT_RUNS = 25;

export { TargetError } from './probe.ts';
export type { ConformanceReport } from './report/model.ts';

export async function runConformance(opts: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const profile = opts.profile ?? 'contract';
  const selected = opts.rules && opts.rules.length > 0 ? [...opts.rules] : [...RULE_IDS];
  const active = new Set(selected);
  const client = new HttpClient({
    baseUrl: opts.baseUrl,
    token: opts.token,
    restrictedToken: opts.restrictedToken,
    timeoutMs: opts.timeoutMs,
    isAborted: opts.isAborted,
    fetch: opts.fetch,
  });
  // Cleanup must still work after Ctrl-C: its client ignores the abort flag.
  const cleanupClient = new HttpClient({ baseUrl: opts.baseUrl, token: opts.token, timeoutMs: opts.timeoutMs, fetch: opts.fetch });

  const document = await loadDocument(profile, opts.openapi);
  await probeTarget(client);
  const [available, user] = await Promise.all([probeKinds(client), resolveUser(client)]).catch((err: unknown) => {
    if (err instanceof TransportError) throw new TargetError(`the target stopped answering right after the first request: ${err.message}`);
    throw err;
  });
  const runId = randomBytes(4).toString('hex');
  const ctx: RunContext = {
    client,
    profile,
    exp: expectationsFor(profile),
    runPrefix: `ck_${runId}`,
    userId: user.id,
    userName: user.name,
    startedAt: started,
    document,
    lastUpdatedAt: new Map(),
    resolvedHrefs: new Map(),
    settleTimeoutMs: opts.settleTimeoutMs,
    available,
    tally: new Tally(new Set(RULES.filter((r) => r.everyResponse).map((r) => r.id))),
    cleanup: new CleanupRegistry(),
  };
  log(`target ${client.baseUrl}, profile ${profile}, run ${ctx.runPrefix}, ${selected.length} rule(s)`);
  if (!client.hasRestrictedToken) ctx.tally.note('auth.restricted-token-403', 'not exercised: no --restricted-token given');

  let seed = opts.seed ?? randomBytes(4).readUInt32BE(0) & 0x7fffffff;
  let cleanupProblems: string[] = [];
  try {
    if (opts.path === undefined && opts.phases?.scenarios !== false) await scenarioPhase(ctx, active, log);
    if (opts.phases?.random !== false)
      seed = await randomPhase(ctx, active, {
        seed,
        runs: opts.runs ?? DEFAULT_RUNS,
        path: opts.path,
        maxCommands: opts.maxCommands ?? 25,
        maxShrinkRuns: opts.maxShrinkRuns ?? 300,
        log,
      });
  } catch (err) {
    if (err instanceof TransportError) {
      await ctx.cleanup.remove(cleanupClient).catch(() => []);
      throw new TargetError(`the target stopped answering during the run: ${err.message}`);
    }
    if (err instanceof AbortedError) log('interrupted: removing what the run created…');
    cleanupProblems = await ctx.cleanup.remove(cleanupClient).catch((e: Error) => [e.message]);
    throw err;
  }
  cleanupProblems = await ctx.cleanup.remove(cleanupClient).catch((e: Error) => [e.message]);
  if (cleanupProblems.length > 0) log(`cleanup left ${cleanupProblems.length} root(s), e.g. ${cleanupProblems.slice(0, 3).join('; ')}`);
  return buildReport({
    target: client.baseUrl,
    profile,
    seed,
    runs: opts.runs ?? DEFAULT_RUNS,
    path: opts.path,
    selected,
    tally: ctx.tally,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    cleanupProblems,
    document,
    exp: ctx.exp,
    minCoverage: opts.minCoverage,
  });
}
