/**
 * runDrift: the suite's generated command sequences (the commands and model `conform` uses,
 * fc.commands) run against two servers in lock-step, each in its own namespace: every command runs
 * on both, then the answers it got are compared pair by pair, in order (conformance/drift/normalise.ts
 * says what is compared). No rule is judged: the reference's answer is the expectation. The first
 * differing pair fails the sequence, which fast-check shrinks to the shortest one that still
 * differs; the run then goes on with that operation muted (its differences counted, not failing)
 * to find the other operations that differ. Returns the parity of every operation and, per
 * differing operation, its shrunk sequence.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Tally } from '../checker.ts';
import { commandArbitraries } from '../commands/index.ts';
import { loadDocument, type ApiDocument } from '../document.ts';
import { AbortedError, HttpClient, TransportError, type Exchange, type Fetch } from '../http.ts';
import { Model } from '../model.ts';
import { DRIFT_FREE_FIELDS, expectationsFor, type Profile } from '../profiles.ts';
import { probeKinds, probeTarget, resolveUser, TargetError } from '../probe.ts';
import { joinReplayPath, splitReplayPath } from '../random-phase.ts';
import { RULE_IDS } from '../rules.ts';
import { CleanupRegistry, Session, type RunContext } from '../session.ts';
import { compareExchanges, Normaliser, type Difference } from './normalise.ts';

/** One of the two servers. */
export interface DriftServer {
  /** Base URL, ending in /api. */
  baseUrl: string;
  token: string;
  restrictedToken?: string;
  /** How requests reach it (default `globalThis.fetch`; an in-process catalog's `fetch` needs no port). */
  fetch?: Fetch;
  /** How reports name it (default its base URL). */
  label?: string;
}

export interface DriftOptions {
  target: DriftServer;
  reference: DriftServer;
  profile?: Profile;
  /** Random sequences (default 25). */
  runs?: number;
  seed?: number;
  /** Replay one sequence: `<fast-check path>~<replayPath>` as printed. */
  path?: string;
  maxCommands?: number;
  maxShrinkRuns?: number;
  timeoutMs?: number;
  log?: (line: string) => void;
  isAborted?: () => boolean;
}

/** The calls of one operation: how many pairs of answers were identical and how many differed. */
export interface ParityRow {
  operation: string;
  calls: number;
  identical: number;
  differing: number;
}

/** One request of a sequence, as each server answered it (a side is absent when it sent fewer requests). */
export interface DriftStep {
  target?: Exchange;
  reference?: Exchange;
}

/** The shortest sequence found that shows an operation differ. */
export interface DriftFinding {
  operation: string;
  /** 1-based position of the differing request in `steps`. */
  index: number;
  differences: Difference[];
  steps: DriftStep[];
  /** The commands, as fast-check prints them. */
  commands: string;
  seed: number;
  path: string;
  /** An operation reported before that differed earlier in this sequence: this difference may follow from it. */
  after?: string;
}

export interface DriftReport {
  target: string;
  reference: string;
  profile: Profile;
  seed: number;
  runs: number;
  path?: string;
  startedAt: string;
  durationMs: number;
  /** Every operation called, in the order first called. */
  parity: ParityRow[];
  /** One per differing operation, the first found first. */
  findings: DriftFinding[];
  cleanupProblems: string[];
  /** The document the operations are named by (reports locate them in it). */
  document: ApiDocument;
}

const DEFAULT_RUNS = 25;
/** How many times the search restarts after a difference (each mutes its operation). */
const MAX_ROUNDS = 5;

/** A pair of answers that differ, thrown to fail (and shrink) the sequence. */
class DriftDifference extends Error {
  commands = '';
  constructor(
    readonly operation: string,
    readonly index: number,
    readonly differences: Difference[],
    readonly steps: DriftStep[],
    readonly after: string | undefined,
  ) {
    super(`${operation} differs: ${differences.map((d) => `${d.where}: target ${d.target}, reference ${d.reference}`).join('; ')}`);
    this.name = 'DriftDifference';
  }
}

interface Side {
  label: string;
  ctx: RunContext;
  cleanupClient: HttpClient;
}

/** Probes one server and makes its run context; its names start with a prefix of its own. */
async function prepareSide(server: DriftServer, role: 'target' | 'reference', opts: DriftOptions, document: ApiDocument, restricted: boolean): Promise<Side> {
  const profile = opts.profile ?? 'contract';
  const common = { baseUrl: server.baseUrl, token: server.token, timeoutMs: opts.timeoutMs, fetch: server.fetch };
  const client = new HttpClient({ ...common, restrictedToken: restricted ? server.restrictedToken : undefined, isAborted: opts.isAborted });
  const named = (e: unknown) =>
    e instanceof TargetError && role === 'reference' ? new TargetError(e.message.replace(/\bthe target\b/g, 'the reference').replace(/--target\b/g, '--reference')) : e;
  try {
    await probeTarget(client);
    const [available, user] = await Promise.all([probeKinds(client), resolveUser(client)]);
    return {
      label: server.label ?? client.baseUrl,
      cleanupClient: new HttpClient(common),
      ctx: {
        client,
        profile,
        exp: expectationsFor(profile),
        runPrefix: `ck_${randomBytes(4).toString('hex')}`,
        userId: user.id,
        userName: user.name,
        startedAt: Date.now(),
        document,
        lastUpdatedAt: new Map(),
        resolvedHrefs: new Map(),
        available,
        tally: new Tally(),
        cleanup: new CleanupRegistry(),
      },
    };
  } catch (e) {
    if (e instanceof TransportError) throw named(new TargetError(`the target stopped answering right after the first request: ${e.message}`));
    throw named(e);
  }
}

/** The operation a request addresses, by the document. */
function operationOf(document: ApiDocument, side: Side, ex: Exchange): string {
  const base = side.ctx.client.baseUrl;
  const url = ex.url.startsWith(base) ? ex.url.slice(base.length) : new URL(ex.url).pathname;
  const path = url.split('?')[0]!;
  return document.match(ex.method, path)?.key ?? `${ex.method} ${path} (undocumented)`;
}

type Cmd = fc.AsyncCommand<Model, Session>;

export async function runDrift(opts: DriftOptions): Promise<DriftReport> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const profile = opts.profile ?? 'contract';
  const runs = opts.runs ?? DEFAULT_RUNS;
  const seed = opts.seed ?? randomBytes(4).readUInt32BE(0) & 0x7fffffff;
  const document = await loadDocument(profile);
  // The restricted user's commands run on both servers or on neither.
  const restricted = Boolean(opts.target.restrictedToken && opts.reference.restrictedToken);
  const [target, reference] = await Promise.all([
    prepareSide(opts.target, 'target', opts, document, restricted),
    prepareSide(opts.reference, 'reference', opts, document, restricted),
  ]);
  // Both servers are driven through the kinds the reference serves: one the target lacks shows as drift.
  target.ctx.available = reference.ctx.available;
  const free = new Set(DRIFT_FREE_FIELDS[profile]);
  log(`target ${target.label} (${target.ctx.runPrefix}), reference ${reference.label} (${reference.ctx.runPrefix}), profile ${profile}, seed ${seed}`);

  let parity = new Map<string, ParityRow>();
  const findings: DriftFinding[] = [];
  const muted = new Set<string>();
  const replay = splitReplayPath(opts.path);
  let cleanupProblems: string[] = [];
  const removeAll = async () => (await Promise.all([target, reference].map((s) => s.ctx.cleanup.remove(s.cleanupClient).catch((e: Error) => [e.message])))).flat();

  /** Runs one sequence on both servers in lock-step; throws a DriftDifference at the first pair that differs on an operation not muted. */
  async function lockStep(cmds: Iterable<Cmd>, name: string, counting: boolean): Promise<void> {
    const sides = [target, reference] as const;
    const models = sides.map((s) => new Model(`${s.ctx.runPrefix}${name}`));
    const sessions = sides.map((s) => new Session(s.ctx, new Set(RULE_IDS), false));
    const norms = sides.map((s) => new Normaliser({ baseUrl: s.ctx.client.baseUrl, runPrefix: s.ctx.runPrefix, userName: s.ctx.userName }, free));
    const steps: DriftStep[] = [];
    let mutedSeen: string | undefined;
    try {
      for (const cmd of cmds) {
        if (!cmd.check(models[1]!)) continue;
        const settled = await Promise.allSettled([cmd.run(models[0]!, sessions[0]!), cmd.run(models[1]!, sessions[1]!)]);
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
        const [t, r] = [sessions[0]!.trace, sessions[1]!.trace];
        while (steps.length < Math.max(t.length, r.length)) {
          const i = steps.length;
          const step: DriftStep = { target: t[i], reference: r[i] };
          steps.push(step);
          const operation = step.reference ? operationOf(document, reference, step.reference) : operationOf(document, target, step.target!);
          const differences =
            step.target && step.reference
              ? compareExchanges(step.target, norms[0]!.exchange(step.target), step.reference, norms[1]!.exchange(step.reference))
              : [
                  {
                    where: 'request',
                    target: step.target ? `${step.target.method} ${step.target.url}` : '(none: the target side sent fewer requests)',
                    reference: step.reference ? `${step.reference.method} ${step.reference.url}` : '(none: the reference side sent fewer requests)',
                  },
                ];
          if (counting) {
            const row = parity.get(operation) ?? { operation, calls: 0, identical: 0, differing: 0 };
            row.calls += 1;
            if (differences.length === 0) row.identical += 1;
            else row.differing += 1;
            parity.set(operation, row);
          }
          if (differences.length === 0) continue;
          if (muted.has(operation)) {
            mutedSeen ??= operation;
            continue;
          }
          throw new DriftDifference(operation, steps.length, differences, [...steps], mutedSeen);
        }
      }
    } finally {
      await Promise.all(sessions.map((s) => s.cleanup().catch(() => [])));
    }
  }

  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      parity = new Map();
      let executed = 0;
      let failing = false;
      let shrinkRuns = 0;
      let fatal: unknown;
      const arb = fc.commands(commandArbitraries(), { maxCommands: opts.maxCommands ?? 25, size: 'max', replayPath: replay.replayPath });
      const property = fc.asyncProperty(arb, async (cmds) => {
        if (fatal !== undefined) throw fatal;
        if (failing && ++shrinkRuns > (opts.maxShrinkRuns ?? 300)) return;
        executed += 1;
        if (!failing && executed % 5 === 0) log(`sequences: ${executed}/${runs}`);
        try {
          await lockStep(cmds, `r${round}n${executed}`, !failing);
        } catch (err) {
          if (err instanceof DriftDifference) {
            err.commands = String(cmds).replace(/\s*\/\*replayPath=.*\*\/\s*$/, '');
            if (!failing) log(`sequences: ${err.operation} differs; shrinking the sequence…`);
            failing = true;
          } else if (err instanceof TransportError || err instanceof AbortedError) fatal = err;
          throw err;
        }
      });
      const details = await fc.check(property, { seed, numRuns: runs, path: replay.path });
      if (fatal !== undefined) throw fatal;
      if (!details.failed) {
        log(`sequences: ${runs} run${findings.length > 0 ? ' (operations found differing are not failed again)' : ''}`);
        break;
      }
      const err = details.errorInstance;
      if (!(err instanceof DriftDifference)) throw err instanceof Error ? err : new Error(String(err));
      const shown = String(details.counterexample?.[0] ?? '');
      findings.push({
        operation: err.operation,
        index: err.index,
        differences: err.differences,
        steps: err.steps,
        commands: err.commands || shown.replace(/\s*\/\*replayPath=.*\*\/\s*$/, ''),
        seed,
        path: joinReplayPath(details.counterexamplePath ?? '', /replayPath="([^"]+)"/.exec(shown)?.[1]),
        ...(err.after ? { after: err.after } : {}),
      });
      log(`sequences: ${err.operation} differs, shown by a ${err.index}-request sequence (after ${details.numShrinks} shrinks)`);
      muted.add(err.operation);
      if (opts.path !== undefined) break;
    }
  } catch (err) {
    cleanupProblems = await removeAll();
    if (err instanceof TransportError) throw new TargetError(`a server stopped answering during the run: ${err.message}`);
    throw err;
  }
  cleanupProblems = await removeAll();
  return {
    target: target.label,
    reference: reference.label,
    profile,
    seed,
    runs,
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    parity: [...parity.values()],
    findings,
    cleanupProblems,
    document,
  };
}
