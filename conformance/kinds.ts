/**
 * The entity kinds the suite drives, with the create bodies every implementation accepts
 * (custom service types, OpenMetadata's required fields for kinds the contract leaves open).
 */
export type KindId =
  | 'storageService'
  | 'mlmodelService'
  | 'dashboardService'
  | 'databaseService'
  | 'messagingService'
  | 'pipelineService'
  | 'apiService'
  | 'classification'
  | 'container'
  | 'dashboard'
  | 'database'
  | 'chart'
  | 'mlmodel'
  | 'topic'
  | 'pipeline'
  | 'apiCollection'
  | 'databaseSchema'
  | 'table'
  | 'dataContract';

type KindRole = 'service' | 'classification' | 'child';

export interface Kind {
  id: KindId;
  /** Collection path under the base URL. */
  path: string;
  role: KindRole;
  /** For children: the service kind that holds them. */
  serviceKind?: KindId;
  /** Containers may also sit under a container. */
  nestable?: boolean;
  /** The contract lists a create endpoint for it (otherwise the suite probes whether the target has it). */
  inContract: boolean;
  /** `PUT <path>/bulk` is in the contract for it. */
  bulk: boolean;
  followable: boolean;
  votable: boolean;
  /** Services: serviceType and connection.config. */
  serviceType?: string;
  connectionConfig?: Record<string, unknown>;
  /** Fields OpenMetadata requires on create for this kind. */
  extra?: Record<string, unknown>;
}

const svc = (id: KindId, path: string, serviceType: string, inContract: boolean, config?: Record<string, unknown>): Kind => ({
  id,
  path,
  role: 'service',
  inContract,
  bulk: inContract,
  followable: false,
  votable: false,
  serviceType,
  connectionConfig: config ?? { type: serviceType },
});

export const KINDS: Readonly<Record<KindId, Kind>> = {
  storageService: svc('storageService', '/v1/services/storageServices', 'CustomStorage', true),
  mlmodelService: svc('mlmodelService', '/v1/services/mlmodelServices', 'CustomMlModel', true),
  dashboardService: svc('dashboardService', '/v1/services/dashboardServices', 'CustomDashboard', true),
  databaseService: svc('databaseService', '/v1/services/databaseServices', 'CustomDatabase', true),
  messagingService: svc('messagingService', '/v1/services/messagingServices', 'CustomMessaging', false),
  pipelineService: svc('pipelineService', '/v1/services/pipelineServices', 'CustomPipeline', false),
  apiService: svc('apiService', '/v1/services/apiServices', 'Rest', false, {
    type: 'Rest',
    openAPISchemaURL: 'http://127.0.0.1/openapi.json',
  }),
  classification: {
    id: 'classification',
    path: '/v1/classifications',
    role: 'classification',
    inContract: true,
    bulk: false,
    followable: false,
    votable: false,
  },
  container: {
    id: 'container',
    path: '/v1/containers',
    role: 'child',
    serviceKind: 'storageService',
    nestable: true,
    inContract: true,
    bulk: true,
    followable: true,
    votable: true,
  },
  dashboard: {
    id: 'dashboard',
    path: '/v1/dashboards',
    role: 'child',
    serviceKind: 'dashboardService',
    inContract: true,
    bulk: true,
    followable: true,
    votable: true,
  },
  database: {
    id: 'database',
    path: '/v1/databases',
    role: 'child',
    serviceKind: 'databaseService',
    inContract: true,
    bulk: true,
    followable: false,
    votable: false,
  },
  chart: {
    id: 'chart',
    path: '/v1/charts',
    role: 'child',
    serviceKind: 'dashboardService',
    inContract: false,
    bulk: false,
    followable: false,
    votable: false,
  },
  mlmodel: {
    id: 'mlmodel',
    path: '/v1/mlmodels',
    role: 'child',
    serviceKind: 'mlmodelService',
    inContract: false,
    bulk: false,
    followable: false,
    votable: false,
    extra: { algorithm: 'custom' },
  },
  topic: {
    id: 'topic',
    path: '/v1/topics',
    role: 'child',
    serviceKind: 'messagingService',
    inContract: false,
    bulk: false,
    followable: false,
    votable: false,
    extra: { partitions: 1 },
  },
  pipeline: {
    id: 'pipeline',
    path: '/v1/pipelines',
    role: 'child',
    serviceKind: 'pipelineService',
    inContract: false,
    bulk: false,
    followable: false,
    votable: false,
  },
  apiCollection: {
    id: 'apiCollection',
    path: '/v1/apiCollections',
    role: 'child',
    serviceKind: 'apiService',
    inContract: false,
    bulk: false,
    followable: false,
    votable: false,
  },
  // Used by the table scenarios only (create endpoints from OpenMetadata, not in the contract).
  databaseSchema: {
    id: 'databaseSchema',
    path: '/v1/databaseSchemas',
    role: 'child',
    serviceKind: 'databaseService',
    inContract: false,
    bulk: false,
    followable: false,
    votable: false,
  },
  table: {
    id: 'table',
    path: '/v1/tables',
    role: 'child',
    serviceKind: 'databaseService',
    inContract: false,
    bulk: false,
    followable: true,
    votable: true,
  },
  // Used by the data contract scenario only: it belongs to an entity (`entity: {id, type}`), not to a service.
  dataContract: {
    id: 'dataContract',
    path: '/v1/dataContracts',
    role: 'child',
    inContract: true,
    bulk: false,
    followable: false,
    votable: false,
  },
};

export const KIND_IDS = Object.keys(KINDS) as KindId[];

/** The kinds the random sequences create, in a fixed order (generation must not depend on the target). */
export const DRIVEN_KINDS: readonly KindId[] = [
  'storageService',
  'container',
  'mlmodelService',
  'dashboardService',
  'dashboard',
  'databaseService',
  'database',
  'classification',
  'chart',
  'mlmodel',
  'topic',
  'pipeline',
  'apiCollection',
];

/** Quote a name part the way fully qualified names do (docs/behaviour.md "Fully qualified names"): wrap it in quotes when it has a dot. */
export function quoteName(name: string): string {
  return name.includes('.') ? `"${name}"` : name;
}

/** The create body of an entity of `kind`; `parentFqn` is the service FQN for children. */
export function createBody(kind: Kind, name: string, description: string, parent?: { serviceFqn: string; container?: { id: string } }): Record<string, unknown> {
  if (kind.role === 'service') {
    return { name, description, serviceType: kind.serviceType, connection: { config: { ...kind.connectionConfig } } };
  }
  if (kind.role === 'classification') return { name, description };
  const body: Record<string, unknown> = { name, description, service: parent?.serviceFqn, ...kind.extra };
  if (parent?.container) body.parent = { id: parent.container.id, type: 'container' };
  return body;
}
