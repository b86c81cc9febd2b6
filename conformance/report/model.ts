/** The structured report of a run: one entry per selected rule, in catalogue order. */
import type { Failure, Tally } from '../checker.ts';
import { coverageSummary, type CoverageSummary } from '../coverage.ts';
import type { ApiDocument } from '../document.ts';
import type { Profile, ProfileExpectations } from '../profiles.ts';
import { RULES, type RuleSource } from '../rules.ts';

type RuleStatus = 'pass' | 'fail' | 'not-exercised';

export interface RuleResult {
  id: string;
  name: string;
  source: RuleSource;
  status: RuleStatus;
  /** Passing checks recorded for the rule. */
  checks: number;
  failures: Failure[];
  /** Why the rule was not exercised, when known. */
  note?: string;
}

export interface ConformanceReport {
  target: string;
  profile: Profile;
  seed: number;
  runs: number;
  path?: string;
  startedAt: string;
  durationMs: number;
  rules: RuleResult[];
  passed: number;
  failed: number;
  notExercised: number;
  /** Roots the run could not remove. */
  cleanupProblems: string[];
  /** Which documented operations the run exercised and which rules checked them. */
  coverage: CoverageSummary;
}

export interface ReportInput {
  target: string;
  profile: Profile;
  seed: number;
  runs: number;
  path?: string;
  selected: readonly string[];
  tally: Tally;
  startedAt: string;
  durationMs: number;
  cleanupProblems: string[];
  document: ApiDocument;
  exp: ProfileExpectations;
  /** `--min-coverage`: the least percentage of the interface's operations a run must check. */
  minCoverage?: number;
}

export function buildReport(input: ReportInput): ConformanceReport {
  const selected = new Set(input.selected);
  const rules: RuleResult[] = RULES.filter((r) => selected.has(r.id)).map((r) => {
    const failures = input.tally.failures.get(r.id) ?? [];
    const checks = input.tally.passes.get(r.id) ?? 0;
    const status: RuleStatus = failures.length > 0 ? 'fail' : checks > 0 ? 'pass' : 'not-exercised';
    const note = status === 'not-exercised' ? input.tally.notes.get(r.id) : undefined;
    return { id: r.id, name: r.name, source: r.source, status, checks, failures, ...(note ? { note } : {}) };
  });
  return {
    target: input.target,
    profile: input.profile,
    seed: input.seed,
    runs: input.runs,
    ...(input.path !== undefined ? { path: input.path } : {}),
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    rules,
    passed: rules.filter((r) => r.status === 'pass').length,
    failed: rules.filter((r) => r.status === 'fail').length,
    notExercised: rules.filter((r) => r.status === 'not-exercised').length,
    cleanupProblems: input.cleanupProblems,
    coverage: coverageSummary(input.tally, input.document, input.exp, input.minCoverage),
  };
}
