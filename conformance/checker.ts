/**
 * Rule bookkeeping: every check is attributed to one rule. A passing check marks the rule
 * exercised; a failing check of an active rule throws a RuleViolation (which fast-check shrinks);
 * checks of inactive (muted or deselected) rules are skipped and report `false` to the caller so
 * that the command can stop without guessing.
 */
import type { Exchange } from './http.ts';

export class RuleViolation extends Error {
  /** The command sequence that ran, as fast-check prints it (set by the random phase). */
  commands?: string;

  constructor(
    readonly ruleId: string,
    readonly expected: string,
    readonly actual: string,
    readonly exchange: Exchange | undefined,
    readonly steps: readonly Exchange[],
    /** A rule that failed before and was broken again earlier in this sequence: this failure may follow from it. */
    readonly after?: string,
  ) {
    super(`${ruleId}: expected ${expected}; got ${actual}`);
    this.name = 'RuleViolation';
  }

  /** The failure to report, found where `origin` says. */
  toFailure(origin: FailureOrigin): Failure {
    return { ruleId: this.ruleId, expected: this.expected, actual: this.actual, exchange: this.exchange, steps: this.steps, origin, ...(this.after ? { after: this.after } : {}) };
  }
}

/** Where a failure was found and how to replay it. */
export type FailureOrigin = { kind: 'random'; seed: number; path: string; commands: string; mutedRules: readonly string[] } | { kind: 'scenario'; scenario: string };

export interface Failure {
  ruleId: string;
  expected: string;
  actual: string;
  /** The exchange that showed the violation (also the last of `steps`, usually). */
  exchange?: Exchange;
  /** Every request of the (minimal) failing sequence, in order. */
  steps: readonly Exchange[];
  origin: FailureOrigin;
  /**
   * A rule that had already failed (so was not judged again) and was broken earlier in this same
   * sequence: the suite's model may have taken that faulty answer as the truth, so this failure may
   * be its consequence rather than a fault of its own.
   */
  after?: string;
}

/** What the run did with one operation: its answers by status, and the rules that checked one. */
export interface OperationUse {
  /** Whether the document has the operation (an undocumented request is counted too). */
  documented: boolean;
  statuses: Map<number, number>;
  /** Rule id → passing checks that named a response of the operation. */
  checkedBy: Map<string, number>;
}

/** Per-rule counters shared by the whole run, and the use of each documented operation. */
export class Tally {
  readonly passes = new Map<string, number>();
  readonly failures = new Map<string, Failure[]>();
  /** Why a rule could not be exercised (e.g. "no --restricted-token"). */
  readonly notes = new Map<string, string>();
  /** Operation key (`GET /v1/containers/{id}`) → its use. */
  readonly operations = new Map<string, OperationUse>();

  /**
   * @param everyResponse rules checked on every response whatever it is (the document's): they do
   * not count as having checked an operation in the coverage report.
   */
  constructor(private readonly everyResponse: ReadonlySet<string> = new Set()) {}

  pass(ruleId: string, ex?: Exchange): void {
    this.passes.set(ruleId, (this.passes.get(ruleId) ?? 0) + 1);
    if (ex?.operation && !this.everyResponse.has(ruleId)) {
      const use = this.operations.get(ex.operation);
      if (use) use.checkedBy.set(ruleId, (use.checkedBy.get(ruleId) ?? 0) + 1);
    }
  }

  /** A response of an operation (or of a request no operation documents) came back. */
  exercise(key: string, status: number, documented: boolean): void {
    let use = this.operations.get(key);
    if (!use) {
      use = { documented, statuses: new Map(), checkedBy: new Map() };
      this.operations.set(key, use);
    }
    use.statuses.set(status, (use.statuses.get(status) ?? 0) + 1);
  }

  fail(failure: Failure): void {
    const list = this.failures.get(failure.ruleId) ?? [];
    list.push(failure);
    this.failures.set(failure.ruleId, list);
  }

  note(ruleId: string, text: string): void {
    if (!this.notes.has(ruleId)) this.notes.set(ruleId, text);
  }

  hasFailed(ruleId: string): boolean {
    return (this.failures.get(ruleId)?.length ?? 0) > 0;
  }
}

export class Checker {
  /** The first rule that had already failed and was broken again in this sequence (not judged again). */
  private brokenBefore: string | undefined;

  constructor(
    private readonly active: ReadonlySet<string>,
    private readonly tally: Tally,
    /** The exchanges of the current sequence, captured into violations. */
    private readonly trace: readonly Exchange[],
    /**
     * Every rule's requests are made and nothing is judged (`catalog-kit drift`, which compares
     * two servers' answers instead): each check returns its outcome, records nothing, throws nothing.
     */
    private readonly judging = true,
  ) {}

  isActive(ruleId: string): boolean {
    return !this.judging || this.active.has(ruleId);
  }

  /**
   * Checks `ok` for `ruleId`. Returns `ok` when the rule is inactive (nothing recorded);
   * records a pass, or throws a RuleViolation, when it is active. `expected` may be given as a
   * function: a message only a failure prints is then not built for every passing check.
   */
  check(ruleId: string, ok: boolean, expected: string | (() => string), actual: () => string, ex?: Exchange): boolean {
    if (!this.judging) return ok;
    if (!this.active.has(ruleId)) {
      if (!ok && this.tally.hasFailed(ruleId)) this.brokenBefore ??= ruleId;
      return ok;
    }
    if (ok) {
      this.tally.pass(ruleId, ex);
      return true;
    }
    throw new RuleViolation(ruleId, typeof expected === 'string' ? expected : expected(), actual(), ex, [...this.trace], this.brokenBefore);
  }

  /** Checks the status of an exchange. */
  status(ruleId: string, ex: Exchange, allowed: readonly number[], what: string): boolean {
    return this.check(
      ruleId,
      allowed.includes(ex.status),
      () => `${what}: status ${allowed.join(' or ')}`,
      () => `${ex.status} ${truncate(ex.responseText)}`,
      ex,
    );
  }

  note(ruleId: string, text: string): void {
    if (this.judging) this.tally.note(ruleId, text);
  }
}

function truncate(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || '(no body)';
}
