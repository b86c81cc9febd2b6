/**
 * What a target is expected to do where the interface specification and the real OpenMetadata
 * server disagree, or where the specification shows nothing: the rows of openapi/profiles.json that
 * the suite reads, the same table the reference server reads (src/config/profiles.ts). Each row is
 * a field of ProfileExpectations named by the row's id; checks read these, never the profile name.
 * The file is read once, when this module is loaded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `openmetadata` is OpenMetadata's 2.0 release line; `openmetadata-1.10` the 1.x server where 2.0 changed it. */
export type Profile = 'contract' | 'openmetadata' | 'openmetadata-1.10';

export const PROFILES: readonly Profile[] = ['contract', 'openmetadata', 'openmetadata-1.10'];

/** The profiles as a usage message offers them: `contract, openmetadata or openmetadata-1.10`. */
export const PROFILE_CHOICES = `${PROFILES.slice(0, -1).join(', ')} or ${PROFILES.at(-1)!}`;

/** openapi/profiles.json, from conformance/ and from dist/conformance/ alike (scripts/build.mjs copies it). */
export const PROFILE_TABLE_PATH = fileURLToPath(new URL('../openapi/profiles.json', import.meta.url));

/** One row of openapi/profiles.json (what the suite needs of it). */
export interface ProfileRow {
  id: string;
  governs: string;
  readBy: ('server' | 'suite')[];
  contract: unknown;
  openmetadata: unknown;
  /** The 1.x value where 2.0 changed it; absent: the `openmetadata` value. */
  'openmetadata-1.10'?: unknown;
}

/** A row's value in a profile: `openmetadata-1.10` falls back to `openmetadata` where 2.0 changed nothing. */
export function rowValue(row: ProfileRow, profile: Profile): unknown {
  return profile === 'openmetadata-1.10' && !Object.hasOwn(row, profile) ? row.openmetadata : row[profile];
}

/** The rows the suite reads, by id; what each governs is in openapi/profiles.json. */
export interface ProfileExpectations {
  createStatuses: readonly number[];
  emptyArraysRequired: boolean;
  upsertCreateStatuses: readonly number[];
  hardDelete: { status: number; body: 'none' | 'entity' };
  errorTypeInBody: boolean;
  socialResponse: 'entity' | 'changeEvent';
  profilerConfigPath: string;
  profilerConfigResponse: 'config' | 'table';
  sampleData: 'contract' | 'table';
  tableDataDelete: { status: number; body: 'none' | 'table' };
  serviceConnectionRequired: boolean;
  bulkResultShape: boolean;
  recursiveDeleteByName: boolean;
  profileReadsByFqn: boolean;
  entityNamePattern: string;
  searchAfter: 'repeated' | 'joined';
  lineageEvents: boolean;
  deleteStale: boolean;
}

/** Every field of ProfileExpectations: the suite rows the table must have, no more, no fewer. */
const SUITE_ROWS: Record<keyof ProfileExpectations, true> = {
  createStatuses: true,
  emptyArraysRequired: true,
  upsertCreateStatuses: true,
  hardDelete: true,
  errorTypeInBody: true,
  socialResponse: true,
  profilerConfigPath: true,
  profilerConfigResponse: true,
  sampleData: true,
  tableDataDelete: true,
  serviceConnectionRequired: true,
  bulkResultShape: true,
  recursiveDeleteByName: true,
  profileReadsByFqn: true,
  entityNamePattern: true,
  searchAfter: true,
  lineageEvents: true,
  deleteStale: true,
};

/** The JSON type of a value, with the keys of an object: both profiles' values must have the same. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return `object {${Object.keys(value).sort().join(', ')}}`;
  return value === null ? 'null' : typeof value;
}

/** Both profiles' expectations built from the table's suite rows; throws naming the row when the table does not fit. */
export function expectationsFrom(rows: readonly ProfileRow[], file = PROFILE_TABLE_PATH): Record<Profile, ProfileExpectations> {
  const values: Record<Profile, Record<string, unknown>> = { contract: {}, openmetadata: {}, 'openmetadata-1.10': {} };
  for (const row of rows) {
    if (!row.readBy.includes('suite')) continue;
    if (!Object.hasOwn(SUITE_ROWS, row.id)) throw new Error(`${file}: row "${row.id}" is read by the suite, but ProfileExpectations has no such field`);
    if (Object.hasOwn(values.contract, row.id)) throw new Error(`${file}: row "${row.id}" appears twice`);
    for (const profile of PROFILES.slice(1)) {
      if (shapeOf(row.contract) !== shapeOf(rowValue(row, profile)) || shapeOf(row.contract) === 'undefined') {
        throw new Error(`${file}: row "${row.id}" has a ${shapeOf(row.contract)} for contract but a ${shapeOf(rowValue(row, profile))} for ${profile}`);
      }
    }
    for (const profile of PROFILES) values[profile][row.id] = rowValue(row, profile);
  }
  const missing = Object.keys(SUITE_ROWS).filter((id) => !Object.hasOwn(values.contract, id));
  if (missing.length > 0) throw new Error(`${file}: no suite row for ${missing.join(', ')}`);
  return Object.fromEntries(PROFILES.map((profile) => [profile, Object.freeze(values[profile]) as unknown as ProfileExpectations])) as Record<Profile, ProfileExpectations>;
}

/** The rows of openapi/profiles.json. */
export function readProfileTable(file = PROFILE_TABLE_PATH): ProfileRow[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { rows: ProfileRow[] }).rows;
}

const EXPECTATIONS = expectationsFrom(readProfileTable());

export function expectationsFor(profile: Profile): ProfileExpectations {
  return EXPECTATIONS[profile];
}

export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/**
 * The answer fields `catalog-kit drift` compares by presence only, per profile: texts each
 * implementation words its own way (an error's `message`: docs/behaviour.md "Errors" fixes its
 * meaning, not its wording), so a difference in their wording is no drift.
 */
export const DRIFT_FREE_FIELDS: Readonly<Record<Profile, readonly string[]>> = {
  contract: ['message'],
  openmetadata: ['message'],
  'openmetadata-1.10': ['message'],
};

/**
 * The error type the interface specification gives each error status it lists (docs/behaviour.md
 * "Errors"); conformance/profiles.test.ts checks it against the Error schema of the OpenAPI document.
 */
export const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'ENTITY_ALREADY_EXISTS',
};
