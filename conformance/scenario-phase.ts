/**
 * Runs the deterministic scenarios whose rules are selected, one after the other. A scenario stops
 * at the first failing check; it then runs again with the failed rules muted, so that one broken
 * rule does not leave the scenario's other rules unexercised.
 */
import { RuleViolation } from './checker.ts';
import { AbortedError } from './http.ts';
import { Model } from './model.ts';
import { RULES } from './rules.ts';
import { SCENARIOS, SetupError } from './scenarios/index.ts';
import { Session, type RunContext } from './session.ts';

const MAX_ATTEMPTS = 6;

/** Rules checked on every response: every scenario checks them. */
const EVERY_RESPONSE = RULES.filter((r) => r.everyResponse).map((r) => r.id);

export async function scenarioPhase(ctx: RunContext, active: ReadonlySet<string>, log: (line: string) => void): Promise<void> {
  for (const [i, scenario] of SCENARIOS.entries()) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // A rule that already failed is not checked again: one counterexample per rule is enough.
      const live = new Set([...active].filter((r) => !ctx.tally.hasFailed(r)));
      if (![...scenario.rules, ...EVERY_RESPONSE].some((r) => live.has(r))) break;
      const session = new Session(ctx, live);
      const model = new Model(`${ctx.runPrefix}s${i}${attempt > 0 ? `a${attempt}` : ''}`);
      let again = false;
      let aborted = false;
      try {
        await scenario.run(session, model);
        log(`scenario ${scenario.name}: ok (${session.trace.length} requests)`);
      } catch (err) {
        if (err instanceof RuleViolation) {
          ctx.tally.fail(err.toFailure({ kind: 'scenario', scenario: scenario.name }));
          log(`scenario ${scenario.name}: rule ${err.ruleId} FAILED`);
          again = true;
        } else if (err instanceof SetupError) {
          for (const r of scenario.rules) ctx.tally.note(r, `scenario ${scenario.name} could not set up: ${err.message}`);
          log(`scenario ${scenario.name}: setup failed: ${err.message}`);
        } else {
          aborted = err instanceof AbortedError;
          throw err;
        }
      } finally {
        if (!aborted) await session.cleanup().catch(() => []);
      }
      if (!again) break;
    }
  }
}
