/**
 * The self-contained HTML reports (`--html FILE`) of `conform` and `drift`: one file, its style
 * and its script inside, nothing fetched; problems first, each with the requests that show it as
 * curl commands; then the tables; a filter box hides every row and section whose text does not
 * hold what is typed. Built from the same report as the console's.
 */
import { describeSource } from '../rules.ts';
import { responseSummary, toCurl } from '../curl.ts';
import type { Exchange } from '../http.ts';
import { failureText, replayCommand } from './console.ts';
import type { ConformanceReport } from './model.ts';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1b1f23; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; } h3 { font-size: 1rem; margin: 0 0 .4rem; }
.summary { display: flex; gap: 1.5rem; flex-wrap: wrap; }
.pass { color: #1a7f37; } .fail { color: #cf222e; font-weight: 600; } .skip { color: #6e7781; }
.problem { border: 1px solid #cf222e; border-left-width: 5px; border-radius: 4px; padding: .7rem 1rem; margin: .8rem 0; }
.note { color: #6e7781; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
table { border-collapse: collapse; margin: .5rem 0; } th, td { border: 1px solid #d0d7de; padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; position: sticky; top: 0; } td.n { text-align: right; } td.hit { background: #dafbe1; text-align: center; }
.matrix th.rule { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal; font-size: 11px; white-space: nowrap; height: 16rem; vertical-align: bottom; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .6rem; }
#filter { font-size: 1rem; padding: .3rem .5rem; width: 28rem; max-width: 100%; }
.hidden { display: none; }
`;

/** Hides every `[data-filter]` element whose text does not contain the filter (case-insensitive). */
const SCRIPT = `
const box = document.getElementById('filter');
const items = Array.from(document.querySelectorAll('[data-filter]'));
box.addEventListener('input', () => {
  const q = box.value.trim().toLowerCase();
  for (const el of items) el.classList.toggle('hidden', q !== '' && !el.textContent.toLowerCase().includes(q));
});
`;

/** A whole page: a title, summary lines, the filter box, then the sections (already HTML). */
export function htmlPage(title: string, summary: readonly string[], sections: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<div class="summary">${summary.map((s) => `<span>${s}</span>`).join('')}</div>`,
    '<p><label>Filter: <input id="filter" type="search" placeholder="a rule, an operation, a word of a message" autocomplete="off"></label></p>',
    ...sections,
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** A request as curl, with the answer under it. */
export function exchangeHtml(ex: Exchange, marker = ''): string {
  return `<pre>${escapeHtml(toCurl(ex))}\n-> ${escapeHtml(responseSummary(ex, 2000))}${marker ? `   ${escapeHtml(marker)}` : ''}</pre>`;
}

const STATUS_CLASS = { pass: 'pass', fail: 'fail', 'not-exercised': 'skip' } as const;

/** `conform --html`: failures first with their curl replay, the rule table, the coverage matrix (operations × rules). */
export function conformHtml(report: ConformanceReport): string {
  const failing = report.rules.filter((r) => r.status === 'fail');
  const sections: string[] = [];
  sections.push(`<h2>Failures (${failing.reduce((n, r) => n + r.failures.length, 0)})</h2>`);
  if (failing.length === 0) sections.push('<p class="pass">Every rule exercised held.</p>');
  let n = 0;
  for (const rule of failing) {
    for (const f of rule.failures) {
      n += 1;
      sections.push(
        `<section class="problem" data-filter id="failure-${n}">`,
        `<h3><span class="fail">${escapeHtml(rule.id)}</span>: ${escapeHtml(rule.name)}</h3>`,
        `<pre>${escapeHtml(failureText(report, rule, f, n))}</pre>`,
        `<p>Replay: <code>${escapeHtml(replayCommand(report, f))}</code></p>`,
        '</section>',
      );
    }
  }
  sections.push('<h2>Rules</h2>', '<table><thead><tr><th>rule</th><th>result</th><th>checks</th><th>source</th></tr></thead><tbody>');
  for (const r of report.rules) {
    const result = r.status === 'not-exercised' ? `not exercised${r.note ? ` (${r.note})` : ''}` : r.status;
    sections.push(
      `<tr data-filter><td><code>${escapeHtml(r.id)}</code><br><span class="note">${escapeHtml(r.name)}</span></td><td class="${STATUS_CLASS[r.status]}">${escapeHtml(result)}</td><td class="n">${r.checks}</td><td>${escapeHtml(describeSource(r.source))}</td></tr>`,
    );
  }
  sections.push('</tbody></table>');
  sections.push(coverageMatrix(report));
  const c = report.coverage;
  return htmlPage(
    `catalog-kit conform: ${report.target}`,
    [
      `profile ${escapeHtml(report.profile)}`,
      `seed ${report.seed}`,
      `${report.runs} random sequence(s)`,
      `${(report.durationMs / 1000).toFixed(1)} s`,
      `<span class="pass">${report.passed} passed</span>`,
      `<span class="${report.failed > 0 ? 'fail' : 'pass'}">${report.failed} failed</span>`,
      `<span class="skip">${report.notExercised} not exercised</span>`,
      `interface operations checked: ${c.interface.checked} of ${c.interface.operations} (${c.interface.percent.toFixed(1)}%)`,
    ],
    sections,
  );
}

/** Operations (rows) × the rules that checked a response of one (columns): how many checks each made. */
function coverageMatrix(report: ConformanceReport): string {
  const operations = report.coverage.operations.filter((op) => Object.keys(op.statuses).length > 0 || op.interface);
  const ruleIds = report.rules.map((r) => r.id).filter((id) => operations.some((op) => op.checkedBy[id] !== undefined));
  const out = [
    `<h2>Coverage: operations × rules</h2>`,
    `<p class="note">Each cell counts the passing checks a rule made on an answer of the operation (the checks every response gets are not counted). By ${escapeHtml(report.coverage.document)}.</p>`,
    '<table class="matrix"><thead><tr><th>operation</th><th>answers by status</th>',
    ...ruleIds.map((id) => `<th class="rule">${escapeHtml(id)}</th>`),
    '</tr></thead><tbody>',
  ];
  for (const op of operations) {
    const statuses = Object.entries(op.statuses)
      .map(([s, k]) => `${s}×${k}`)
      .join(' ');
    const cells = ruleIds.map((id) => (op.checkedBy[id] ? `<td class="hit" title="${escapeHtml(id)}">${op.checkedBy[id]}</td>` : '<td></td>'));
    const label = `${op.key}${op.interface && Object.keys(op.checkedBy).length === 0 ? ' (not covered)' : ''}`;
    out.push(`<tr data-filter><td><code>${escapeHtml(label)}</code></td><td>${escapeHtml(statuses || 'not exercised')}</td>${cells.join('')}</tr>`);
  }
  out.push('</tbody></table>');
  return out.join('\n');
}
