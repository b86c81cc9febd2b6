/**
 * What the domain operations need from their surroundings, in one object: the store, the active
 * profile, the document's schema validators, the kinds served, a clock and an id source (both
 * replaceable in tests) — and what a kind is: its row (collection, schemas, parents, references,
 * fields) and its behaviour as named hooks. The generic code (the lifecycle, listing, projection,
 * references, dependents, the generic routes) serves every kind from these and names none; each
 * kind's module in src/kinds/ says what is particular about it (docs/adding-a-kind.md).
 */
import { randomUUID } from '../platform/random.ts';
import type { Profile } from '../config/profiles.ts';
import type { CsvHook } from './csv-hook.ts';
import type { StoredEntity } from './entity-store.ts';
import { EntityStore } from './entity-store.ts';
import type { ChangeEvent, CreateRequest, Entity } from './entity.ts';
import type { SchemaValidators } from '../openapi/schema-validators.ts';

export type { SchemaValidators };

export interface CatalogContext {
  readonly store: EntityStore;
  readonly profile: Profile;
  readonly validators: SchemaValidators;
  /** The kinds served, each with its row and hooks (src/kinds/index.ts). */
  readonly kinds: KindRegistry;
  /** Change events (src/core/change-events.ts): how many are kept, and who hears of each one recorded. */
  readonly events: ChangeEventSettings;
  /** What one request may make the catalog hold or reach (docs/behaviour.md "Limits of one request"). */
  readonly limits: CatalogLimits;
  now(): number;
  newId(): string;
}

/** What the change events of a context are kept and sent to (docs/behaviour.md "Events"). */
interface ChangeEventSettings {
  /** The most change events kept, and the most feed notifications; the oldest go first. */
  readonly max: number;
  /** Called with each change event once it is recorded (the webhook sender queues it); an exception is not the write's. */
  readonly listeners: Set<(event: ChangeEvent) => void>;
}

/** What one request may make the catalog hold or reach (docs/behaviour.md "Limits of one request"). */
export interface CatalogLimits {
  /** The largest entity, as JSON, a JSON Patch may make: the request body limit (`serve --body-limit`), since no body could send a larger one. */
  readonly documentBytes: number;
  /** Host patterns outside loopback that webhooks may call (`serve --webhook-allow`; src/features/events/destinations.ts); none by default. */
  readonly webhookHosts: readonly string[];
}

/** 1 MiB: the default request body limit (`serve --body-limit 1mb`). */
const DEFAULT_DOCUMENT_BYTES = 1024 * 1024;

/** The default of `ChangeEventSettings.max` (`serve --max-events`). */
const DEFAULT_MAX_EVENTS = 10_000;

/** The kinds a context serves (src/kinds/registry.ts builds one from a list of kinds). */
export interface KindRegistry {
  /** Every kind, in the order listed. */
  readonly all: readonly Kind[];
  /** The kind whose entities follow, vote and are named by tokens (`principal`). */
  readonly principal: Kind;
  /** The kind of this type; an unknown type is a programming error (the store holds listed kinds only). */
  of(type: string): Kind;
  /** The kind applied as tag labels with this `source`, if one is listed. */
  labelledAs(source: string): Kind | undefined;
}

export interface CatalogContextOptions {
  readonly profile: Profile;
  readonly validators: SchemaValidators;
  /** The kinds to serve: the server's are src/kinds/index.ts `KINDS`; a test may add its own. */
  readonly kinds: KindRegistry;
  /** Clock (epoch ms) and id source; default the system clock and random UUIDs. */
  readonly now?: (() => number) | undefined;
  readonly newId?: (() => string) | undefined;
  /** The most change events kept (default 10,000). */
  readonly maxEvents?: number | undefined;
  /** What one request may make the catalog hold or reach; each left out takes its default. */
  readonly limits?: Partial<CatalogLimits> | undefined;
}

/** A catalog context with an empty store. */
export function createCatalogContext(options: CatalogContextOptions): CatalogContext {
  return {
    store: new EntityStore(),
    profile: options.profile,
    validators: options.validators,
    kinds: options.kinds,
    events: { max: options.maxEvents ?? DEFAULT_MAX_EVENTS, listeners: new Set() },
    limits: { documentBytes: options.limits?.documentBytes ?? DEFAULT_DOCUMENT_BYTES, webhookHosts: options.limits?.webhookHosts ?? [] },
    now: options.now ?? (() => Date.now()),
    newId: options.newId ?? (() => randomUUID()),
  };
}

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
interface ParentRule {
  /** Create-request field naming the container (resolved with `refFields[field]`). */
  readonly field: string;
  /** Fields copied from the container into the child (e.g. a table's `service` from its schema). */
  readonly inherit?: readonly string[];
}

/** Computes a relationship field that is not stored on the entity (memberships, table data...). */
type FieldProvider = (stored: StoredEntity, ctx: CatalogContext) => unknown;

/**
 * A list query parameter that is not an FQN prefix: given the parameter's value, the test an entity
 * must pass, or undefined when that value filters nothing (`root=false`).
 */
export type ListFilter = (value: unknown, ctx: CatalogContext) => ((entity: Entity) => boolean) | undefined;

export interface Kind {
  // The row: what the generic code serves every kind from.

  /** Entity type name, as in references and error messages (`container`, `storageService`). */
  readonly type: string;
  /** Collection path under `/api/v1` (`containers`, `services/storageServices`). */
  readonly collection: string;
  /** Component schema names in the OpenAPI document: the entity and its create request. */
  readonly schema: string;
  readonly createSchema: string;
  /** Containing entity, tried in order (a nested container's `parent` before its `service`). */
  readonly parents?: readonly ParentRule[];
  /** Request fields that name other entities. */
  readonly refFields?: Readonly<Record<string, RefField>>;
  /** Relationship fields: returned by GET and list only when asked for with `fields=`. */
  readonly relationshipFields: readonly string[];
  /** Empty arrays a new entity starts with (docs/behaviour.md "Create"). */
  readonly emptyArrays: readonly string[];
  /** Served `PUT /{id}/followers` and `DELETE /{id}/followers/{userId}`; starts with `followers: []`. */
  readonly followable: boolean;
  /** Served `PUT /{id}/vote`; starts with zero votes. */
  readonly votable: boolean;
  /** List query parameters matched against an FQN prefix (`service=svc` → `svc.*`). */
  readonly prefixFilters?: readonly string[];
  /** A change of one of these fields is a major version change (docs/behaviour.md "Versions"). */
  readonly majorFields?: readonly string[];
  /** Fields set at creation that PUT and PATCH silently keep (a classification's `mutuallyExclusive`). */
  readonly immutableFields?: readonly string[];
  /** Defaults a new entity gets when the request leaves them out. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** A delete is always for good, as if `hardDelete=true` were given (event subscriptions). */
  readonly hardDeleteOnly?: boolean;
  /** The change event types the kind's creates and updates are recorded as, where not the generic ones (tasks: `taskCreated`, `taskUpdated`). */
  readonly changeEventTypes?: Readonly<Partial<Record<'entityCreated' | 'entityUpdated', 'taskCreated' | 'taskUpdated'>>>;

  // Hooks: what is particular about the kind. Each is optional; without it the generic rule applies.

  /**
   * The create request in the fields the entity keeps, for create and upsert alike, when they
   * differ (an event subscription's `resources` are kept as `filteringRules.resources`). Returns a
   * new request; the one given is not changed.
   */
  fromRequest?(request: CreateRequest, ctx: CatalogContext): CreateRequest;

  /**
   * The FQN of a new entity (and any fields it derives) when it is not `<parent FQN>.<name>`, or
   * the quoted name for a kind without parents.
   */
  fqn?(request: CreateRequest, entity: Entity, ctx: CatalogContext): string;
  /**
   * Sets the fields a create or upsert request names in terms the store does not hold as entities
   * (a user's role names → role references); runs once the request's references are resolved; throws to refuse.
   */
  resolveRequest?(request: CreateRequest, entity: Entity, ctx: CatalogContext): void;
  /** Checks a new entity (its FQN set, its references resolved) before it is stored; throws to refuse. */
  beforeCreate?(entity: Entity, ctx: CatalogContext): void;
  /**
   * Checks an entity as a write would store it, beyond its schema: the entity a create or an
   * upsert request makes, a patched entity, an entity of an imported state (src/app/state/state.ts);
   * throws a CatalogError to refuse (a data contract's rule over its limits, a webhook to a host
   * the server may not call).
   */
  beforeWrite?(entity: Entity, ctx: CatalogContext): void;
  /** Checks before an entity is deleted, soft or hard; throws to refuse. */
  beforeDelete?(stored: StoredEntity, ctx: CatalogContext): void;
  /**
   * The entities of this kind that cannot outlive `removed` (of any kind): when it is removed for
   * good they are removed too (a table's test cases and data contract go with the table).
   */
  dependentsOf?(removed: StoredEntity, ctx: CatalogContext): StoredEntity[];
  /**
   * Relationship fields listing the live children of an entity from the store's parent → children
   * index, by child type (`{ tables: 'table' }` on a schema).
   */
  readonly childFields?: Readonly<Record<string, string>>;
  /** List query parameters that filter by a test on each entity (`disabled=true`). */
  readonly listFilters?: Readonly<Record<string, ListFilter>>;
  /** Relationship fields computed on read rather than stored (`fields=teams` on a user). */
  readonly extraFields?: Readonly<Record<string, FieldProvider>>;
  /**
   * Entities of this kind are applied to others as tag labels with this `source` (a tag:
   * `Classification`). When one is removed for good, its labels leave the entities that carried them.
   */
  readonly labelSource?: string;
  /**
   * Checks that an entity of this kind may be applied as a label (throws when it may not) and names
   * the group within which labels exclude each other, if any.
   */
  asLabel?(stored: StoredEntity, ctx: CatalogContext): { exclusiveGroup?: string };
  /** The kind of the catalog's users: followers and voters are entities of this kind. Exactly one kind. */
  readonly principal?: boolean;
  /**
   * CSV export and import of what an entity of this kind holds: its columns and rows
   * (`/name/{fqn}/export`, `/import`; src/core/csv-hook.ts, docs/behaviour.md "CSV import and export").
   */
  readonly csv?: CsvHook;
  /**
   * Entities of this kind can be the ends of lineage edges (docs/behaviour.md "Lineage"): the names,
   * relative to the entity's FQN, of the parts column-level lineage may name on one (charts,
   * features, an endpoint's fields). A kind with `columnsAt` offers its columns without it; a kind
   * with neither takes no part in lineage.
   */
  lineageChildren?(entity: Entity): readonly string[];
  /**
   * Where an entity of this kind keeps its columns or schema fields, each place a path of fields
   * (`[['columns']]`, `[['dataModel', 'columns']]`, a topic's `[['messageSchema', 'schemaFields']]`):
   * the server names each one `<entity FQN>.<name>`, a nested one `<parent's FQN>.<child>`
   * (src/core/column-names.ts), and column-level lineage may name them (src/features/lineage/edges.ts).
   */
  readonly columnsAt?: readonly (readonly string[])[];
}
