#!/usr/bin/env node
/**
 * `npm run coverage:ui`: how many of the REST calls the OpenMetadata web UI makes
 * (openapi/ui-calls.tsv) the OpenAPI document serves (openapi/generated/openapi.bundle.json, as
 * `npm run gen:types` writes it), and the rest, grouped by the UI file that makes them.
 *
 * A call is served when the document has an operation with the same method and a path that
 * matches it segment by segment: equal segments match, and a segment holding a `{param}` on either
 * side matches any one segment (so the UI's `/v1/services/{serviceCategory}/name/{fqn}` matches
 * every service kind, and its `/v1/{entityType}s/name/{fqn}/importAsync` every collection whose
 * name ends in `s`: the text around the parameter must match).
 *
 * `--calls <tsv>` and `--bundle <json>` measure other files. `--json` prints `{ total, served, percent, loose: { served, percent }, missing: [{ method, path, uiFile }] }` instead of the
 * report (the floor test, openapi/ui-coverage.test.ts, reads it).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `--calls <tsv>` and `--bundle <json>` read other files (the test gives its own). */
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const CALLS = option('--calls', fileURLToPath(new URL('../openapi/ui-calls.tsv', import.meta.url)));
const BUNDLE = option('--bundle', fileURLToPath(new URL('../openapi/generated/openapi.bundle.json', import.meta.url)));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The calls of the TSV: `#` lines are comments, the first other line names the columns. */
function readCalls(text) {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const [header, ...rows] = lines;
  if (header?.split('\t')[0] !== 'method') throw new Error(`${CALLS}: the first line that is not a comment must name the columns (method, path, uiFile, upstreamCommit)`);
  return rows.map((line, i) => {
    const [method, path, uiFile, commit] = line.split('\t');
    if (!method || !path?.startsWith('/')) throw new Error(`${CALLS}: row ${i + 1} is not "method<TAB>path<TAB>uiFile<TAB>commit": ${line}`);
    return { method: method.toUpperCase(), path, uiFile: uiFile ?? '', commit: commit ?? '' };
  });
}

/** A segment with a `{param}` in it as a test on the other side's segment; a plain segment as itself. */
function segmentPattern(segment) {
  if (!segment.includes('{')) return undefined;
  const source = segment
    .split(/\{[^}]*\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}

function segmentsMatch(a, b) {
  if (a === b) return true;
  const pa = segmentPattern(a);
  const pb = segmentPattern(b);
  // Two parameter segments match each other; a parameter segment matches a plain one when the text around it does.
  if (pa && pb) return true;
  if (pa) return pa.test(b);
  if (pb) return pb.test(a);
  return false;
}

/**
 * Segment by segment; but not when a parameter of each side has to stand for a literal of the other:
 * the UI's `/v1/databases/name/{fqn}/exportAsync` is not the document's
 * `/v1/databases/{id}/versions/{version}`, though each segment alone would match.
 */
function pathsMatch(call, documented, loose = false) {
  const a = call.split('/');
  const b = documented.split('/');
  if (a.length !== b.length || !a.every((segment, i) => segmentsMatch(segment, b[i]))) return false;
  if (loose) return true;
  const callParamOnLiteral = a.some((segment, i) => segmentPattern(segment) && !segmentPattern(b[i]));
  const documentParamOnLiteral = b.some((segment, i) => segmentPattern(segment) && !segmentPattern(a[i]));
  return !(callParamOnLiteral && documentParamOnLiteral);
}

const percentOf = (served, total) => (total === 0 ? 100 : Math.round((served / total) * 1000) / 10);
const shown = (percent) => percent.toFixed(1);

/**
 * Measures the coverage of the calls by the document's operations. `loose` counts segment by
 * segment only (every crossing of parameters allowed), which overcounts: kept for comparison.
 */
function measure(calls, document) {
  const operations = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) if (item?.[method]) operations.push({ method: method.toUpperCase(), path });
  }
  const servedBy = (call, loose) => operations.some((op) => op.method === call.method && pathsMatch(call.path, op.path, loose));
  const missing = calls.filter((call) => !servedBy(call, false));
  const served = calls.length - missing.length;
  const looseServed = calls.filter((call) => servedBy(call, true)).length;
  return {
    total: calls.length,
    served,
    percent: percentOf(served, calls.length),
    loose: { served: looseServed, percent: percentOf(looseServed, calls.length) },
    missing: missing.map(({ method, path, uiFile }) => ({ method, path, uiFile })),
  };
}

const calls = readCalls(readFileSync(CALLS, 'utf8'));
const document = JSON.parse(readFileSync(BUNDLE, 'utf8')).document;
const result = measure(calls, document);

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const out = [
    `The OpenAPI document serves ${result.served} of the ${result.total} REST calls of the OpenMetadata UI (${shown(result.percent)}%).`,
    `(Matching segment by segment alone, which lets a parameter of each side stand for a literal of the other: ${result.loose.served}, ${shown(result.loose.percent)}%.)`,
  ];
  if (result.missing.length) {
    out.push('', `Not served (${result.missing.length}), by UI file:`);
    const byFile = new Map();
    for (const call of result.missing) byFile.set(call.uiFile, [...(byFile.get(call.uiFile) ?? []), call]);
    for (const [file, list] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
      out.push(`  ${file} (${list.length})`);
      for (const call of list) out.push(`    ${call.method.padEnd(6)} ${call.path}`);
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
