import { describe, expect, it } from 'vitest';
import { Tally } from '../checker.ts';
import { toCurl } from '../curl.ts';
import type { Exchange } from '../http.ts';
import { consoleReport, replayCommand } from './console.ts';
import { jsonReport, junitXml } from './files.ts';
import { buildReport } from './model.ts';

const ex = (over: Partial<Exchange>): Exchange => ({
  seq: 1,
  method: 'POST',
  url: 'http://127.0.0.1:8585/api/v1/containers',
  authLabel: 'admin',
  status: 201,
  responseContentType: 'application/json',
  responseText: '{"id":"x"}',
  json: { id: 'x' },
  ...over,
});

function sampleReport() {
  const tally = new Tally();
  tally.pass('create.returns-fields');
  tally.pass('create.returns-fields');
  const first = ex({ seq: 1, requestBody: '{"name":"c1","service":"s"}', contentType: 'application/json' });
  const second = ex({ seq: 2, status: 201, responseText: '{"id":"y"}' });
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
});
