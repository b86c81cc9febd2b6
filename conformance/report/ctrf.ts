/**
 * CTRF (`--ctrf FILE`), the Common Test Report Format test dashboards read: one test per rule
 * (`conform`) or per operation called (`drift`), passed, failed or skipped.
 */
import { describeSource, ruleGroup } from '../rules.ts';
import { failureText } from './console.ts';
import type { ConformanceReport } from './model.ts';

export interface CtrfTest {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  suite: string[];
  message?: string;
  trace?: string;
}

export function ctrfDocument(tool: string, startedAt: string, durationMs: number, tests: readonly CtrfTest[], extra: Record<string, unknown>): string {
  const start = Date.parse(startedAt);
  const count = (status: CtrfTest['status']) => tests.filter((t) => t.status === status).length;
  const doc = {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    timestamp: new Date(start + durationMs).toISOString(),
    generatedBy: tool,
    results: {
      tool: { name: tool },
      summary: { tests: tests.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), pending: 0, other: 0, start, stop: start + durationMs },
      // Rules are checked all through the run, not one after another: no test has a duration of its own.
      tests: tests.map((t) => ({ ...t, duration: 0 })),
      extra,
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** `conform --ctrf`: one test per selected rule. */
export function conformCtrf(report: ConformanceReport): string {
  let n = 0;
  const tests: CtrfTest[] = report.rules.map((rule) => {
    const base = { name: `${rule.id}: ${rule.name}`, suite: ['conformance', ruleGroup(rule.id)] };
    if (rule.status === 'pass') return { ...base, status: 'passed' };
    if (rule.status === 'not-exercised') return { ...base, status: 'skipped', message: rule.note ?? 'not exercised' };
    const f = rule.failures[0]!;
    return {
      ...base,
      status: 'failed',
      message: `expected ${f.expected}; got ${f.actual}`,
      trace: `${rule.failures.map((x) => failureText(report, rule, x, ++n)).join('\n\n')}\n${describeSource(rule.source)}`,
    };
  });
  return ctrfDocument('catalog-kit conform', report.startedAt, report.durationMs, tests, {
    target: report.target,
    profile: report.profile,
    seed: report.seed,
    runs: report.runs,
    coverage: { interface: report.coverage.interface.percent },
  });
}
