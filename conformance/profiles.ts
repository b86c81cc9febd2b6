/**
 * What a target is expected to do where the contract and observed OpenMetadata disagree
 * (DESIGN.md "Behaviour profiles"). One row per deviation; checks read these, never the name.
 */
export type Profile = 'contract' | 'openmetadata';

export const PROFILES: readonly Profile[] = ['contract', 'openmetadata'];

export interface ProfileExpectations {
  /** Statuses accepted for a successful POST create (the contract does not show one). */
  createStatuses: readonly number[];
  /** A created entity carries owners, tags and domains as (empty) arrays. */
  emptyArraysRequired: boolean;
  /** Statuses accepted for a PUT upsert that created the entity. */
  upsertCreateStatuses: readonly number[];
  /** Hard delete: 204 and no body, or 200 and the deleted entity. */
  hardDelete: { status: number; body: 'none' | 'entity' };
  /** `errorType` must be present in error bodies and match the status. */
  errorTypeRequired: boolean;
  /** Add/remove follower answers the entity, or a ChangeEvent. */
  followerResponse: 'entity' | 'changeEvent';
  /** Path segment of the table profiler configuration, and what it answers. */
  profilerConfig: { segment: string; shape: 'config' | 'table' };
  /** Sample data shapes: contract `{columns:[{name,dataType}], rows}` or the table with `sampleData`. */
  sampleData: 'contract' | 'table';
  /** Status of DELETE profiler config / sample data. */
  tableSubresourceDeleteStatus: number;
  /** A service create without `connection` is invalid. */
  serviceConnectionRequired: boolean;
  /** The bulk answer must be OpenMetadata's BulkOperationResult with status 200. */
  bulkResultShape: boolean;
  /** Recursive deletes may be sent by name (OpenMetadata 1.7 ignores `recursive` on some /name paths). */
  recursiveDeleteByName: boolean;
}

const EXPECTATIONS: Record<Profile, ProfileExpectations> = {
  contract: {
    createStatuses: [200, 201],
    emptyArraysRequired: true,
    upsertCreateStatuses: [200, 201],
    hardDelete: { status: 204, body: 'none' },
    errorTypeRequired: true,
    followerResponse: 'entity',
    profilerConfig: { segment: 'profilerConfig', shape: 'config' },
    sampleData: 'contract',
    tableSubresourceDeleteStatus: 204,
    serviceConnectionRequired: true,
    bulkResultShape: false,
    recursiveDeleteByName: true,
  },
  openmetadata: {
    createStatuses: [201],
    emptyArraysRequired: false,
    upsertCreateStatuses: [201],
    hardDelete: { status: 200, body: 'entity' },
    errorTypeRequired: false,
    followerResponse: 'changeEvent',
    profilerConfig: { segment: 'tableProfilerConfig', shape: 'table' },
    sampleData: 'table',
    tableSubresourceDeleteStatus: 200,
    serviceConnectionRequired: false,
    bulkResultShape: true,
    recursiveDeleteByName: false,
  },
};

export function expectationsFor(profile: Profile): ProfileExpectations {
  return EXPECTATIONS[profile];
}

export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/** The contract's error type for an HTTP status (contract "Errors"). */
export const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'ENTITY_ALREADY_EXISTS',
};
