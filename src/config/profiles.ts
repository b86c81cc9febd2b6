/**
 * Behaviour profiles (docs/behaviour.md "Profiles"). `contract` follows the interface
 * specification where it and the real OpenMetadata server disagree; `openmetadata` follows the
 * real server of the 2.0 release line, `openmetadata-1.10` the 1.x server where 2.0 changed it. The differences are the rows of openapi/profiles.json, the one table the server and
 * the conformance suite (conformance/profiles.ts) both read: every row the server reads is a field
 * of `Profile` named by the row's id, and code asks `profile.<id>` instead of comparing profile
 * names. The table is imported as a JSON module: the catalog runs in browsers too, where no file
 * is read.
 */
import TABLE from '../../openapi/profiles.json' with { type: 'json' };

export type ProfileName = 'contract' | 'openmetadata' | 'openmetadata-1.10';

/** One row of openapi/profiles.json. */
export interface ProfileRow {
  id: string;
  /** What the row decides, in a sentence. */
  governs: string;
  /** Who reads the row: the server (this module), the conformance suite, or both. */
  readBy: ('server' | 'suite')[];
  contract: unknown;
  openmetadata: unknown;
  /** The 1.x value where 2.0 changed it; absent: the `openmetadata` value. */
  'openmetadata-1.10'?: unknown;
  /** Where each value comes from: the interface specification or observed OpenMetadata behaviour. */
  source: Partial<Record<ProfileName, string>> & Record<'contract' | 'openmetadata', string>;
}

/** The rows the server reads, by id; what each governs is in openapi/profiles.json. */
export interface ProfileDifferences {
  readonly hardDelete: { readonly status: number; readonly body: 'none' | 'entity' };
  readonly errorTypeInBody: boolean;
  readonly socialResponse: 'entity' | 'changeEvent';
  readonly followerBodyMayBeText: boolean;
  readonly profilerConfigResponse: 'config' | 'table';
  readonly tableDataDelete: { readonly status: number; readonly body: 'none' | 'table' };
  readonly sampleData: 'contract' | 'table';
  readonly profileReadsByFqn: boolean;
  readonly emptyLatestResultIs204: boolean;
  readonly serviceConnectionRequired: boolean;
  readonly maskSecrets: boolean;
  readonly entityNamePattern: string;
  readonly searchAfter: 'repeated' | 'joined';
  readonly testCaseStatusFilter: 'many' | 'one';
  readonly lineageEvents: boolean;
  readonly entityShapes: 'document' | 'upstream';
}

export interface Profile extends ProfileDifferences {
  readonly name: ProfileName;
}

/** Every field of ProfileDifferences: the server rows the table must have, no more, no fewer. */
const SERVER_ROWS: Record<keyof ProfileDifferences, true> = {
  hardDelete: true,
  errorTypeInBody: true,
  socialResponse: true,
  followerBodyMayBeText: true,
  profilerConfigResponse: true,
  tableDataDelete: true,
  sampleData: true,
  profileReadsByFqn: true,
  emptyLatestResultIs204: true,
  serviceConnectionRequired: true,
  maskSecrets: true,
  entityNamePattern: true,
  searchAfter: true,
  testCaseStatusFilter: true,
  lineageEvents: true,
  entityShapes: true,
};

export const PROFILE_NAMES: readonly ProfileName[] = ['contract', 'openmetadata', 'openmetadata-1.10'];

/** The profiles as a message offers them: `contract, openmetadata or openmetadata-1.10` (conform and drift say it alike: conformance/profiles.ts). */
export const PROFILE_CHOICES = `${PROFILE_NAMES.slice(0, -1).join(', ')} or ${PROFILE_NAMES.at(-1)!}`;

/** A row's value in a profile: `openmetadata-1.10` falls back to `openmetadata` where 2.0 changed nothing. */
export function rowValue(row: Pick<ProfileRow, 'contract' | 'openmetadata' | 'openmetadata-1.10'>, name: ProfileName): unknown {
  return name === 'openmetadata-1.10' && !Object.hasOwn(row, name) ? row.openmetadata : row[name];
}

/** The JSON type of a value, with the keys of an object: both profiles' values must have the same. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return `object {${Object.keys(value).sort().join(', ')}}`;
  return value === null ? 'null' : typeof value;
}

/** Both profiles built from the table's server rows; throws naming the row when the table does not fit. */
export function profilesFrom(rows: readonly ProfileRow[], file = 'openapi/profiles.json'): Record<ProfileName, Profile> {
  const values: Record<ProfileName, Record<string, unknown>> = { contract: {}, openmetadata: {}, 'openmetadata-1.10': {} };
  for (const row of rows) {
    if (!row.readBy.includes('server')) continue;
    if (!Object.hasOwn(SERVER_ROWS, row.id)) throw new Error(`${file}: row "${row.id}" is read by the server, but the server's Profile has no such field`);
    if (Object.hasOwn(values.contract, row.id)) throw new Error(`${file}: row "${row.id}" appears twice`);
    for (const name of PROFILE_NAMES.slice(1)) {
      if (shapeOf(row.contract) !== shapeOf(rowValue(row, name)) || shapeOf(row.contract) === 'undefined') {
        throw new Error(`${file}: row "${row.id}" has a ${shapeOf(row.contract)} for contract but a ${shapeOf(rowValue(row, name))} for ${name}`);
      }
    }
    for (const name of PROFILE_NAMES) values[name][row.id] = rowValue(row, name);
  }
  const missing = Object.keys(SERVER_ROWS).filter((id) => !Object.hasOwn(values.contract, id));
  if (missing.length > 0) throw new Error(`${file}: no server row for ${missing.join(', ')}`);
  return Object.fromEntries(PROFILE_NAMES.map((name) => [name, Object.freeze({ ...values[name], name }) as unknown as Profile])) as Record<ProfileName, Profile>;
}

/** The rows of openapi/profiles.json. */
export function profileRows(): ProfileRow[] {
  return TABLE.rows as ProfileRow[];
}

export const PROFILES: Record<ProfileName, Profile> = profilesFrom(profileRows());

export function profileByName(name: string): Profile {
  const profile = (PROFILES as Record<string, Profile | undefined>)[name];
  if (!profile) throw new Error(`Unknown profile "${name}" (expected ${PROFILE_CHOICES})`);
  return profile;
}
