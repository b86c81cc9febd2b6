/**
 * What the domain operations need from their surroundings, in one object: the store, the active
 * profile, the document's schema validators, a clock and an id source (both replaceable in tests).
 */
import type { Profile } from '../config/profiles.ts';
import type { ErrorDetail } from './errors.ts';
import type { ResourceDef } from '../resources/resource-table.ts';
import type { EntityStore, StoredEntity } from '../store/entity-store.ts';
import type { CreateRequest, Entity } from './entity.ts';

export interface SchemaValidators {
  /** Validates a value against a component schema of the document; returns the problems found. */
  validate(schemaName: string, value: unknown): ErrorDetail[];
  /** Top-level property names a component schema allows (for `fields=`). */
  propertyNames(schemaName: string): ReadonlySet<string>;
}

/** Per-kind rules, for the few kinds that truly behave differently. */
export interface KindRules {
  /** Computes the FQN (and any fields it derives) when it is not `<parent>.<name>`. */
  fqn?(request: CreateRequest, entity: Entity, ctx: CatalogContext): string;
  /** Extra checks before a new entity is stored. */
  beforeCreate?(entity: Entity, ctx: CatalogContext): void;
  /** Extra checks before an entity is deleted (soft or hard). */
  beforeDelete?(stored: StoredEntity, ctx: CatalogContext): void;
  /** Called after an entity is removed for good (to drop data kept beside it). */
  afterHardDelete?(stored: StoredEntity, ctx: CatalogContext): void;
}

/** Computes a relationship field that is not stored on the entity (children, table data...). */
export type FieldProvider = (stored: StoredEntity, ctx: CatalogContext) => unknown;

export interface CatalogContext {
  readonly store: EntityStore;
  readonly profile: Profile;
  readonly validators: SchemaValidators;
  readonly rules: ReadonlyMap<string, KindRules>;
  readonly fieldProviders: Map<string, FieldProvider>;
  now(): number;
  newId(): string;
}

export function rulesFor(ctx: CatalogContext, def: ResourceDef): KindRules {
  return ctx.rules.get(def.type) ?? {};
}
