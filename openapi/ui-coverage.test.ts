/**
 * The share of the OpenMetadata web UI's REST calls (openapi/ui-calls.tsv) that the document serves,
 * as `npm run coverage:ui` (scripts/coverage-ui.mjs) measures it: the matching rule on small
 * given/want cases, and a floor the measured number may not fall under (raise it as coverage rises).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../scripts/coverage-ui.mjs', import.meta.url));

/** Calls the document serves, at least: 95% of the calls of OpenMetadata 2.0's UI (openapi/ui-calls.tsv). */
const FLOOR = 307;

interface Coverage {
  total: number;
  served: number;
  percent: number;
  loose: { served: number; percent: number };
  missing: { method: string; path: string; uiFile: string }[];
}

function measure(args: string[] = []): Coverage {
  return JSON.parse(execFileSync(process.execPath, [SCRIPT, '--json', ...args], { encoding: 'utf8' })) as Coverage;
}

describe('npm run coverage:ui', () => {
  it(`serves at least ${FLOOR} of the UI's calls (95%), the CSV import and export calls of the kinds with a CSV among them`, () => {
    const coverage = measure();
    expect(coverage.total).toBe(323);
    expect(coverage.served).toBeGreaterThanOrEqual(FLOOR);
    expect(coverage.percent).toBeGreaterThanOrEqual(95);
    expect(coverage.served + coverage.missing.length).toBe(coverage.total);
    // Every CSV call of a kind with a CSV here is served; teams, users and glossaries have none, and the search export is not served (docs/behaviour.md "CSV import and export").
    const csvMissing = coverage.missing.filter((call) => /\/(export|import)(Async)?$/.test(call.path) && !call.path.startsWith('/v1/lineage'));
    expect(csvMissing.filter((call) => !/^\/v1\/(teams|users|glossaries|search)\b/.test(call.path))).toEqual([]);
  });

  it('matches a call to an operation segment by segment (given calls and document paths, want which are served)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-ui-calls-'));
    const given = [
      // The same path and method.
      { call: 'GET\t/v1/tables/{id}', want: true },
      // A parameter of the UI stands for any one segment: the generic service call matches each service kind.
      { call: 'GET\t/v1/services/{serviceCategory}/name/{fqn}', want: true },
      // Text around the parameter must match: `{entityType}s` is `tables`, not `table`.
      { call: 'PUT\t/v1/{entityType}s/name/{fqn}/importAsync', want: true },
      // The method must match.
      { call: 'DELETE\t/v1/tables/name/{fqn}/importAsync', want: false },
      // A parameter of each side standing for a literal of the other is not a match.
      { call: 'GET\t/v1/tables/name/{fqn}/exportAsync', want: false },
      // A parameter of the document alone may stand for a literal of the UI.
      { call: 'GET\t/v1/tables/abc', want: true },
      { call: 'GET\t/v1/tables/{id}/columns', want: false },
    ];
    const calls = join(dir, 'calls.tsv');
    writeFileSync(calls, `# a comment\nmethod\tpath\tuiFile\tupstreamCommit\n${given.map((g) => `${g.call}\tx.ts\tmain@0`).join('\n')}\n`);
    const bundle = join(dir, 'bundle.json');
    const paths = ['/v1/tables/{id}', '/v1/tables/{id}/versions/{version}', '/v1/services/databaseServices/name/{fqn}', '/v1/tables/name/{fqn}/importAsync'];
    writeFileSync(bundle, JSON.stringify({ document: { paths: Object.fromEntries(paths.map((p) => [p, p.endsWith('importAsync') ? { put: {} } : { get: {} }])) } }));
    const coverage = measure(['--calls', calls, '--bundle', bundle]);
    const missing = new Set(coverage.missing.map((m) => `${m.method}\t${m.path}`));
    expect(given.map((g) => ({ call: g.call, served: !missing.has(g.call) }))).toEqual(given.map((g) => ({ call: g.call, served: g.want })));
    expect(coverage).toMatchObject({ total: given.length, served: given.filter((g) => g.want).length });
    // Segment by segment alone, the crossing case counts too.
    expect(coverage.loose.served).toBe(coverage.served + 1);
  });
});
