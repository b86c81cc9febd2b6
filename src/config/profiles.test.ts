/**
 * openapi/profiles.json is the one table of profile differences: the server (profiles.ts) and the
 * conformance suite (conformance/profiles.ts) build their objects from it, read the same value for
 * every row they share, and every row the server reads is read somewhere in src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectationsFor } from '../../conformance/profiles.ts';
import type { ProfileName, ProfileRow } from './profiles.ts';
import { PROFILE_TABLE_PATH } from './assets.ts';
import { PROFILES, profileByName, profileRows, profilesFrom, rowValue } from './profiles.ts';

const ROWS = profileRows();
const NAMES: ProfileName[] = ['contract', 'openmetadata', 'openmetadata-1.10'];
const SRC = fileURLToPath(new URL('..', import.meta.url));

/** The non-test TypeScript under src/, without this module: where the server reads its rows. */
function serverCode(): string {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && path.join(SRC, file) !== fileURLToPath(new URL('./profiles.ts', import.meta.url)))
    .map((file) => readFileSync(path.join(SRC, file), 'utf8'))
    .join('\n');
}

describe('the profile table (openapi/profiles.json)', () => {
  it('is where the server and the built package look for it', () => {
    expect(PROFILE_TABLE_PATH.split(path.sep).slice(-2)).toEqual(['openapi', 'profiles.json']);
    expect(profileRows()).toEqual((JSON.parse(readFileSync(PROFILE_TABLE_PATH, 'utf8')) as { rows: unknown[] }).rows);
    expect(readFileSync(fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url)), 'utf8')).toContain("{ from: 'openapi/profiles.json' }");
  });

  it('has one row per id, each saying what it governs, who reads it and where each value comes from', () => {
    expect(new Set(ROWS.map((row) => row.id)).size).toBe(ROWS.length);
    for (const row of ROWS) {
      expect(row.id, row.id).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(row.governs.length, row.id).toBeGreaterThan(20);
      expect(row.readBy.length, row.id).toBeGreaterThan(0);
      for (const reader of row.readBy) expect(['server', 'suite'], row.id).toContain(reader);
      // A row is a difference: between the contract and OpenMetadata, or between OpenMetadata's releases.
      const values = NAMES.map((name) => JSON.stringify(rowValue(row, name)));
      expect(new Set(values).size, row.id).toBeGreaterThan(1);
      expect(row.source.contract, row.id).toMatch(/^Interface specification, "[^"]+"/);
      expect(row.source.openmetadata, row.id).toMatch(/^Observed OpenMetadata: .*\b\w+\.(java|json)\b/);
      // A 1.x value has its own source; without one the row is the same in both releases.
      expect(Object.hasOwn(row, 'openmetadata-1.10'), row.id).toBe(Object.hasOwn(row.source, 'openmetadata-1.10'));
      if (row.source['openmetadata-1.10'] !== undefined) expect(row.source['openmetadata-1.10'], row.id).toMatch(/^Observed OpenMetadata: .*\b\w+\.(java|json)\b/);
      for (const text of [row.governs, row.source.contract, row.source.openmetadata]) {
        expect(text, row.id).not.toMatch(/§|DESIGN\.md|issue \d/i);
      }
    }
  });

  it('gives the server and the suite the same value for every row they both read', () => {
    const shared = ROWS.filter((row) => row.readBy.includes('server') && row.readBy.includes('suite'));
    expect(shared.map((row) => row.id)).toContain('hardDelete');
    for (const name of NAMES) {
      const server = PROFILES[name] as unknown as Record<string, unknown>;
      const suite = expectationsFor(name) as unknown as Record<string, unknown>;
      for (const row of shared) {
        expect(server[row.id], `${name} ${row.id}`).toEqual(rowValue(row, name));
        expect(suite[row.id], `${name} ${row.id}`).toEqual(server[row.id]);
      }
    }
  });

  it('makes every server row a field of the profile, with the row value and nothing else', () => {
    const serverRows = ROWS.filter((row) => row.readBy.includes('server'));
    for (const name of NAMES) {
      const profile = profileByName(name);
      expect(Object.keys(profile).sort()).toEqual(['name', ...serverRows.map((row) => row.id)].sort());
      expect(profile.name).toBe(name);
      for (const row of serverRows) expect((profile as unknown as Record<string, unknown>)[row.id], `${name} ${row.id}`).toEqual(rowValue(row, name));
    }
  });

  it('has every server row read by the server code (profile.<id>)', () => {
    const code = serverCode();
    const unused = ROWS.filter((row) => row.readBy.includes('server') && !new RegExp(`\\bprofile\\.${row.id}\\b`).test(code)).map((row) => row.id);
    expect(unused).toEqual([]);
  });

  it('refuses a table that does not fit the server profile, naming the row', () => {
    const row = (id: string, contract: unknown, openmetadata: unknown, readBy: ProfileRow['readBy'] = ['server']): ProfileRow => ({
      id,
      governs: 'test row',
      readBy,
      contract,
      openmetadata,
      source: { contract: 'c', openmetadata: 'o' },
    });
    const without = (id: string) => ROWS.filter((r) => r.id !== id);
    const cases: { given: ProfileRow[]; want: RegExp }[] = [
      { given: without('maskSecrets'), want: /no server row for maskSecrets/ },
      { given: [...ROWS, row('brandNew', true, false)], want: /row "brandNew" is read by the server, but the server's Profile has no such field/ },
      { given: [...without('maskSecrets'), row('maskSecrets', true, 'no')], want: /row "maskSecrets" has a boolean for contract but a string for openmetadata/ },
      { given: [...without('hardDelete'), row('hardDelete', { status: 204 }, { status: 200, body: 'entity' })], want: /row "hardDelete" has a object \{status\} for contract/ },
      { given: [...ROWS, row('maskSecrets', true, false)], want: /row "maskSecrets" appears twice/ },
    ];
    for (const { given, want } of cases) expect(() => profilesFrom(given, 'profiles.json')).toThrow(want);
    // A suite-only row is none of the server's business.
    expect(() => profilesFrom([...ROWS, row('suiteOnly', 1, 2, ['suite'])])).not.toThrow();
  });

  it('names the profiles it knows when asked for another', () => {
    expect(() => profileByName('strict')).toThrow('Unknown profile "strict" (expected contract, openmetadata or openmetadata-1.10)');
  });
});
