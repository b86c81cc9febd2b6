/**
 * Entity types, derived from the generated OpenAPI types (never restated): every kind shares
 * `EntityBase`; the generic code treats kind-specific fields as open properties.
 */
import type { components } from '../../openapi/generated/schema.d.ts';

export type Schemas = components['schemas'];
export type EntityReference = Schemas['EntityReference'];
export type TagLabel = Schemas['TagLabel'];
export type ChangeDescription = Schemas['ChangeDescription'];
export type ChangeEvent = Schemas['ChangeEvent'];
export type Votes = Schemas['Votes'];
export type Paging = Schemas['Paging'];

/** A stored entity: the common fields plus whatever its kind adds. */
export type Entity = Schemas['EntityBase'] & { [field: string]: unknown };

/** A create request: `name` plus kind-specific fields. */
export type CreateRequest = Schemas['CreateEntityBase'] & { [field: string]: unknown };

/** Fields the server owns: a client cannot set them through PUT or PATCH. */
export const SYSTEM_FIELDS = new Set(['id', 'fullyQualifiedName', 'version', 'updatedAt', 'updatedBy', 'href', 'deleted', 'changeDescription', 'incrementalChangeDescription']);

/**
 * A reference to an entity, as other entities carry it (docs/behaviour.md "Reading"): its
 * `displayName` is the entity's, else its name (OpenMetadata's `EntityInterface.getEntityReference`);
 * responses add its `href` (src/core/projection.ts).
 */
export function referenceTo(type: string, entity: Entity): EntityReference {
  return {
    id: entity.id,
    type,
    name: entity.name,
    fullyQualifiedName: entity.fullyQualifiedName,
    displayName: typeof entity.displayName === 'string' && entity.displayName !== '' ? entity.displayName : entity.name,
    deleted: entity.deleted,
  };
}

/**
 * A copy of `base` with `fields` set, built key by key: of an entity (a new version), a reference
 * (with its `href`), any record an answer holds. A spread copy (`{ ...base, ...fields }`) keeps its
 * source's shape, and V8 adds a field that shape lacks (`href`, a first `changeDescription`) the
 * slow way, for every later read and JSON.stringify of it (bench: GET by id, POST create).
 */
export function withFields<T extends object>(base: T, fields: Partial<T> & Record<string, unknown>): T {
  const out = {} as Record<string, unknown>;
  for (const key in base) out[key] = base[key];
  for (const key in fields) out[key] = fields[key];
  return out as T;
}
