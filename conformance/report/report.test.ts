import { describe, expect, it } from 'vitest';
import { Tally } from '../checker.ts';
import { toCurl } from '../curl.ts';
import type { ApiDocument, DocOperation } from '../document.ts';
import type { Exchange } from '../http.ts';
import { expectationsFor } from '../profiles.ts';
import { consoleReport, replayCommand, runCounts } from './console.ts';
import { jsonReport, junitXml } from './files.ts';
import { buildReport } from './model.ts';
import { firstNeeded } from './needed.ts';

const ex = (over: Partial<Exchange>): Exchange => ({
  seq: 1,
  method: 'POST',
  url: 'http://127.0.0.1:8585/api/v1/containers',
  authLabel: 'admin',
  status: 201,
  responseContentType: 'application/json',
  responseHeaders: {},
  responseText: '{"id":"x"}',
  json: { id: 'x' },
  ...over,
});

/** A document of four operations: three of the interface's kinds, one not. */
const OPERATIONS: DocOperation[] = [
  { key: 'POST /v1/containers', method: 'POST', path: '/v1/containers', statuses: ['201', '409'] },
  { key: 'GET /v1/containers/{id}', method: 'GET', path: '/v1/containers/{id}', statuses: ['200', '404'] },
  { key: 'PUT /v1/tables/{id}/sampleData', method: 'PUT', path: '/v1/tables/{id}/sampleData', statuses: ['200'] },
  { key: 'GET /v1/users', method: 'GET', path: '/v1/users', statuses: ['200'] },
];
const DOCUMENT: ApiDocument = {
  source: 'a test document',
  location: 'openapi.yaml',
  operations: OPERATIONS,
  match: () => undefined,
  check: () => ({ statusDocumented: true, bodyProblems: [] }),
  lineOf: async (key) => (key === 'POST /v1/containers' ? 12 : undefined),
};

function sampleReport(minCoverage?: number) {
  const tally = new Tally(new Set(['document.body-matches-schema']));
  // POST containers answered twice and checked by a rule; GET by id answered, checked only by a rule of every response; GET users answered.
  const post = ex({ seq: 10, operation: 'POST /v1/containers' });
  const get = ex({ seq: 11, method: 'GET', status: 404, operation: 'GET /v1/containers/{id}' });
  tally.exercise('POST /v1/containers', 201, true);
  tally.exercise('POST /v1/containers', 409, true);
  tally.exercise('GET /v1/containers/{id}', 404, true);
  tally.exercise('GET /v1/users', 200, true);
  tally.exercise('GET /v1/nowhere (undocumented)', 404, false);
  tally.pass('create.returns-fields', post);
  tally.pass('create.returns-fields');
  tally.pass('document.body-matches-schema', get);
  const first = ex({ seq: 1, requestBody: '{"name":"c1","service":"s"}', contentType: 'application/json', json: { id: 'x', fullyQualifiedName: 's.c1' } });
  const second = ex({ seq: 2, status: 201, responseText: '{"id":"y"}', requestBody: '{"name":"c1","service":"s"}', contentType: 'application/json' });
  tally.fail({
    ruleId: 'uniqueness.duplicate-post-409-child',
    expected: 'POST of container s.c1 again: status 409',
    actual: '201 {"id":"y"}',
    exchange: second,
    steps: [first, second],
    origin: { kind: 'random', seed: 42, path: '3:0~AB:C', commands: 'create(1, 0, false, false),duplicateCreate(0)', mutedRules: [] },
  });
  tally.note('auth.restricted-token-403', 'not exercised: no --restricted-token given');
  return buildReport({
    target: 'http://127.0.0.1:8585/api',
    profile: 'contract',
    seed: 42,
    runs: 25,
    selected: ['create.returns-fields', 'uniqueness.duplicate-post-409-child', 'auth.restricted-token-403'],
    tally,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 1500,
    cleanupProblems: [],
    document: DOCUMENT,
    exp: expectationsFor('contract'),
    minCoverage,
  });
}

describe('reports', () => {
  it('gives each selected rule pass, fail or not exercised, in catalogue order', () => {
    const r = sampleReport();
    expect(r.rules.map((x) => [x.id, x.status])).toEqual([
      ['create.returns-fields', 'pass'],
      ['uniqueness.duplicate-post-409-child', 'fail'],
      ['auth.restricted-token-403', 'not-exercised'],
    ]);
    expect([r.passed, r.failed, r.notExercised]).toEqual([1, 1, 1]);
  });

  it('prints the table, the failing requests as curl, the replay command, and ends with "N passed, N failed"', () => {
    const text = consoleReport(sampleReport());
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(text).toMatch(/uniqueness\.duplicate-post-409-child\s+FAIL/);
    expect(text).toMatch(/auth\.restricted-token-403\s+not exercised .*no --restricted-token/);
    expect(text).toContain(`curl -sS -X POST http://127.0.0.1:8585/api/v1/containers -H "Authorization: Bearer $CK_TOKEN"`);
    expect(text).toContain('<-- here');
    expect(text).toContain("--rules uniqueness.duplicate-post-409-child --seed 42 --path '3:0~AB:C'");
  });

  it('never prints a token: admin and restricted tokens become variables, secret-derived ones a label', () => {
    expect(toCurl(ex({ authLabel: 'restricted' }))).toContain('$CK_RESTRICTED_TOKEN');
    expect(toCurl(ex({ authLabel: 'none' }))).not.toContain('Authorization');
    expect(toCurl(ex({ authLabel: '$CK_TOKEN without the Bearer scheme' }))).toContain("'Authorization: <$CK_TOKEN without the Bearer scheme>'");
    expect(toCurl(ex({ authLabel: 'garbage token', authHeader: 'Bearer not-a-jwt' }))).toContain("'Authorization: Bearer not-a-jwt'");
  });

  it('writes JUnit XML with one testcase per rule: failures and skipped', () => {
    const xml = junitXml(sampleReport());
    expect(xml).toContain('<testsuites name="catalog-kit conform" tests="3" failures="1" skipped="1"');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('<failure message="expected POST of container s.c1 again: status 409; got 201 {&quot;id&quot;:&quot;y&quot;}"');
    expect(xml).toContain('<skipped message="not exercised: no --restricted-token given"/>');
    expect(xml).toContain('&lt;-- here');
  });

  it("counts the operations of the interface's kinds a rule checked, by status", () => {
    const r = sampleReport();
    // given: the tally above; want: 1 of 3 interface operations checked (a check of every response does not count)
    expect(r.coverage.interface).toEqual({
      operations: 3,
      exercised: 2,
      checked: 1,
      percent: 33.3,
      missing: ['GET /v1/containers/{id} (exercised, checked by no rule)', 'PUT /v1/tables/{id}/sampleData'],
    });
    expect(r.coverage.all).toEqual({ operations: 4, exercised: 3, checked: 1 });
    expect(r.coverage.operations.find((o) => o.key === 'POST /v1/containers')).toMatchObject({ statuses: { '201': 1, '409': 1 }, checkedBy: { 'create.returns-fields': 1 } });
    expect(r.coverage.undocumented).toEqual([{ request: 'GET /v1/nowhere (undocumented)', statuses: { '404': 1 } }]);
    const text = consoleReport(r);
    expect(text).toMatch(/\/v1\/containers\s+1\/2\s+201×1 404×1 409×1/);
    expect(text).toContain("operations of the interface's kinds: 1 of 3 checked by a rule (33.3%), 2 exercised");
    expect(text).toContain('not covered: GET /v1/containers/{id} (exercised, checked by no rule), PUT /v1/tables/{id}/sampleData');
    expect(text).not.toContain('CPU');
  });

  it('with --min-coverage, says whether the run met it, in the console and as one more JUnit testcase', () => {
    // given: a minimum; want: met or not, and the JUnit testcase passing or failing
    const cases: { min: number; met: boolean }[] = [
      { min: 30, met: true },
      { min: 90, met: false },
    ];
    for (const { min, met } of cases) {
      const r = sampleReport(min);
      expect(r.coverage.minimum).toEqual({ percent: min, met });
      expect(consoleReport(r)).toContain(`--min-coverage ${min}%: ${met ? 'met' : 'NOT MET'}`);
      const xml = junitXml(r);
      expect(xml).toContain(`tests="4" failures="${met ? 1 : 2}"`);
      expect(xml.includes('<failure message="33.3% checked; not covered')).toBe(!met);
    }
    expect(junitXml(sampleReport())).toContain('<property name="coverage.interface.percent" value="33.3"/>');
  });

  it('writes JSON with the steps as curl', () => {
    const json = JSON.parse(jsonReport(sampleReport())) as { rules: Array<{ id: string; failures: Array<{ steps: Array<{ curl: string; failing?: boolean }> }> }> };
    const failing = json.rules.find((r) => r.id === 'uniqueness.duplicate-post-409-child');
    expect(failing?.failures[0]?.steps).toHaveLength(2);
    expect(failing?.failures[0]?.steps[1]?.failing).toBe(true);
  });

  it('replays a scenario failure by rule, a random one by seed and path', () => {
    const r = sampleReport();
    const f = r.rules[1]!.failures[0]!;
    expect(replayCommand(r, f)).toBe(
      `catalog-kit conform --target http://127.0.0.1:8585/api --token "$CK_TOKEN" --profile contract --rules uniqueness.duplicate-post-409-child --seed 42 --path '3:0~AB:C'`,
    );
    expect(replayCommand(r, { ...f, origin: { kind: 'scenario', scenario: 'x' } })).not.toContain('--seed');
  });

  it('counts consistently: distinct operations are those answered, a failed rule is an exercised one', () => {
    const tally = new Tally();
    tally.exercise('POST /v1/containers', 201, true);
    tally.fail({ ruleId: 'hard-delete.status', expected: '204', actual: '200', steps: [], origin: { kind: 'scenario', scenario: 'x' } });
    const report = buildReport({
      target: 'http://127.0.0.1:8585/api',
      profile: 'contract',
      seed: 1,
      runs: 1,
      selected: ['hard-delete.status'],
      tally,
      startedAt: '2025-01-01T00:00:00.000Z',
      durationMs: 1,
      cleanupProblems: [],
      document: DOCUMENT,
      exp: expectationsFor('contract'),
    });
    // given: one request, one failed rule of no passing check; want: 1 request to 1 operation, 1 of 1 rules exercised
    expect(runCounts(report)).toEqual({ requests: 1, distinct: 1, exercisedRules: 1, passingChecks: 0 });
    const text = consoleReport(report);
    expect(text).toContain('requests checked: 1 (1 distinct operations)');
    expect(text).toContain('rules: 1 of 1 exercised (passed or failed)');
    // And in any report: no more distinct operations than requests, no more exercised rules than rules.
    for (const r of [report, sampleReport()]) {
      const c = runCounts(r);
      expect(c.distinct).toBeLessThanOrEqual(c.requests);
      expect(c.exercisedRules).toBe(r.passed + r.failed);
    }
  });

  it('prints a failure from the first request it needs, every one after it, the earlier ones left out', () => {
    const post = (seq: number, body: object, json: object, status = 201) =>
      ex({ seq, requestBody: JSON.stringify(body), contentType: 'application/json', json, status, url: 'http://h/api/v1/x' });
    const get = (seq: number) => ex({ seq, method: 'GET', url: `http://h/api/v1/x/${'0'.repeat(8)}-0000-4000-8000-00000000000${seq}`, json: {} });
    const svc = post(3, { name: 's' }, { id: '11111111-0000-4000-8000-000000000001', fullyQualifiedName: 's' });
    const c1 = post(5, { name: 'c1', service: 's' }, { id: '11111111-0000-4000-8000-000000000002', fullyQualifiedName: 's.c1' });
    const other = post(6, { name: 'c2', service: 'other' }, { id: '11111111-0000-4000-8000-000000000003', fullyQualifiedName: 'other.c2' });
    const dup = post(8, { name: 'c1', service: 's' }, { id: 'y' });
    // given: unrelated requests before the service's create; want: the failure needs everything from the service's create on
    const steps = [get(1), get(2), svc, get(4), c1, other, get(7), dup];
    expect(firstNeeded(steps, dup)).toBe(2);
    expect(firstNeeded(steps, get(7))).toBe(6);
    expect(firstNeeded([dup], dup)).toBe(0);
  });

  it('names the first broken rule as the cause, and a failure after it as a possible consequence, listed after', () => {
    const r = sampleReport();
    const dupFailure = r.rules[1]!.failures[0]!;
    const cause = { ...r.rules[1]!, id: 'soft-delete.marks-deleted', failures: [{ ...dupFailure, ruleId: 'soft-delete.marks-deleted' }] };
    const consequence = { ...r.rules[1]!, failures: [{ ...dupFailure, after: 'soft-delete.marks-deleted' }] };
    const text = consoleReport({ ...r, rules: [r.rules[0]!, consequence, cause, r.rules[2]!] });
    expect(text.indexOf('1) soft-delete.marks-deleted')).toBeGreaterThan(0);
    expect(text).toContain('(the first rule broken in its sequence)');
    expect(text).toMatch(/2\) uniqueness\.duplicate-post-409-child: .*\n {3}follows: {2}soft-delete\.marks-deleted failed before/);
    expect(text).toMatch(/uniqueness\.duplicate-post-409-child\s+FAIL .*\(may follow from soft-delete\.marks-deleted\)/);
  });
});
