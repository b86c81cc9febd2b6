/**
 * The model-based phase: fc.commands + fc.asyncModelRun, each sequence in its own uniquely named
 * services, removed after the sequence. A failure is shrunk to a minimal sequence, recorded with
 * seed and path, and its rule muted; the phase then runs again to look for other failing rules.
 */
import fc from 'fast-check';
import { RuleViolation } from './checker.ts';
import { commandArbitraries, RANDOM_RULES } from './commands/index.ts';
import { AbortedError, TransportError } from './http.ts';
import { Model } from './model.ts';
import { Session, type RunContext } from './session.ts';

export interface RandomOptions {
  seed: number;
  runs: number;
  path?: string;
  maxCommands: number;
  maxShrinkRuns: number;
  log: (line: string) => void;
}

/** How many times the phase restarts after a failure (each failure mutes its rule). */
const MAX_ROUNDS = 6;

/** `--path` carries fast-check's counterexample path and the commands' replayPath: `<path>~<replayPath>`. */
export function splitReplayPath(path: string | undefined): { path?: string; replayPath?: string } {
  if (path === undefined) return {};
  const i = path.indexOf('~');
  return i < 0 ? { path } : { path: path.slice(0, i), replayPath: path.slice(i + 1) };
}

export function joinReplayPath(path: string, replayPath: string | undefined): string {
  return replayPath ? `${path}~${replayPath}` : path;
}

/** Runs the phase; returns the seed used. */
export async function randomPhase(ctx: RunContext, active: ReadonlySet<string>, opts: RandomOptions): Promise<number> {
  const { log } = opts;
  const muted = new Set([...active].filter((r) => ctx.tally.hasFailed(r)));
  const replay = splitReplayPath(opts.path);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const live = new Set([...active].filter((r) => !muted.has(r)));
    if (![...live].some((r) => RANDOM_RULES.has(r))) break;
    let executed = 0;
    let shrinkRuns = 0;
    let failing: string | undefined;
    let fatal: unknown;
    const arb = fc.commands(commandArbitraries(), { maxCommands: opts.maxCommands, size: 'max', replayPath: replay.replayPath });
    const property = fc.asyncProperty(arb, async (cmds) => {
      if (fatal !== undefined) throw fatal;
      if (failing !== undefined && ++shrinkRuns > opts.maxShrinkRuns) return;
      executed += 1;
      if (failing === undefined && executed % 5 === 0) log(`random sequences: ${executed}/${opts.runs}`);
      const model = new Model(`${ctx.runPrefix}r${round}n${executed}`);
      const session = new Session(ctx, live);
      try {
        await fc.asyncModelRun(() => ({ model, real: session }), cmds);
      } catch (err) {
        if (err instanceof RuleViolation) {
          // Printed now: after shrinking, the commands would describe the last attempt, not this run.
          err.commands = String(cmds).replace(/\s*\/\*replayPath=.*\*\/\s*$/, '');
          if (failing === undefined) log(`random sequences: rule ${err.ruleId} FAILED; shrinking the sequence…`);
          failing = err.ruleId;
        } else if (err instanceof TransportError || err instanceof AbortedError) {
          fatal = err;
        }
        throw err;
      } finally {
        if (!(fatal instanceof AbortedError)) await session.cleanup().catch(() => []);
      }
    });
    const details = await fc.check(property, {
      seed: opts.seed,
      numRuns: opts.runs,
      path: replay.path,
    });
    if (fatal !== undefined) throw fatal;
    if (!details.failed) {
      log(`random sequences: ${opts.runs} passed${round > 0 ? ` (rules failed so far are not checked again)` : ''}`);
      break;
    }
    const err = details.errorInstance;
    if (!(err instanceof RuleViolation)) throw err instanceof Error ? err : new Error(String(err));
    const shown = String(details.counterexample?.[0] ?? '');
    const replayPath = /replayPath="([^"]+)"/.exec(shown)?.[1];
    ctx.tally.fail(
      err.toFailure({
        kind: 'random',
        seed: details.seed,
        path: joinReplayPath(details.counterexamplePath ?? '', replayPath),
        commands: err.commands ?? shown.replace(/\s*\/\*replayPath=.*\*\/\s*$/, ''),
        mutedRules: [...muted],
      }),
    );
    log(`random sequences: rule ${err.ruleId} failed with a ${err.steps.length}-request sequence (after ${details.numShrinks} shrinks)`);
    muted.add(err.ruleId);
    if (opts.path !== undefined) break;
  }
  return opts.seed;
}
