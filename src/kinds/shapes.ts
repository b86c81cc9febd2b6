/**
 * Row builders shared by the kind modules: the seven services, the assets under a service, and the
 * governance kinds (users, teams, domains, tags, data quality...), which differ only in a few
 * fields. A kind module calls one of them and adds what is its own.
 */
import type { EntityReference } from '../core/entity.ts';
import type { Kind, ListFilter, RefField } from '../core/context.ts';

// `tags` is not among them: a new entity shows `tags: []` without asking (docs/behaviour.md "Create").
const BASE_RELATIONSHIPS = ['owners', 'domains', 'dataProducts', 'extension'] as const;
const ASSET_RELATIONSHIPS = [...BASE_RELATIONSHIPS, 'followers', 'votes'] as const;
const EMPTY_ARRAYS = ['owners', 'tags', 'domains'] as const;

/** Request fields every kind accepts that name other entities. */
const COMMON_REFS: Readonly<Record<string, RefField>> = {
  owners: { kinds: ['user', 'team'], by: 'ref', many: true },
  domain: { kinds: ['domain'], by: 'fqn', as: 'domains', asList: true },
  domains: { kinds: ['domain'], by: 'fqn', many: true },
  dataProducts: { kinds: ['dataProduct'], by: 'fqn', many: true },
};

/** `?domain=<fqn>`: only entities of that domain (docs/behaviour.md "Listing"). Every kind has domains. */
const COMMON_FILTERS: Readonly<Record<string, ListFilter>> = {
  domain: (value) => (e) => Array.isArray(e.domains) && (e.domains as EntityReference[]).some((d) => d.fullyQualifiedName === value),
};

/** The parent rule of an asset named by its service: the asset copies the service's `serviceType`. */
export const SERVICE_PARENT = { field: 'service', inherit: ['serviceType'] } as const;

/** A service: the root of its assets, FQN = its name, followable, with a `connection`. */
export function service(type: string, collection: string, schema: string): Kind {
  return {
    type,
    collection: `services/${collection}`,
    schema,
    createSchema: `Create${schema}`,
    refFields: COMMON_REFS,
    relationshipFields: [...BASE_RELATIONSHIPS, 'followers', 'pipelines'],
    emptyArrays: [...EMPTY_ARRAYS, 'followers'],
    followable: true,
    votable: false,
    listFilters: COMMON_FILTERS,
  };
}

/**
 * An asset under a service of `serviceType` (named by FQN in `service`, whose `serviceType` it
 * copies): followable, votable, listed by `?service=`. `extra` adds to the reference fields,
 * relationship fields and list filters and replaces anything else.
 */
export function serviceAsset(type: string, collection: string, schema: string, serviceType: string, extra: Partial<Kind> = {}): Kind {
  const { refFields, relationshipFields, listFilters, ...rest } = extra;
  return {
    type,
    collection,
    schema,
    createSchema: `Create${schema}`,
    parents: [SERVICE_PARENT],
    refFields: { ...COMMON_REFS, service: { kinds: [serviceType], by: 'fqn' }, ...refFields },
    relationshipFields: [...ASSET_RELATIONSHIPS, ...(relationshipFields ?? [])],
    emptyArrays: [...EMPTY_ARRAYS, 'followers'],
    followable: true,
    votable: true,
    prefixFilters: ['service'],
    listFilters: { ...COMMON_FILTERS, ...listFilters },
    ...rest,
  };
}

/**
 * A kind outside the service tree (users, teams, domains, tags, data quality, contracts): neither
 * followable nor votable. `extra` adds to the reference fields, relationship fields and list
 * filters and replaces anything else.
 */
export function governed(type: string, collection: string, schema: string, extra: Partial<Kind> = {}): Kind {
  const { refFields, relationshipFields, listFilters, ...rest } = extra;
  return {
    type,
    collection,
    schema,
    createSchema: `Create${schema}`,
    refFields: { ...COMMON_REFS, ...refFields },
    relationshipFields: [...BASE_RELATIONSHIPS, ...(relationshipFields ?? [])],
    emptyArrays: EMPTY_ARRAYS,
    followable: false,
    votable: false,
    listFilters: { ...COMMON_FILTERS, ...listFilters },
    ...rest,
  };
}
