/** The human report: per-rule table, then every failure with its requests as curl and how to replay it. */
import type { Failure } from '../checker.ts';
import { firstNeeded } from './needed.ts';
import { responseSummary, shellQuote, toCurl } from '../curl.ts';
import { describeSource, RULES, ruleGroup } from '../rules.ts';
import type { ConformanceReport, RuleResult } from './model.ts';

/** Operations listed as not covered (the JSON report has all of them). */
const MAX_LISTED = 12;

const STATUS_TEXT: Record<RuleResult['status'], string> = { pass: 'pass', fail: 'FAIL', 'not-exercised': 'not exercised' };

function ruleTable(report: ConformanceReport): string {
  const idWidth = Math.max(4, ...report.rules.map((r) => r.id.length));
  const lines = [`${'rule'.padEnd(idWidth)}  ${'result'.padEnd(13)}  ${'checks'.padStart(6)}  source`];
  for (const r of report.rules) {
    const source = r.source.kind === 'contract' ? 'contract' : 'OpenMetadata';
    const after = followsFrom(r);
    const note = r.note ?? (after ? `may follow from ${after}` : undefined);
    lines.push(`${r.id.padEnd(idWidth)}  ${STATUS_TEXT[r.status].padEnd(13)}  ${String(r.checks).padStart(6)}  ${source}${note ? `  (${note})` : ''}`);
  }
  return lines.join('\n');
}

export function replayCommand(report: ConformanceReport, f: Failure): string {
  const base = `catalog-kit conform --target ${shellQuote(report.target)} --token "$CK_TOKEN" --profile ${report.profile} --rules ${f.ruleId}`;
  if (f.origin.kind === 'random') return `${base} --seed ${f.origin.seed} --path ${shellQuote(f.origin.path)}`;
  return base;
}

/** The rule every failure of a failed rule may follow from (broken before it in its sequence), if all have one. */
export function followsFrom(rule: RuleResult): string | undefined {
  const first = rule.failures[0]?.after;
  return first && rule.failures.every((f) => f.after !== undefined) ? first : undefined;
}

/** The requests a failure prints: every one from the first it needs (report/needed.ts) to the last. */
export function failureSteps(f: Failure): { from: number; steps: Failure['steps'] } {
  const from = firstNeeded(f.steps, f.exchange);
  return { from, steps: f.steps.slice(from) };
}

export function failureText(report: ConformanceReport, rule: RuleResult, f: Failure, index: number): string {
  const out: string[] = [];
  out.push(`${index}) ${rule.id}: ${rule.name}${f.after ? '' : ' (the first rule broken in its sequence)'}`);
  if (f.after) out.push(`   follows:  ${f.after} failed before and was broken earlier in this sequence: this failure may be its consequence`);
  out.push(`   source:   ${describeSource(rule.source)}`);
  out.push(`   expected: ${f.expected}`);
  out.push(`   actual:   ${f.actual}`);
  if (f.origin.kind === 'random') {
    out.push(`   found by: a random sequence, seed ${f.origin.seed}, path ${f.origin.path}`);
    out.push(`   minimal sequence: ${f.origin.commands}`);
  } else {
    out.push(`   found by: the deterministic scenario "${f.origin.scenario}"`);
  }
  const { from, steps } = failureSteps(f);
  out.push(
    `   requests, every one from the first this failure needs (ids are this run's; export CK_TOKEN${steps.some((s) => s.authLabel === 'restricted') ? ' and CK_RESTRICTED_TOKEN' : ''} first)${from > 0 ? `; the ${from} before it set up nothing it touches` : ''}:`,
  );
  steps.forEach((ex, i) => {
    const marker = ex === f.exchange || (f.exchange && ex.seq === f.exchange.seq) ? '   <-- here' : '';
    out.push(`   ${String(i + 1).padStart(3)}. ${toCurl(ex)}`);
    out.push(`        -> ${responseSummary(ex)}${marker}`);
  });
  out.push(`   replay:   ${replayCommand(report, f)}`);
  return out.join('\n');
}

/** Every failure, those of the first rule broken in their sequence first, then the ones that may follow from another. */
export function orderedFailures(report: ConformanceReport): { rule: RuleResult; f: Failure }[] {
  const all = report.rules.flatMap((rule) => rule.failures.map((f) => ({ rule, f })));
  return [...all.filter((x) => !x.f.after), ...all.filter((x) => x.f.after)];
}

/**
 * The run's counts, consistent with each other: requests answered and the distinct operations they
 * went to (only those answered), and the rules exercised (passed or failed: a failed check exercised
 * its rule too).
 */
export function runCounts(report: ConformanceReport): { requests: number; distinct: number; exercisedRules: number; passingChecks: number } {
  const c = report.coverage;
  const answered = [...c.operations.map((op) => op.statuses), ...c.undocumented.map((u) => u.statuses)].map((statuses) => Object.values(statuses).reduce((a, b) => a + b, 0));
  return {
    requests: answered.reduce((a, b) => a + b, 0),
    distinct: answered.filter((n) => n > 0).length,
    exercisedRules: report.rules.filter((r) => r.status !== 'not-exercised').length,
    passingChecks: report.rules.reduce((n, r) => n + r.checks, 0),
  };
}

/** The first path segments that name a collection: `/v1/services/storageServices`, `/v1/containers`, `/v1/tables/{id}/sampleData`. */
function collectionOf(key: string): string {
  const path = key.slice(key.indexOf(' ') + 1);
  const parts = path.split('/');
  if (parts[2] === 'services') return parts.slice(0, 4).join('/');
  if (parts[2] === 'tables' && parts[4]) return `/v1/tables/{id}/${parts[4]}`;
  return parts.slice(0, 3).join('/');
}

const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

/** The coverage section: per collection of the interface's kinds, then the totals, then what is missing. */
export function coverageText(report: ConformanceReport): string {
  const c = report.coverage;
  const groups = new Map<string, { ops: number; checked: number; statuses: Record<string, number> }>();
  for (const op of c.operations) {
    if (!op.interface || op.notExpected) continue;
    const key = collectionOf(op.key);
    const g = groups.get(key) ?? { ops: 0, checked: 0, statuses: {} };
    g.ops += 1;
    if (Object.keys(op.checkedBy).length > 0) g.checked += 1;
    for (const [status, n] of Object.entries(op.statuses)) g.statuses[status] = (g.statuses[status] ?? 0) + n;
    groups.set(key, g);
  }
  const width = Math.max(10, ...[...groups.keys()].map((k) => k.length));
  const lines = [`coverage, by ${c.document}:`, `  ${'collection'.padEnd(width)}  checked  responses by status`];
  for (const [key, g] of groups) lines.push(`  ${key.padEnd(width)}  ${`${g.checked}/${g.ops}`.padStart(7)}  ${statusList(g.statuses)}`);
  lines.push(
    `  operations of the interface's kinds: ${c.interface.checked} of ${c.interface.operations} checked by a rule (${c.interface.percent.toFixed(1)}%), ${c.interface.exercised} exercised`,
    `  every operation of the document: ${c.all.exercised} of ${c.all.operations} exercised, ${c.all.checked} checked by a rule`,
  );
  if (c.minimum) lines.push(`  --min-coverage ${c.minimum.percent}%: ${c.minimum.met ? 'met' : 'NOT MET'}`);
  if (c.interface.missing.length > 0) {
    const more = c.interface.missing.length > MAX_LISTED ? `, … and ${c.interface.missing.length - MAX_LISTED} more (all in --json)` : '';
    lines.push(`  not covered: ${c.interface.missing.slice(0, MAX_LISTED).join(', ')}${more}`);
  }
  if (c.undocumented.length > 0) lines.push(`  requests no operation documents: ${c.undocumented.map((u) => `${u.request} (${statusList(u.statuses)})`).join(', ')}`);
  const { requests, distinct, exercisedRules, passingChecks } = runCounts(report);
  lines.push(`  requests checked: ${requests} (${distinct} distinct operations)`);
  lines.push(`  rules: ${exercisedRules} of ${report.rules.length} exercised (passed or failed), ${passingChecks} passing checks (per rule: the checks column above)`);
  return lines.join('\n');
}

export function consoleReport(report: ConformanceReport): string {
  const parts: string[] = ['', ruleTable(report)];
  const failing = report.rules.filter((r) => r.status === 'fail');
  if (failing.length > 0) {
    parts.push('', 'FAILURES (first the rules broken first in their sequence, then those that may follow from them)', '');
    let n = 0;
    for (const { rule, f } of orderedFailures(report)) parts.push(failureText(report, rule, f, ++n), '');
  }
  if (report.cleanupProblems.length > 0) {
    // The first few are enough to see why; a target failing every DELETE would print hundreds.
    const shown = report.cleanupProblems.slice(0, 5).join('; ');
    const more = report.cleanupProblems.length > 5 ? `; … and ${report.cleanupProblems.length - 5} more (all in --json)` : '';
    parts.push(`cleanup: could not remove ${report.cleanupProblems.length} root(s): ${shown}${more}`);
  }
  parts.push(
    '',
    coverageText(report),
    '',
    `target ${report.target}, profile ${report.profile}, seed ${report.seed}, ${report.runs} random sequence(s), ${(report.durationMs / 1000).toFixed(1)} s`,
    `${report.rules.length} rule(s): ${report.passed} passed, ${report.failed} failed, ${report.notExercised} not exercised`,
    `${report.passed} passed, ${report.failed} failed`,
  );
  return `${parts.join('\n')}\n`;
}

/** `conform --list-rules`: every rule, by group, with its source and what each profile expects. */
export function catalogueText(): string {
  const lines: string[] = [];
  let group = '';
  for (const rule of RULES) {
    if (ruleGroup(rule.id) !== group) {
      group = ruleGroup(rule.id);
      lines.push('', `${group}.*`);
    }
    lines.push(`  ${rule.id}`, `    ${rule.name}`, `    source: ${describeSource(rule.source)}`);
    for (const [profile, text] of Object.entries(rule.expect ?? {})) lines.push(`    profile ${profile}: ${text}`);
    if (rule.everyResponse) lines.push('    checked on every response the suite receives');
  }
  lines.push('', `${RULES.length} rules. Select some with --rules id,... (a group: --rules ${ruleGroup(RULES[0]!.id)}.*).`);
  return `${lines.join('\n').trimStart()}\n`;
}
