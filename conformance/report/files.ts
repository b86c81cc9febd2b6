/** Machine reports: JUnit XML (one testcase per rule) and JSON. */
import type { Failure } from '../checker.ts';
import { toCurl } from '../curl.ts';
import { describeSource, ruleGroup } from '../rules.ts';
import { coverageText, failureSteps, failureText, runCounts } from './console.ts';
import type { ConformanceReport } from './model.ts';

export function xmlEscape(s: string): string {
  return (
    s
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // XML 1.0 forbids most control characters: matching them is the point.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

export function junitXml(report: ConformanceReport): string {
  const time = (report.durationMs / 1000).toFixed(3);
  // With --min-coverage the coverage is one more testcase.
  const tests = report.rules.length + (report.coverage.minimum ? 1 : 0);
  const failures = report.failed + (report.coverage.minimum && !report.coverage.minimum.met ? 1 : 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="catalog-kit conform" tests="${tests}" failures="${failures}" skipped="${report.notExercised}" time="${time}">`,
    `  <testsuite name="catalog-kit conform (${xmlEscape(report.profile)})" tests="${tests}" failures="${failures}" skipped="${report.notExercised}" time="${time}" timestamp="${xmlEscape(report.startedAt)}">`,
    '    <properties>',
    `      <property name="target" value="${xmlEscape(report.target)}"/>`,
    `      <property name="profile" value="${xmlEscape(report.profile)}"/>`,
    `      <property name="seed" value="${report.seed}"/>`,
    `      <property name="runs" value="${report.runs}"/>`,
    `      <property name="coverage.document" value="${xmlEscape(report.coverage.document)}"/>`,
    `      <property name="coverage.interface.operations" value="${report.coverage.interface.operations}"/>`,
    `      <property name="coverage.interface.checked" value="${report.coverage.interface.checked}"/>`,
    `      <property name="coverage.interface.percent" value="${report.coverage.interface.percent}"/>`,
    `      <property name="coverage.document.exercised" value="${report.coverage.all.exercised}"/>`,
    '    </properties>',
  ];
  let n = 0;
  for (const rule of report.rules) {
    const open = `    <testcase classname="conformance.${xmlEscape(ruleGroup(rule.id))}" name="${xmlEscape(`${rule.id}: ${rule.name}`)}" assertions="${rule.checks}">`;
    if (rule.status === 'pass') {
      lines.push(`${open.slice(0, -1)}/>`);
    } else if (rule.status === 'not-exercised') {
      lines.push(open, `      <skipped message="${xmlEscape(rule.note ?? 'not exercised')}"/>`, '    </testcase>');
    } else {
      lines.push(open);
      for (const f of rule.failures) {
        lines.push(
          `      <failure message="${xmlEscape(`expected ${f.expected}; got ${f.actual}`)}" type="${xmlEscape(rule.id)}">${xmlEscape(failureText(report, rule, f, ++n))}</failure>`,
        );
      }
      lines.push(`      <system-out>${xmlEscape(describeSource(rule.source))}</system-out>`, '    </testcase>');
    }
  }
  const minimum = report.coverage.minimum;
  if (minimum) {
    const name = `coverage: at least ${minimum.percent}% of the operations of the interface's kinds checked by a rule`;
    const open = `    <testcase classname="conformance.coverage" name="${xmlEscape(name)}" assertions="${report.coverage.interface.checked}">`;
    if (minimum.met) lines.push(`${open.slice(0, -1)}/>`);
    else {
      const message = `${report.coverage.interface.percent}% checked; not covered: ${report.coverage.interface.missing.join(', ')}`;
      lines.push(open, `      <failure message="${xmlEscape(message)}" type="coverage"/>`, '    </testcase>');
    }
  }
  lines.push(`    <system-out>${xmlEscape(coverageText(report))}</system-out>`);
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

function failureJson(f: Failure) {
  const { from, steps } = failureSteps(f);
  return {
    expected: f.expected,
    actual: f.actual,
    origin: f.origin,
    ...(f.after ? { after: f.after } : {}),
    /** Requests of the sequence before the first the failure needs, left out. */
    stepsBefore: from,
    steps: steps.map((ex) => ({
      curl: toCurl(ex),
      status: ex.status,
      response: ex.responseText.length > 2000 ? `${ex.responseText.slice(0, 2000)}…` : ex.responseText,
      failing: f.exchange?.seq === ex.seq || undefined,
    })),
  };
}

export function jsonReport(report: ConformanceReport): string {
  return `${JSON.stringify(
    {
      ...report,
      counts: runCounts(report),
      rules: report.rules.map((r) => ({ ...r, failures: r.failures.map(failureJson) })),
    },
    null,
    2,
  )}\n`;
}
