/** The human report: per-rule table, then every failure with its requests as curl and how to replay it. */
import type { Failure } from '../checker.ts';
import { responseSummary, shellQuote, toCurl } from '../curl.ts';
import { describeSource } from '../rules.ts';
import type { ConformanceReport, RuleResult } from './model.ts';

/** Requests printed per failure (the JSON report has all of them). */
const MAX_STEPS = 25;

const STATUS_TEXT: Record<RuleResult['status'], string> = { pass: 'pass', fail: 'FAIL', 'not-exercised': 'not exercised' };

function ruleTable(report: ConformanceReport): string {
  const idWidth = Math.max(4, ...report.rules.map((r) => r.id.length));
  const lines = [`${'rule'.padEnd(idWidth)}  ${'result'.padEnd(13)}  ${'checks'.padStart(6)}  source`];
  for (const r of report.rules) {
    const source = r.source.kind === 'contract' ? 'contract' : 'OpenMetadata';
    lines.push(`${r.id.padEnd(idWidth)}  ${STATUS_TEXT[r.status].padEnd(13)}  ${String(r.checks).padStart(6)}  ${source}${r.note ? `  (${r.note})` : ''}`);
  }
  return lines.join('\n');
}

export function replayCommand(report: ConformanceReport, f: Failure): string {
  const base = `catalog-kit conform --target ${shellQuote(report.target)} --token "$CK_TOKEN" --profile ${report.profile} --rules ${f.ruleId}`;
  if (f.origin.kind === 'random') return `${base} --seed ${f.origin.seed} --path ${shellQuote(f.origin.path)}`;
  return base;
}

export function failureText(report: ConformanceReport, rule: RuleResult, f: Failure, index: number): string {
  const out: string[] = [];
  out.push(`${index}) ${rule.id}: ${rule.name}`);
  out.push(`   source:   ${describeSource(rule.source)}`);
  out.push(`   expected: ${f.expected}`);
  out.push(`   actual:   ${f.actual}`);
  if (f.origin.kind === 'random') {
    out.push(`   found by: a random sequence, seed ${f.origin.seed}, path ${f.origin.path}`);
    out.push(`   minimal sequence: ${f.origin.commands}`);
  } else {
    out.push(`   found by: the deterministic scenario "${f.origin.scenario}"`);
  }
  const steps = f.steps.slice(-MAX_STEPS);
  const omitted = f.steps.length - steps.length;
  out.push(
    `   requests (ids are this run's; export CK_TOKEN${f.steps.some((s) => s.authLabel === 'restricted') ? ' and CK_RESTRICTED_TOKEN' : ''} first)${omitted > 0 ? `, last ${steps.length} of ${f.steps.length}` : ''}:`,
  );
  steps.forEach((ex, i) => {
    const marker = ex === f.exchange || (f.exchange && ex.seq === f.exchange.seq) ? '   <-- here' : '';
    out.push(`   ${String(omitted + i + 1).padStart(3)}. ${toCurl(ex)}`);
    out.push(`        -> ${responseSummary(ex)}${marker}`);
  });
  out.push(`   replay:   ${replayCommand(report, f)}`);
  return out.join('\n');
}

export function consoleReport(report: ConformanceReport): string {
  const parts: string[] = ['', ruleTable(report)];
  const failing = report.rules.filter((r) => r.status === 'fail');
  if (failing.length > 0) {
    parts.push('', 'FAILURES', '');
    let n = 0;
    for (const rule of failing) for (const f of rule.failures) parts.push(failureText(report, rule, f, ++n), '');
  }
  if (report.cleanupProblems.length > 0) {
    // The first few are enough to see why; a target failing every DELETE would print hundreds.
    const shown = report.cleanupProblems.slice(0, 5).join('; ');
    const more = report.cleanupProblems.length > 5 ? `; … and ${report.cleanupProblems.length - 5} more (all in --json)` : '';
    parts.push(`cleanup: could not remove ${report.cleanupProblems.length} root(s): ${shown}${more}`);
  }
  parts.push(
    '',
    `target ${report.target}, profile ${report.profile}, seed ${report.seed}, ${report.runs} random sequence(s), ${(report.durationMs / 1000).toFixed(1)} s`,
    `${report.rules.length} rule(s): ${report.passed} passed, ${report.failed} failed, ${report.notExercised} not exercised`,
    `${report.passed} passed, ${report.failed} failed`,
  );
  return `${parts.join('\n')}\n`;
}
