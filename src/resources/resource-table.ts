/**
 * The resource table (DESIGN.md "Resource table"): one row per entity kind. Generic handlers, the
 * store and the lifecycle serve every kind from these rows; per-kind code exists only where a kind
 * truly behaves differently (data contracts, table data, tags).
 */

/** How a create-request field that names another entity is resolved into a reference. */
export interface RefField {
  /** Kind(s) the value may name. */
  readonly kinds: readonly string[];
  /** `fqn`: a FQN string; `ref`: an `{id, type}` object; `id`: a UUID string; `name`: a user name. */
  readonly by: 'fqn' | 'ref' | 'id' | 'name';
  readonly many?: boolean;
  /** Response field name when it differs from the request field (`domain` → `domains`). */
  readonly as?: string;
  /** A single value stored as a one-element list (`domain: "Sales"` → `domains: [ref]`). */
  readonly asList?: boolean;
}

/** The entity that contains a new entity: gives its FQN prefix and its place in recursive deletes. */
export interface ParentRule {
  /** Create-request field naming the container (resolved with `refFields[field]`). */
  readonly field: string;
  /** Fields copied from the container into the child (e.g. a table's `service` from its schema). */
  readonly inherit?: readonly string[];
}

export interface ResourceDef {
  /** Entity type name, as in references and error messages (`container`, `storageService`). */
  readonly type: string;
  /** Collection path under `/api/v1`. */
  readonly collection: string;
  /** Component schema names in the OpenAPI document. */
  readonly schema: string;
  readonly createSchema: string;
  /** Containing entity, tried in order (a nested container's `parent` before its `service`). */
  readonly parents?: readonly ParentRule[];
  /** Request fields that name other entities. */
  readonly refFields?: Readonly<Record<string, RefField>>;
  /** Relationship fields: returned by GET/list only when asked for with `fields=`. */
  readonly relationshipFields: readonly string[];
  /** Empty arrays a new entity starts with (contract "Create" rule 1). */
  readonly emptyArrays: readonly string[];
  readonly followable: boolean;
  readonly votable: boolean;
  /** List query parameters matched against an FQN prefix (`service=svc` → `svc.*`). */
  readonly prefixFilters?: readonly string[];
  /** A change of one of these fields is a major version change (observed §3). */
  readonly majorFields?: readonly string[];
  /** Is this a service (the parent of assets, FQN = name, has `connection`)? */
  readonly isService?: boolean;
  /** Fields set at creation that PUT and PATCH silently keep (observed §10: `mutuallyExclusive`). */
  readonly immutableFields?: readonly string[];
  /** Defaults a new entity gets when the request leaves them out. */
  readonly defaults?: Readonly<Record<string, unknown>>;
}

// `tags` is not among them: OpenMetadata returns `tags: []` by default (observed Appendix C 13).
const BASE_REL = ['owners', 'domains', 'dataProducts', 'extension'] as const;
const ASSET_REL = [...BASE_REL, 'followers', 'votes'] as const;
const ASSET_ARRAYS = ['owners', 'tags', 'domains', 'followers'] as const;
const COMMON_REFS: Record<string, RefField> = {
  owners: { kinds: ['user', 'team'], by: 'ref', many: true },
  domain: { kinds: ['domain'], by: 'fqn', as: 'domains', asList: true },
  domains: { kinds: ['domain'], by: 'fqn', many: true },
  dataProducts: { kinds: ['dataProduct'], by: 'fqn', many: true },
};

function service(type: string, collection: string, schema: string): ResourceDef {
  return {
    type,
    collection: `services/${collection}`,
    schema,
    createSchema: `Create${schema}`,
    refFields: COMMON_REFS,
    relationshipFields: [...BASE_REL, 'followers', 'pipelines'],
    emptyArrays: ['owners', 'tags', 'domains', 'followers'],
    followable: true,
    votable: false,
    isService: true,
  };
}

function serviceAsset(type: string, collection: string, schema: string, serviceType: string, extra: Partial<ResourceDef> = {}): ResourceDef {
  return {
    type,
    collection,
    schema,
    createSchema: `Create${schema}`,
    parents: [{ field: 'service' }],
    refFields: { ...COMMON_REFS, service: { kinds: [serviceType], by: 'fqn' }, ...extra.refFields },
    relationshipFields: [...ASSET_REL, ...(extra.relationshipFields ?? [])],
    emptyArrays: ASSET_ARRAYS,
    followable: true,
    votable: true,
    prefixFilters: ['service'],
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'refFields' && k !== 'relationshipFields')),
  };
}

export const RESOURCES: readonly ResourceDef[] = [
  service('storageService', 'storageServices', 'StorageService'),
  service('mlmodelService', 'mlmodelServices', 'MlModelService'),
  service('dashboardService', 'dashboardServices', 'DashboardService'),
  service('databaseService', 'databaseServices', 'DatabaseService'),
  service('messagingService', 'messagingServices', 'MessagingService'),
  service('pipelineService', 'pipelineServices', 'PipelineService'),
  service('apiService', 'apiServices', 'ApiService'),
  serviceAsset('container', 'containers', 'Container', 'storageService', {
    parents: [{ field: 'parent', inherit: ['service', 'serviceType'] }, { field: 'service' }],
    refFields: { parent: { kinds: ['container'], by: 'ref' } },
    relationshipFields: ['children', 'parent', 'dataModel'],
  }),
  serviceAsset('dashboard', 'dashboards', 'Dashboard', 'dashboardService', {
    refFields: { charts: { kinds: ['chart'], by: 'fqn', many: true } },
    relationshipFields: ['charts', 'usageSummary', 'dataModels'],
  }),
  serviceAsset('chart', 'charts', 'Chart', 'dashboardService'),
  serviceAsset('database', 'databases', 'Database', 'databaseService', {
    relationshipFields: ['databaseSchemas', 'usageSummary', 'location'],
    defaults: { default: false, entityStatus: 'Unprocessed' },
  }),
  serviceAsset('databaseSchema', 'databaseSchemas', 'DatabaseSchema', 'databaseService', {
    parents: [{ field: 'database', inherit: ['service', 'serviceType'] }],
    refFields: { database: { kinds: ['database'], by: 'fqn' } },
    relationshipFields: ['tables', 'usageSummary'],
    prefixFilters: ['database'],
  }),
  serviceAsset('table', 'tables', 'Table', 'databaseService', {
    parents: [{ field: 'databaseSchema', inherit: ['service', 'serviceType', 'database'] }],
    refFields: { databaseSchema: { kinds: ['databaseSchema'], by: 'fqn' } },
    relationshipFields: ['tableProfilerConfig', 'sampleData', 'profile', 'usageSummary', 'testSuite'],
    prefixFilters: ['database', 'databaseSchema'],
    majorFields: ['columns'],
  }),
  serviceAsset('topic', 'topics', 'Topic', 'messagingService', { relationshipFields: ['sampleData'] }),
  serviceAsset('pipeline', 'pipelines', 'Pipeline', 'pipelineService', { relationshipFields: ['tasks', 'pipelineStatus'] }),
  serviceAsset('apiCollection', 'apiCollections', 'ApiCollection', 'apiService', { relationshipFields: ['apiEndpoints'] }),
  serviceAsset('apiEndpoint', 'apiEndpoints', 'ApiEndpoint', 'apiService', {
    parents: [{ field: 'apiCollection', inherit: ['service', 'serviceType'] }],
    refFields: { apiCollection: { kinds: ['apiCollection'], by: 'fqn' } },
    prefixFilters: ['apiCollection'],
  }),
  serviceAsset('mlmodel', 'mlmodels', 'MlModel', 'mlmodelService', {
    refFields: { dashboard: { kinds: ['dashboard'], by: 'fqn' } },
    relationshipFields: ['dashboard', 'usageSummary'],
    majorFields: ['algorithm'],
  }),
  {
    type: 'classification',
    collection: 'classifications',
    schema: 'Classification',
    createSchema: 'CreateClassification',
    refFields: COMMON_REFS,
    relationshipFields: [...BASE_REL, 'usageCount', 'termCount'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
    defaults: { mutuallyExclusive: false, provider: 'user', disabled: false },
    immutableFields: ['mutuallyExclusive'],
  },
  {
    type: 'tag',
    collection: 'tags',
    schema: 'Tag',
    createSchema: 'CreateTag',
    parents: [{ field: 'parent', inherit: ['classification'] }, { field: 'classification' }],
    refFields: { ...COMMON_REFS, classification: { kinds: ['classification'], by: 'fqn' }, parent: { kinds: ['tag'], by: 'fqn' } },
    relationshipFields: [...BASE_REL, 'children', 'usageCount'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
    prefixFilters: ['parent'],
    defaults: { mutuallyExclusive: false, provider: 'user', disabled: false },
    immutableFields: ['mutuallyExclusive'],
  },
  {
    type: 'user',
    collection: 'users',
    schema: 'User',
    createSchema: 'CreateUser',
    refFields: { ...COMMON_REFS, teams: { kinds: ['team'], by: 'id', many: true } },
    relationshipFields: [...BASE_REL, 'teams', 'roles', 'follows', 'owns'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
    defaults: { isAdmin: false, isBot: false },
  },
  {
    type: 'team',
    collection: 'teams',
    schema: 'Team',
    createSchema: 'CreateTeam',
    refFields: { ...COMMON_REFS, users: { kinds: ['user'], by: 'id', many: true } },
    relationshipFields: [...BASE_REL, 'users', 'parents', 'children'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
    defaults: { teamType: 'Group' },
  },
  {
    type: 'domain',
    collection: 'domains',
    schema: 'Domain',
    createSchema: 'CreateDomain',
    refFields: { ...COMMON_REFS, experts: { kinds: ['user'], by: 'name', many: true } },
    relationshipFields: [...BASE_REL, 'experts'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
  },
  {
    type: 'dataProduct',
    collection: 'dataProducts',
    schema: 'DataProduct',
    createSchema: 'CreateDataProduct',
    refFields: { ...COMMON_REFS, experts: { kinds: ['user'], by: 'name', many: true } },
    relationshipFields: [...BASE_REL, 'experts', 'assets'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
  },
  {
    type: 'testDefinition',
    collection: 'dataQuality/testDefinitions',
    schema: 'TestDefinition',
    createSchema: 'CreateTestDefinition',
    refFields: COMMON_REFS,
    relationshipFields: [...BASE_REL],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
  },
  {
    type: 'testSuite',
    collection: 'dataQuality/testSuites',
    schema: 'TestSuite',
    createSchema: 'CreateTestSuite',
    refFields: COMMON_REFS,
    relationshipFields: [...BASE_REL, 'tests'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
  },
  {
    type: 'testCase',
    collection: 'dataQuality/testCases',
    schema: 'TestCase',
    createSchema: 'CreateTestCase',
    refFields: {
      ...COMMON_REFS,
      testDefinition: { kinds: ['testDefinition'], by: 'fqn' },
      testSuite: { kinds: ['testSuite'], by: 'fqn' },
    },
    relationshipFields: [...BASE_REL, 'testCaseResult'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
  },
  {
    type: 'dataContract',
    collection: 'dataContracts',
    schema: 'DataContract',
    createSchema: 'CreateDataContract',
    refFields: {
      ...COMMON_REFS,
      entity: { kinds: ['table', 'topic', 'dashboard', 'container', 'apiEndpoint', 'mlmodel', 'dataProduct', 'pipeline'], by: 'ref' },
      qualityExpectations: { kinds: ['testCase'], by: 'ref', many: true },
      reviewers: { kinds: ['user', 'team'], by: 'ref', many: true },
    },
    relationshipFields: [...BASE_REL, 'reviewers'],
    emptyArrays: ['owners', 'tags', 'domains'],
    followable: false,
    votable: false,
  },
];

const BY_TYPE = new Map(RESOURCES.map((r) => [r.type, r]));
const BY_COLLECTION = new Map(RESOURCES.map((r) => [r.collection, r]));

export function resourceByType(type: string): ResourceDef {
  const def = BY_TYPE.get(type);
  if (!def) throw new Error(`No resource of type ${type}`);
  return def;
}

export function resourceByCollection(collection: string): ResourceDef | undefined {
  return BY_COLLECTION.get(collection);
}
