/**
 * Behaviour profiles (DESIGN.md "Behaviour profiles"). `contract` follows the contract where it and
 * observed OpenMetadata disagree; `openmetadata` follows the real server. This is the one table of
 * deviations the server reads; code asks `profile.<point>` instead of comparing profile names.
 */
export type ProfileName = 'contract' | 'openmetadata';

export interface Profile {
  readonly name: ProfileName;
  /** Hard delete: 204 with no body (contract) or 200 with the deleted entity (observed §1.4). */
  readonly hardDeleteReturnsEntity: boolean;
  /** Error body carries `errorType` (contract) or only `code` and `message` (observed §2.1). */
  readonly errorTypeInBody: boolean;
  /** Follow/unfollow/vote answer the entity (contract) or a ChangeEvent (observed §1.6–1.7). */
  readonly socialReturnsChangeEvent: boolean;
  /** The follower body may be bare UUID text as well as a JSON string (contract) or only JSON. */
  readonly followerBodyMayBeText: boolean;
  /** Profiler config GET/PUT answer the configuration (contract) or the table (observed §9). */
  readonly profilerConfigReturnsTable: boolean;
  /** Profiler config / sample data DELETE: 204 (contract) or 200 with the table (observed §9). */
  readonly tableDataDeleteReturnsTable: boolean;
  /** Sample data as `{columns:[{name,dataType}], rows}` (contract) or the table with `sampleData`. */
  readonly sampleDataReturnsTable: boolean;
  /** Profile reads keyed by table id (contract) or by table / column FQN (observed §9). */
  readonly profileReadsByFqn: boolean;
  /** Latest data contract result when there is none: 404 (contract) or 204 (observed §8.3). */
  readonly emptyLatestResultIs204: boolean;
  /** Service `connection` required on create (contract) or optional (observed Appendix C 15). */
  readonly serviceConnectionRequired: boolean;
  /** Secrets in `connection.config` masked in responses (contract) or returned as stored (§7.8). */
  readonly maskSecrets: boolean;
}

export const PROFILES: Record<ProfileName, Profile> = {
  contract: {
    name: 'contract',
    hardDeleteReturnsEntity: false,
    errorTypeInBody: true,
    socialReturnsChangeEvent: false,
    followerBodyMayBeText: true,
    profilerConfigReturnsTable: false,
    tableDataDeleteReturnsTable: false,
    sampleDataReturnsTable: false,
    profileReadsByFqn: false,
    emptyLatestResultIs204: false,
    serviceConnectionRequired: true,
    maskSecrets: true,
  },
  openmetadata: {
    name: 'openmetadata',
    hardDeleteReturnsEntity: true,
    errorTypeInBody: false,
    socialReturnsChangeEvent: true,
    followerBodyMayBeText: false,
    profilerConfigReturnsTable: true,
    tableDataDeleteReturnsTable: true,
    sampleDataReturnsTable: true,
    profileReadsByFqn: true,
    emptyLatestResultIs204: true,
    serviceConnectionRequired: false,
    maskSecrets: false,
  },
};

export function profileByName(name: string): Profile {
  const profile = (PROFILES as Record<string, Profile | undefined>)[name];
  if (!profile) throw new Error(`Unknown profile "${name}" (expected contract or openmetadata)`);
  return profile;
}
