/**
 * Every endpoint of the contract (the interface specification's sections "Endpoints" and
 * "Limits") is in the OpenAPI document, with its parameters, required body fields, enums and
 * documented statuses. The table below is written from the contract by hand; a missing endpoint
 * fails the test and is named.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundled, Json } from './document-helpers.ts';
import { deref, loadBundled, properties, requiredProperties } from './document-helpers.ts';

interface ContractEndpoint {
  method: 'get' | 'put' | 'post' | 'delete';
  path: string;
  params?: string[];
  requiredQuery?: string[];
  requiredBody?: string[];
  statuses: string[];
  section: string;
}

// "Create, upsert and bulk upsert": resource, path, required body fields (+ rules 2 and 5: 409, 400).
const CREATABLE: [string, string[], boolean][] = [
  ['/v1/containers', ['name', 'service'], true],
  ['/v1/services/storageServices', ['name', 'serviceType', 'connection'], true],
  ['/v1/services/mlmodelServices', ['name', 'serviceType', 'connection'], true],
  ['/v1/dashboards', ['name', 'service'], true],
  ['/v1/databases', ['name', 'service'], true],
  ['/v1/classifications', ['name'], false],
];

// "Delete and restore": the nine prefixes.
const PREFIXES = [
  '/v1/apiCollections',
  '/v1/databases',
  '/v1/services/storageServices',
  '/v1/topics',
  '/v1/pipelines',
  '/v1/dataQuality/testCases',
  '/v1/dashboards',
  '/v1/mlmodels',
  '/v1/charts',
];

const AUTH = ['401', '403'];

const TABLE: ContractEndpoint[] = [
  ...CREATABLE.flatMap(([path, required, bulk]): ContractEndpoint[] => [
    { method: 'post', path, requiredBody: required, statuses: ['400', '409', ...AUTH], section: 'Create rules 1, 2, 5' },
    { method: 'put', path, requiredBody: required, statuses: ['400', ...AUTH], section: 'Create rule 3' },
    ...(bulk ? [{ method: 'put' as const, path: `${path}/bulk`, statuses: ['400', ...AUTH], section: 'Create rule 4' }] : []),
  ]),
  ...PREFIXES.flatMap((prefix): ContractEndpoint[] => [
    { method: 'delete', path: `${prefix}/{id}`, params: ['id', 'recursive', 'hardDelete'], statuses: ['200', '204', '404', ...AUTH], section: 'Delete and restore' },
    { method: 'delete', path: `${prefix}/name/{fqn}`, params: ['fqn', 'recursive', 'hardDelete'], statuses: ['200', '204', '404', ...AUTH], section: 'Delete and restore' },
    { method: 'put', path: `${prefix}/restore`, statuses: ['200', '404', ...AUTH], section: 'Delete and restore' },
  ]),
  { method: 'post', path: '/v1/dataContracts/{id}/validate', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Data contracts' },
  {
    method: 'post',
    path: '/v1/dataContracts/entity/validate',
    params: ['entityId', 'entityType'],
    requiredQuery: ['entityId', 'entityType'],
    statuses: ['200', '404', ...AUTH],
    section: 'Data contracts',
  },
  { method: 'get', path: '/v1/dataContracts/{id}/results', params: ['id', 'limit', 'startTs', 'endTs'], statuses: ['200', '404', ...AUTH], section: 'Data contracts' },
  { method: 'get', path: '/v1/dataContracts/{id}/results/latest', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Data contracts' },
  {
    method: 'put',
    path: '/v1/dataContracts/{id}/results',
    params: ['id'],
    requiredBody: ['timestamp', 'contractExecutionStatus'],
    statuses: ['400', '404', ...AUTH],
    section: 'Data contracts',
  },
  { method: 'delete', path: '/v1/dataContracts/{id}/results/{timestamp}', params: ['id', 'timestamp'], statuses: ['404', ...AUTH], section: 'Data contracts' },
  { method: 'delete', path: '/v1/dataContracts/{id}/results/before/{timestamp}', params: ['id', 'timestamp'], statuses: ['404', ...AUTH], section: 'Data contracts' },
  { method: 'get', path: '/v1/tables/{id}/profilerConfig', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Table profiler' },
  { method: 'put', path: '/v1/tables/{id}/profilerConfig', params: ['id'], statuses: ['200', '400', '404', ...AUTH], section: 'Table profiler' },
  { method: 'delete', path: '/v1/tables/{id}/profilerConfig', params: ['id'], statuses: ['204', '404', ...AUTH], section: 'Table profiler' },
  { method: 'get', path: '/v1/tables/{id}/tableProfile', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Table profiler' },
  { method: 'get', path: '/v1/tables/{id}/columnProfile', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Table profiler' },
  { method: 'get', path: '/v1/tables/{id}/systemProfile', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Table profiler' },
  { method: 'get', path: '/v1/tables/{id}/sampleData', params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Table sample data' },
  { method: 'put', path: '/v1/tables/{id}/sampleData', params: ['id'], statuses: ['200', '400', '404', ...AUTH], section: 'Table sample data' },
  { method: 'delete', path: '/v1/tables/{id}/sampleData', params: ['id'], statuses: ['204', '404', ...AUTH], section: 'Table sample data' },
  ...['tables', 'dashboards'].flatMap((kind): ContractEndpoint[] => [
    { method: 'put', path: `/v1/${kind}/{id}/followers`, params: ['id'], statuses: ['200', '404', ...AUTH], section: 'Followers and votes' },
    { method: 'delete', path: `/v1/${kind}/{id}/followers/{userId}`, params: ['id', 'userId'], statuses: ['200', '404', ...AUTH], section: 'Followers and votes' },
    { method: 'put', path: `/v1/${kind}/{id}/vote`, params: ['id'], requiredBody: ['updatedVoteType'], statuses: ['200', '404', ...AUTH], section: 'Followers and votes' },
  ]),
];

let doc: Bundled;
beforeAll(async () => {
  doc = await loadBundled();
});

function operation(path: string, method: string): Json | undefined {
  return doc.paths[path]?.[method] as Json | undefined;
}

function parametersOf(path: string, method: string): Map<string, Json> {
  const item = doc.paths[path] ?? {};
  const list = [...((item.parameters as unknown[] | undefined) ?? []), ...((operation(path, method)?.parameters as unknown[] | undefined) ?? [])];
  return new Map(list.map((p) => deref(doc, p)).map((p) => [String(p.name), p]));
}

function jsonBodySchema(op: Json): unknown {
  const body = deref(doc, op.requestBody);
  return (body.content as Record<string, { schema: unknown }> | undefined)?.['application/json']?.schema;
}

describe('every contract endpoint is in the document', () => {
  it.each(TABLE.map((e) => [`${e.method.toUpperCase()} ${e.path}`, e] as const))('%s', (_name, endpoint) => {
    const op = operation(endpoint.path, endpoint.method);
    expect(op, `missing ${endpoint.method.toUpperCase()} ${endpoint.path} (contract "${endpoint.section}")`).toBeDefined();
    const params = parametersOf(endpoint.path, endpoint.method);
    for (const name of endpoint.params ?? []) expect(params.has(name), `parameter ${name}`).toBe(true);
    for (const name of endpoint.requiredQuery ?? []) expect(params.get(name)?.required, `${name} required`).toBe(true);
    const statuses = Object.keys(op!.responses as object);
    for (const status of endpoint.statuses) expect(statuses, `status ${status}`).toContain(status);
    if (endpoint.requiredBody) {
      const required = requiredProperties(doc, jsonBodySchema(op!));
      for (const field of endpoint.requiredBody) expect(required.has(field), `required body field ${field}`).toBe(true);
    }
  });
});

describe('the contract limits and enums are in the document', () => {
  it('limits data-contract results to 0..10,000, default 10 (contract "Limits")', () => {
    const limit = deref(doc, parametersOf('/v1/dataContracts/{id}/results', 'get').get('limit')!.schema);
    expect(limit).toMatchObject({ type: 'integer', minimum: 0, maximum: 10000, default: 10 });
  });

  it('has the contract execution statuses, vote types, profile sample types and service reference types', () => {
    const resultBody = jsonBodySchema(operation('/v1/dataContracts/{id}/results', 'put')!);
    expect(properties(doc, resultBody).get('contractExecutionStatus')?.enum).toEqual(
      expect.arrayContaining(['Running', 'Success', 'Failed', 'PartialSuccess', 'Aborted', 'Queued']),
    );
    expect(deref(doc, doc.components.schemas.VoteType).enum).toEqual(['votedUp', 'votedDown', 'unVoted']);
    expect(properties(doc, doc.components.schemas.TableProfilerConfig).get('profileSampleType')?.enum).toEqual(['PERCENTAGE', 'ROWS']);
    expect(deref(doc, doc.components.schemas.ServiceReferenceType).enum).toEqual(
      expect.arrayContaining(['storageService', 'dashboardService', 'databaseService', 'messagingService', 'pipelineService', 'mlmodelService', 'apiService']),
    );
  });

  it('lists the custom service types the contract names (CustomStorage, CustomMlModel)', () => {
    expect(deref(doc, doc.components.schemas.StorageServiceType).enum).toContain('CustomStorage');
    expect(deref(doc, doc.components.schemas.MlModelServiceType).enum).toContain('CustomMlModel');
  });

  it('has the fields of the contract tables on the container, classification and validation result', () => {
    const container = properties(doc, doc.components.schemas.CreateContainer);
    for (const f of [
      'name',
      'service',
      'displayName',
      'description',
      'parent',
      'prefix',
      'numberOfObjects',
      'size',
      'fileFormats',
      'dataModel',
      'fullPath',
      'owners',
      'domain',
      'tags',
      'extension',
    ]) {
      expect(container.has(f), `CreateContainer.${f}`).toBe(true);
    }
    const classification = properties(doc, doc.components.schemas.CreateClassification);
    for (const f of ['name', 'displayName', 'description', 'mutuallyExclusive', 'owners', 'provider']) expect(classification.has(f), `CreateClassification.${f}`).toBe(true);
    const result = properties(doc, doc.components.schemas.DataContractResult);
    for (const f of [
      'id',
      'dataContractFQN',
      'timestamp',
      'contractExecutionStatus',
      'result',
      'schemaValidation',
      'semanticsValidation',
      'qualityValidation',
      'slaValidation',
      'executionTime',
    ]) {
      expect(result.has(f), `DataContractResult.${f}`).toBe(true);
    }
  });
});
