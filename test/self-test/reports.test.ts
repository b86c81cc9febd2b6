/**
 * The reports CI systems read, from failing runs of `conform` and `drift` against the in-process
 * reference server seen through a faulty `fetch` (a hard delete answered 202, no body): the SARIF
 * file validates against the SARIF 2.1.0 JSON schema (from @microsoft/jest-sarif), the CTRF file
 * against the CTRF schema (from the ctrf package), each SARIF result sits at its operation's line in
 * the OpenAPI document; the HTML page renders in headless Chromium (Debian's, driven by
 * playwright-core, which downloads no browser; skipped, saying why, where /usr/bin/chromium is
 * absent), shows the failing rule first, filters, and logs no error.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv07Module from 'ajv';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import sarifSchema from '@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json' with { type: 'json' };
import { schema as ctrfSchema } from 'ctrf';
import { BROWSER_RUN, CHROMIUM, launchChromium } from '../chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformMain } from '../../conformance/cli.ts';
import type { Fetch } from '../../conformance/http.ts';
import { runDrift, type DriftReport } from '../../conformance/drift/run.ts';
import { driftCtrf, driftHtml, driftSarif } from '../../conformance/drift/report.ts';
import { signToken } from '../../src/auth/tokens.ts';
import { createCatalog, type InProcessCatalog } from '../../src/app/in-process/catalog.ts';

const SEED = 20_251_128;

/** The reference's fetch, but a hard delete is answered 202 with no body (whatever the server did). */
const faultyFetch: Fetch = async (url, init) => {
  const res = await server.fetch(url, init);
  if (init.method === 'DELETE' && new URL(url).searchParams.get('hardDelete') === 'true') {
    await res.arrayBuffer();
    return new Response(null, { status: 202 });
  }
  return res;
};

// CommonJS modules: their default export is the class (as scripts/compile-validators.ts loads them).
const Ajv07 = Ajv07Module as unknown as typeof Ajv07Module.default;
const Ajv04 = Ajv04Module as unknown as typeof Ajv04Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function compile(kind: 'sarif' | 'ctrf') {
  // The SARIF schema's patterns are ECMAScript ones without the u flag (one has a lone `]`).
  const ajv = kind === 'sarif' ? new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false }) : new Ajv07({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(kind === 'sarif' ? sarifSchema : (ctrfSchema as object));
}
/** Each schema compiled once for the file (the SARIF one is large). */
const compiled = new Map<'sarif' | 'ctrf', ReturnType<typeof compile>>();
function validator(kind: 'sarif' | 'ctrf') {
  const known = compiled.get(kind);
  if (known) return known;
  const made = compile(kind);
  compiled.set(kind, made);
  return made;
}

let server: InProcessCatalog;
let token: string;
let dir: string;
let drift: DriftReport;
const files = (name: string) => ({
  sarif: join(dir, `${name}.sarif`),
  ctrf: join(dir, `${name}.ctrf.json`),
  html: join(dir, `${name}.html`),
  junit: join(dir, `${name}.xml`),
  json: join(dir, `${name}.json`),
});

beforeAll(async () => {
  server = await createCatalog({ fixtures: 'none' });
  token = await signToken({ user: 'conformance-admin', role: 'Admin' });
  dir = mkdtempSync(join(tmpdir(), 'ck-reports-'));
  drift = await runDrift({
    target: { baseUrl: server.baseUrl, token, fetch: faultyFetch },
    reference: { baseUrl: server.baseUrl, token, fetch: server.fetch },
    seed: SEED,
    runs: 10,
  });
}, 120_000);

afterAll(async () => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('conform: every report of a failing run, written at once', () => {
  let code: number;
  let out = '';
  const conformFiles = () => files('conform');
  beforeAll(async () => {
    // The fault goes in through the run's fetch: conformMain takes the target's fetch from the reference it starts.
    const f = conformFiles();
    code = await conformMain(
      [
        '--rules',
        'hard-delete.status,create.returns-fields',
        '--runs',
        '3',
        '--seed',
        String(SEED),
        '--sarif',
        f.sarif,
        '--ctrf',
        f.ctrf,
        '--html',
        f.html,
        '--junit',
        f.junit,
        '--json',
        f.json,
      ],
      {
        startReference: async () => ({ baseUrl: server.baseUrl, token, fetch: faultyFetch, close: async () => {} }),
        stdout: (t) => void (out += t),
        stderr: () => {},
        env: {},
        handleSigint: false,
      },
    );
  }, 120_000);

  it('fails hard-delete.status (exit 1) and writes all five files', () => {
    expect(code, out).toBe(1);
    expect(out).toMatch(/hard-delete\.status\s+FAIL/);
    for (const file of Object.values(conformFiles())) expect(existsSync(file), file).toBe(true);
  });

  it('SARIF 2.1.0: valid by the schema; the rules as the tool rules, one result per failed rule at its operation, by file and line', () => {
    const log = JSON.parse(readFileSync(conformFiles().sarif, 'utf8')) as SarifLog;
    const validate = validator('sarif');
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0]!;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['create.returns-fields', 'hard-delete.status']);
    expect(run.results.map((r) => r.ruleId)).toEqual(['hard-delete.status']);
    expectLocatedAtOperation(run.results[0]!, 'DELETE');
  });

  it('CTRF: valid by the schema, a test per rule, the failing one with its message', () => {
    const doc = JSON.parse(readFileSync(conformFiles().ctrf, 'utf8')) as CtrfDoc;
    const validate = validator('ctrf');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.results.summary).toMatchObject({ tests: 2, passed: 1, failed: 1 });
    expect(doc.results.tests.find((t) => t.status === 'failed')?.name).toMatch(/^hard-delete\.status: /);
  });

  it.runIf(BROWSER_RUN)('the HTML page in headless Chromium: shows the failing rule first, filters, no console error', async () => {
    await inChromium(conformFiles().html, async (page) => {
      await expect(page.locator('section.problem').first().textContent()).resolves.toContain('hard-delete.status');
      await expect(page.locator('section.problem pre').first().textContent()).resolves.toContain('curl -sS -X DELETE');
      const rows = page.locator('table.matrix tbody tr');
      expect(await rows.count()).toBeGreaterThan(3);
      await page.fill('#filter', 'hard-delete.status');
      await expect(page.locator('section.problem').first().isVisible()).resolves.toBe(true);
      await expect(page.locator('tr[data-filter]:has-text("create.returns-fields")').first().isVisible()).resolves.toBe(false);
    });
  });
});

describe('drift: the reports of a run with a difference', () => {
  it('finds the hard delete differing, shrunk, with both answers', () => {
    expect(drift.findings.length, JSON.stringify(drift.parity)).toBeGreaterThan(0);
    const first = drift.findings[0]!;
    expect(first.operation).toMatch(/^DELETE /);
    expect(first.differences.find((d) => d.where === 'status')).toMatchObject({ target: '202' });
    expect(first.steps[first.index - 1]?.target?.status).toBe(202);
  });

  it('SARIF and CTRF valid by their schemas; a SARIF result per differing operation at its line', async () => {
    const log = JSON.parse(await driftSarif(drift)) as SarifLog;
    const validate = validator('sarif');
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const differing = drift.parity.filter((p) => p.differing > 0).map((p) => p.operation);
    expect(log.runs[0]!.results.map((r) => r.locations[0]!.logicalLocations?.[0]?.name)).toEqual(differing);
    for (const result of log.runs[0]!.results) expectLocatedAtOperation(result, 'DELETE');
    const ctrf = JSON.parse(driftCtrf(drift)) as CtrfDoc;
    const validateCtrf = validator('ctrf');
    expect(validateCtrf(ctrf), JSON.stringify(validateCtrf.errors)).toBe(true);
    expect(ctrf.results.summary.failed).toBe(differing.length);
  });

  it.runIf(BROWSER_RUN)('the HTML page in headless Chromium: the difference first, both sides, no console error', async () => {
    const file = join(dir, 'drift.html');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, driftHtml(drift));
    await inChromium(file, async (page) => {
      const first = page.locator('section.problem').first();
      await expect(first.textContent()).resolves.toMatch(/DELETE .* answers differently/);
      await expect(first.locator('.sides pre').count()).resolves.toBeGreaterThanOrEqual(2);
    });
  });
});

interface SarifResult {
  ruleId: string;
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } }; logicalLocations?: { name: string }[] }[];
}
interface SarifLog {
  runs: { tool: { driver: { rules: { id: string }[] } }; results: SarifResult[] }[];
}
interface CtrfDoc {
  results: { summary: Record<string, number>; tests: { name: string; status: string }[] };
}

/** The result's location is the document's file, at the line where its operation's method is written. */
function expectLocatedAtOperation(result: SarifResult, method: string): void {
  const { artifactLocation, region } = result.locations[0]!.physicalLocation;
  expect(artifactLocation.uri).toMatch(/openapi\/generated\/openapi\.bundle\.json$/);
  const text = readFileSync(artifactLocation.uri.startsWith('file:') ? new URL(artifactLocation.uri) : artifactLocation.uri, 'utf8').split('\n');
  expect(region.startLine).toBeGreaterThan(1);
  expect(text[region.startLine - 1]).toMatch(new RegExp(`^\\s*"${method.toLowerCase()}": \\{`));
}

if (!CHROMIUM.available) console.warn(`reports test: ${CHROMIUM.skipped}: the HTML reports are not checked in a browser`);

/** Opens a report file in a fresh headless Chromium (its own --user-data-dir), runs `body`, and requires no console error and no request. */
async function inChromium(file: string, body: (page: import('playwright-core').Page) => Promise<void>): Promise<void> {
  if (!CHROMIUM.available) {
    console.warn(CHROMIUM.skipped);
    return;
  }
  const { context: browser, close } = await launchChromium();
  try {
    const errors: string[] = [];
    const requests: string[] = [];
    const page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => !r.url().startsWith('file:') && requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    await body(page);
    expect(errors).toEqual([]);
    expect(requests, 'a self-contained page fetches nothing').toEqual([]);
  } finally {
    await close();
  }
}
