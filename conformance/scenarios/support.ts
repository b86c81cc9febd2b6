/**
 * Deterministic scenarios: fixed request sequences for rules random sequences rarely reach
 * (concurrency, time series, table sub-resources) and a walk through every lifecycle rule,
 * so every default run exercises every rule whatever the seed.
 */
import type { Exchange } from '../http.ts';
import { asObject } from '../http.ts';
import type { Model } from '../model.ts';
import type { Session } from '../session.ts';

export interface Scenario {
  name: string;
  /** Rules this scenario checks. */
  rules: readonly string[];
  run(s: Session, m: Model): Promise<void>;
}

/** A request a scenario needs but no rule of its own covers failed: its rules are not exercised. */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

/** Requires a setup step to answer one of `statuses`; returns the JSON body. */
export function setupOk(ex: Exchange, statuses: readonly number[], what: string): Record<string, unknown> {
  if (!statuses.includes(ex.status)) {
    throw new SetupError(`${what}: ${ex.method} ${ex.url} answered ${ex.status} ${ex.responseText.slice(0, 200)}`);
  }
  return asObject(ex.json) ?? {};
}
