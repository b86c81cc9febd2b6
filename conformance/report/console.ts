/** The human report: per-rule table, then every failure with its requests as curl and how to replay it. */
import type { Failure } from '../checker.ts';
import { responseSummary, shellQuote, toCurl } from '../curl.ts';
import { describeSource, RULES, ruleGroup } from '../rules.ts';
import type { ConformanceReport, RuleResult } from './model.ts';

/** Requests printed per failure (the JSON report has all of them). */
const MAX_STEPS = 25;
/** Operations listed as not covered (the JSON report has all of them). */
const MAX_LISTED = 12;

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
  const requests =
    c.operations.reduce((n, op) => n + Object.values(op.statuses).reduce((a, b) => a + b, 0), 0) +
    c.undocumented.reduce((n, u) => n + Object.values(u.statuses).reduce((a, b) => a + b, 0), 0);
  lines.push(`  requests checked: ${requests} (${c.operations.length + c.undocumented.length} distinct operations)`);
  const exercised = report.rules.filter((r) => r.checks > 0);
  lines.push(`  rules: ${exercised.length} of ${report.rules.length} exercised, ${exercised.reduce((n, r) => n + r.checks, 0)} passing checks (per rule: the checks column above)`);
  return lines.join('\n');
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
