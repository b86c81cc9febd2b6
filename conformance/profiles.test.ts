/**
 * The suite's expectations come from openapi/profiles.json, the table the reference server reads
 * too (src/config/profiles.test.ts checks the two agree row by row): every suite row becomes a
 * field, every field is read by a check, and the error types agree with the OpenAPI document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProfileRow } from './profiles.ts';
import { ERROR_TYPES, expectationsFor, expectationsFrom, isProfile, PROFILE_TABLE_PATH, PROFILES, readProfileTable, rowValue } from './profiles.ts';

const ROWS = readProfileTable();
const SUITE_ROWS = ROWS.filter((row) => row.readBy.includes('suite'));
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** The non-test TypeScript of the suite, without this module: where checks read the expectations. */
function suiteCode(): string {
  return readdirSync(HERE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'profiles.ts')
    .map((file) => readFileSync(path.join(HERE, file), 'utf8'))
    .join('\n');
}

describe('the suite profiles', () => {
  it('read openapi/profiles.json beside conformance/, as the built package lays it out', () => {
    expect(path.relative(path.dirname(HERE), PROFILE_TABLE_PATH).split(path.sep)).toEqual(['openapi', 'profiles.json']);
  });

  it('make every suite row a field of the expectations, with the row value and nothing else', () => {
    for (const profile of PROFILES) {
      const exp = expectationsFor(profile) as unknown as Record<string, unknown>;
      expect(Object.keys(exp).sort()).toEqual(SUITE_ROWS.map((row) => row.id).sort());
      for (const row of SUITE_ROWS) expect(exp[row.id], `${profile} ${row.id}`).toEqual(rowValue(row, profile));
    }
  });

  it('have every suite row read by a check (exp.<id>)', () => {
    const code = suiteCode();
    const unused = SUITE_ROWS.filter((row) => !new RegExp(`\\bexp\\.${row.id}\\b`).test(code)).map((row) => row.id);
    expect(unused).toEqual([]);
  });

  it('refuse a table that does not fit, naming the row', () => {
    const row = (id: string, contract: unknown, openmetadata: unknown, readBy: ProfileRow['readBy'] = ['suite']): ProfileRow => ({
      id,
      governs: 'test row',
      readBy,
      contract,
      openmetadata,
    });
    const without = (id: string) => ROWS.filter((r) => r.id !== id);
    const cases: { given: ProfileRow[]; want: RegExp }[] = [
      { given: without('createStatuses'), want: /no suite row for createStatuses/ },
      { given: [...ROWS, row('brandNew', true, false)], want: /row "brandNew" is read by the suite, but ProfileExpectations has no such field/ },
      { given: [...without('createStatuses'), row('createStatuses', [200], 201)], want: /row "createStatuses" has a array for contract but a number for openmetadata/ },
      { given: [...ROWS, row('bulkResultShape', false, true)], want: /row "bulkResultShape" appears twice/ },
    ];
    for (const { given, want } of cases) expect(() => expectationsFrom(given, 'profiles.json')).toThrow(want);
    // A server-only row is none of the suite's business.
    expect(() => expectationsFrom([...ROWS, row('serverOnly', 1, 2, ['server'])])).not.toThrow();
  });

  it('know exactly the two profile names', () => {
    // given a --profile value, want whether it is a profile
    const cases: [string, boolean][] = [
      ['contract', true],
      ['openmetadata', true],
      ['Contract', false],
      ['strict', false],
      ['', false],
    ];
    for (const [given, want] of cases) expect(isProfile(given), given).toBe(want);
  });

  it('expect the error type the OpenAPI document gives each error status', () => {
    const bundle = JSON.parse(readFileSync(new URL('../openapi/generated/openapi.bundle.json', import.meta.url), 'utf8')) as {
      document: {
        components: {
          schemas: { Error: { properties: { errorType: { enum: string[] } } } };
          responses: Record<string, { content?: Record<string, { example?: { code?: number; errorType?: string } }> }>;
        };
      };
    };
    const { components } = bundle.document;
    const documented = new Map(
      Object.values(components.responses)
        .map((response) => response.content?.['application/json']?.example)
        .filter((example) => example?.code !== undefined)
        .map((example) => [example!.code!, example!.errorType]),
    );
    for (const [status, type] of Object.entries(ERROR_TYPES)) {
      expect(components.schemas.Error.properties.errorType.enum, status).toContain(type);
      expect(documented.get(Number(status)), status).toBe(type);
    }
  });
});
