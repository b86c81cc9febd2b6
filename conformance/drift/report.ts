/**
 * What `catalog-kit drift` reports, in each format: the parity of every operation (calls,
 * identical, differing), then per differing operation the shortest sequence found that shows it,
 * as curl commands for both servers with the two answers side by side. The last console line is
 * `N passed, N failed` (operations whose every pair matched, operations with a difference).
 */
import { responseSummary, shellQuote, toCurl } from '../curl.ts';
import { ctrfDocument, type CtrfTest } from '../report/ctrf.ts';
import { xmlEscape } from '../report/files.ts';
import { escapeHtml, exchangeHtml, htmlPage } from '../report/html.ts';
import { sarifLog } from '../report/sarif.ts';
import type { DriftFinding, DriftReport, DriftStep } from './run.ts';

const RULE_ID = 'drift.same-answers';
const RULE_TEXT =
  'The target answers every request of a generated sequence as the reference does (ids, ETags, versions and cursors mapped by position, timestamps by kind, message texts by presence)';

export const passedOperations = (r: DriftReport) => r.parity.filter((p) => p.differing === 0).length;
export const failedOperations = (r: DriftReport) => r.parity.filter((p) => p.differing > 0).length;

export function driftReplay(report: DriftReport, f: DriftFinding): string {
  const reference = /^https?:/.test(report.reference) ? ` --reference ${shellQuote(report.reference)} --reference-token "$CK_REFERENCE_TOKEN"` : '';
  return `catalog-kit drift --target ${shellQuote(report.target)} --token "$CK_TOKEN"${reference} --profile ${report.profile} --seed ${f.seed} --path ${shellQuote(f.path)}`;
}

function stepLines(step: DriftStep, n: number, marker: string): string[] {
  const pad = `${String(n).padStart(3)}. `;
  const out: string[] = [];
  out.push(`   ${pad}target:    ${step.target ? toCurl(step.target) : '(no request)'}`);
  out.push(`        reference: ${step.reference ? toCurl(step.reference) : '(no request)'}`);
  out.push(`        target    -> ${step.target ? responseSummary(step.target) : '-'}${marker}`);
  out.push(`        reference -> ${step.reference ? responseSummary(step.reference) : '-'}`);
  return out;
}

export function findingText(report: DriftReport, f: DriftFinding, index: number): string {
  const out = [`${index}) ${f.operation} answers differently${f.after ? ` (after ${f.after} differed earlier in the sequence: it may follow from that)` : ''}`];
  for (const d of f.differences) out.push(`   ${d.where}: target ${d.target}, reference ${d.reference}`);
  out.push(`   shortest sequence found: ${f.commands}`);
  out.push(`   requests, from the first (ids are this run's; export CK_TOKEN${/^https?:/.test(report.reference) ? ' and CK_REFERENCE_TOKEN' : ''} first):`);
  f.steps.forEach((step, i) => out.push(...stepLines(step, i + 1, i + 1 === f.index ? '   <-- differs' : '')));
  out.push(`   replay:   ${driftReplay(report, f)}`);
  return out.join('\n');
}

export function parityText(report: DriftReport): string {
  const width = Math.max(9, ...report.parity.map((p) => p.operation.length));
  const lines = [`${'operation'.padEnd(width)}  ${'calls'.padStart(5)}  ${'identical'.padStart(9)}  ${'differing'.padStart(9)}`];
  const rows = [...report.parity].sort((a, b) => b.differing - a.differing || a.operation.localeCompare(b.operation));
  for (const p of rows) lines.push(`${p.operation.padEnd(width)}  ${String(p.calls).padStart(5)}  ${String(p.identical).padStart(9)}  ${String(p.differing).padStart(9)}`);
  return lines.join('\n');
}

export function driftConsole(report: DriftReport): string {
  const parts = ['', parityText(report)];
  if (report.findings.length > 0) {
    parts.push('', 'DIFFERENCES', '');
    report.findings.forEach((f, i) => parts.push(findingText(report, f, i + 1), ''));
  }
  if (report.cleanupProblems.length > 0) parts.push(`cleanup: could not remove ${report.cleanupProblems.length} root(s): ${report.cleanupProblems.slice(0, 5).join('; ')}`);
  const calls = report.parity.reduce((n, p) => n + p.calls, 0);
  const identical = report.parity.reduce((n, p) => n + p.identical, 0);
  parts.push(
    '',
    `target ${report.target}, reference ${report.reference}, profile ${report.profile}, seed ${report.seed}, ${report.runs} sequence(s), ${(report.durationMs / 1000).toFixed(1)} s`,
    `${calls} pair(s) of answers compared: ${identical} identical, ${calls - identical} differing; ${report.parity.length} operation(s)`,
    `${passedOperations(report)} passed, ${failedOperations(report)} failed`,
  );
  return `${parts.join('\n')}\n`;
}

function stepJson(step: DriftStep) {
  const side = (ex: DriftStep['target']) =>
    ex && { curl: toCurl(ex), status: ex.status, response: ex.responseText.length > 2000 ? `${ex.responseText.slice(0, 2000)}…` : ex.responseText };
  return { target: side(step.target) ?? null, reference: side(step.reference) ?? null };
}

export function driftJson(report: DriftReport): string {
  const { document, ...rest } = report;
  return `${JSON.stringify(
    {
      ...rest,
      document: document.source,
      passed: passedOperations(report),
      failed: failedOperations(report),
      findings: report.findings.map((f) => ({ ...f, steps: f.steps.map(stepJson), replay: driftReplay(report, f) })),
    },
    null,
    2,
  )}\n`;
}

const findingOf = (report: DriftReport, operation: string) => report.findings.findIndex((f) => f.operation === operation);

/** A differing operation's message: its shortest sequence when one was found, else the count. */
function operationMessage(report: DriftReport, operation: string, differing: number, calls: number): { message: string; detail?: string } {
  const i = findingOf(report, operation);
  const f = report.findings[i];
  const message = f ? f.differences.map((d) => `${d.where}: target ${d.target}, reference ${d.reference}`).join('; ') : `${differing} of ${calls} answers differ`;
  return { message, ...(f ? { detail: findingText(report, f, i + 1) } : {}) };
}

export function driftJunit(report: DriftReport): string {
  const time = (report.durationMs / 1000).toFixed(3);
  const failures = failedOperations(report);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="catalog-kit drift" tests="${report.parity.length}" failures="${failures}" time="${time}">`,
    `  <testsuite name="catalog-kit drift (${xmlEscape(report.profile)})" tests="${report.parity.length}" failures="${failures}" time="${time}" timestamp="${xmlEscape(report.startedAt)}">`,
    '    <properties>',
    `      <property name="target" value="${xmlEscape(report.target)}"/>`,
    `      <property name="reference" value="${xmlEscape(report.reference)}"/>`,
    `      <property name="profile" value="${xmlEscape(report.profile)}"/>`,
    `      <property name="seed" value="${report.seed}"/>`,
    '    </properties>',
  ];
  for (const p of report.parity) {
    const open = `    <testcase classname="drift" name="${xmlEscape(p.operation)}" assertions="${p.calls}">`;
    if (p.differing === 0) lines.push(`${open.slice(0, -1)}/>`);
    else {
      const { message, detail } = operationMessage(report, p.operation, p.differing, p.calls);
      lines.push(open, `      <failure message="${xmlEscape(message)}" type="${RULE_ID}">${xmlEscape(detail ?? message)}</failure>`, '    </testcase>');
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

export function driftCtrf(report: DriftReport): string {
  const tests: CtrfTest[] = report.parity.map((p) => {
    const base = { name: p.operation, suite: ['drift'] };
    if (p.differing === 0) return { ...base, status: 'passed' };
    const { message, detail } = operationMessage(report, p.operation, p.differing, p.calls);
    return { ...base, status: 'failed', message, ...(detail ? { trace: detail } : {}) };
  });
  return ctrfDocument('catalog-kit drift', report.startedAt, report.durationMs, tests, {
    target: report.target,
    reference: report.reference,
    profile: report.profile,
    seed: report.seed,
  });
}

/** One result per differing operation, located at the operation in the document. */
export function driftSarif(report: DriftReport): Promise<string> {
  const results = report.parity
    .filter((p) => p.differing > 0)
    .map((p) => {
      const { message, detail } = operationMessage(report, p.operation, p.differing, p.calls);
      return { ruleId: RULE_ID, message: detail ?? message, operation: p.operation };
    });
  return sarifLog('catalog-kit drift', [{ id: RULE_ID, text: RULE_TEXT, help: 'docs: conformance/README.md "Drift between two servers"' }], results, report.document, {
    target: report.target,
    reference: report.reference,
    profile: report.profile,
    seed: report.seed,
  });
}

export function driftHtml(report: DriftReport): string {
  const sections: string[] = [`<h2>Differences (${report.findings.length})</h2>`];
  if (report.findings.length === 0) sections.push('<p class="pass">Every pair of answers matched.</p>');
  report.findings.forEach((f, i) => {
    sections.push(
      `<section class="problem" data-filter id="difference-${i + 1}">`,
      `<h3><span class="fail">${escapeHtml(f.operation)}</span> answers differently${f.after ? ` <span class="note">(after ${escapeHtml(f.after)} differed earlier: it may follow from that)</span>` : ''}</h3>`,
      '<ul>',
      ...f.differences.map((d) => `<li><code>${escapeHtml(d.where)}</code>: target <code>${escapeHtml(d.target)}</code>, reference <code>${escapeHtml(d.reference)}</code></li>`),
      '</ul>',
      `<p class="note">Shortest sequence found: <code>${escapeHtml(f.commands)}</code></p>`,
      '<div class="sides"><strong>target</strong><strong>reference</strong>',
      ...f.steps.flatMap((step, k) => {
        const marker = k + 1 === f.index ? '<-- differs' : '';
        return [step.target ? exchangeHtml(step.target, marker) : '<pre>(no request)</pre>', step.reference ? exchangeHtml(step.reference, marker) : '<pre>(no request)</pre>'];
      }),
      '</div>',
      `<p>Replay: <code>${escapeHtml(driftReplay(report, f))}</code></p>`,
      '</section>',
    );
  });
  sections.push('<h2>Parity per operation</h2>', '<table><thead><tr><th>operation</th><th>calls</th><th>identical</th><th>differing</th></tr></thead><tbody>');
  for (const p of [...report.parity].sort((a, b) => b.differing - a.differing || a.operation.localeCompare(b.operation))) {
    sections.push(
      `<tr data-filter><td><code>${escapeHtml(p.operation)}</code></td><td class="n">${p.calls}</td><td class="n">${p.identical}</td><td class="n ${p.differing > 0 ? 'fail' : ''}">${p.differing}</td></tr>`,
    );
  }
  sections.push('</tbody></table>');
  return htmlPage(
    `catalog-kit drift: ${report.target} against ${report.reference}`,
    [
      `profile ${escapeHtml(report.profile)}`,
      `seed ${report.seed}`,
      `${report.runs} sequence(s)`,
      `${(report.durationMs / 1000).toFixed(1)} s`,
      `<span class="pass">${passedOperations(report)} operation(s) identical</span>`,
      `<span class="${failedOperations(report) > 0 ? 'fail' : 'pass'}">${failedOperations(report)} differing</span>`,
    ],
    sections,
  );
}
