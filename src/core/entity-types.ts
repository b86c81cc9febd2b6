/**
 * Types and custom properties (docs/behaviour.md "Custom properties"; OpenMetadata's TypeResource
 * and TypeRepository): the property types (property-types.ts) and one entity type per kind the
 * server serves, derived from the kinds, each with the custom properties that extend it. Only what
 * a client changes is stored: an entity type with custom properties (or an edited description) is
 * kept in the store's side data area `types`, keyed by its name, so reset, export, import and the
 * `--data` journal carry it; the rest is derived. Type ids are derived from names, so they are the
 * same across restarts and exports.
 *
 * Adding a property (or editing the type with JSON Patch) makes a new version of the type. A
 * property removed, or given another property type, takes its values off every entity of the type
 * (no new version of those entities), as OpenMetadata deletes the values it stored.
 */
import { patchedCopy } from './json-patch.ts';
import type { Operation } from 'fast-json-patch';
import { CatalogError } from './errors.ts';
import type { CatalogContext, Kind } from './context.ts';
import type { Entity, Paging, Schemas } from './entity.ts';
import { describeChange, INITIAL_VERSION, isEmptyChange, nextMinor } from './versioning.ts';
import { detailsText } from '../openapi/validation-details.ts';
import { NO_ENTITY, sideValue } from './side-data.ts';
import type { PropertyType } from './property-types.ts';
import { nameUuid, propertyTypeNamed, propertyTypeWithId, propertyTypes } from './property-types.ts';
import { textToBase64url } from '../platform/encoding.ts';

export type Type = Schemas['Type'];
export type CustomProperty = Schemas['CustomProperty'];
export type TypeField = Schemas['TypeField'];

/** Entity types a client changed, by name (`sideData.types.<name>` in the state export). */
const CHANGED = sideValue<Type>({ group: 'types', owner: NO_ENTITY, schema: 'Type' });

/** When the built-in types date from (their `updatedAt`): 2025-01-01T00:00:00Z. */
const BUILT_IN_AT = 1_735_689_600_000;

function propertyTypeEntity(type: PropertyType): Type {
  return {
    id: nameUuid(type.name),
    name: type.name,
    fullyQualifiedName: type.name,
    displayName: type.name,
    description: type.description,
    category: 'field',
    nameSpace: 'basic',
    schema: JSON.stringify(type.schema),
    version: INITIAL_VERSION,
    updatedAt: BUILT_IN_AT,
    updatedBy: 'admin',
  };
}

function entityTypeEntity(ctx: CatalogContext, kind: Kind): Type {
  const changed = ctx.store.getSide(CHANGED, kind.type);
  if (changed) return structuredClone(changed) as Type;
  return {
    id: nameUuid(kind.type),
    name: kind.type,
    fullyQualifiedName: kind.type,
    displayName: kind.schema,
    description: `The ${kind.schema} entity, served at /v1/${kind.collection}.`,
    category: 'entity',
    nameSpace: 'data',
    customProperties: [],
    version: INITIAL_VERSION,
    updatedAt: BUILT_IN_AT,
    updatedBy: 'admin',
  };
}

/** Every type, by name. */
function allTypes(ctx: CatalogContext): Type[] {
  return [...propertyTypes().map(propertyTypeEntity), ...ctx.kinds.all.map((kind) => entityTypeEntity(ctx, kind))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `fields=`: only `customProperties` (or `*`) is a field of a type; anything else is 400 `Invalid field name <x>`. */
export function parseTypeFields(raw: unknown): boolean {
  if (raw === undefined || raw === '') return false;
  let custom = false;
  for (const name of String(raw)
    .split(',')
    .map((f) => f.trim())) {
    if (name === '') continue;
    if (name !== 'customProperties' && name !== '*') throw CatalogError.badRequest(`Invalid field name ${name}`);
    custom = true;
  }
  return custom;
}

/** A type as a response shows it: `customProperties` only when asked for. */
export function showType(type: Type, withCustomProperties: boolean): Type {
  const out = { ...type };
  if (!withCustomProperties) delete out.customProperties;
  return out;
}

function encodeName(name: string): string {
  return textToBase64url(name);
}

/** `GET /v1/metadata/types`: by name, `category` keeps one category, cursor paging as every list. */
export function listTypes(ctx: CatalogContext, query: { category?: string; limit: number; before?: string; after?: string }): { data: Type[]; paging: Paging } {
  if (query.before !== undefined && query.after !== undefined) throw CatalogError.badRequest('Only one of before or after query parameter allowed');
  const types = allTypes(ctx).filter((t) => query.category === undefined || t.category === query.category);
  const position = (cursor: string): number => {
    const index = types.findIndex((t) => encodeName(t.name) === cursor);
    if (index === -1) throw CatalogError.badRequest(`Invalid cursor ${cursor}`);
    return index;
  };
  const paging: Paging = { total: types.length };
  if (query.limit === 0) return { data: [], paging };
  let start: number;
  let end: number;
  if (query.before !== undefined) {
    end = position(query.before);
    start = Math.max(0, end - query.limit);
  } else {
    start = query.after !== undefined ? position(query.after) + 1 : 0;
    end = Math.min(types.length, start + query.limit);
  }
  const data = types.slice(start, end);
  if (data.length && start > 0) paging.before = encodeName(data[0]!.name);
  if (data.length && end < types.length) paging.after = encodeName(data.at(-1)!.name);
  return { data, paging };
}

/**
 * A type by id or by name; 404 `type instance for <x> not found`. Builds only the type it finds
 * (each type's id is a hash of its name; the demo catalog's custom properties look up types as it
 * loads: bench, cold start).
 */
export function findType(ctx: CatalogContext, by: 'id' | 'name', value: string): Type {
  const property = by === 'id' ? propertyTypeWithId(value) : propertyTypeNamed(value);
  if (property) return propertyTypeEntity(property);
  const kind = ctx.kinds.all.find((k) => (by === 'id' ? nameUuid(k.type) === value : k.type === value));
  if (!kind) throw CatalogError.notFound('type', value);
  return entityTypeEntity(ctx, kind);
}

/** An entity type's kind; 404 when no entity type has the name. */
function kindOf(ctx: CatalogContext, name: string): Kind {
  const kind = ctx.kinds.all.find((k) => k.type === name);
  if (!kind) throw CatalogError.notFound('type', name);
  return kind;
}

/** The custom properties of an entity type (empty for a type no one extended). */
function customPropertiesOf(ctx: CatalogContext, entityType: string): CustomProperty[] {
  return ctx.store.getSide(CHANGED, entityType)?.customProperties ?? [];
}

/** `GET /v1/metadata/types/customProperties`: entity type → its properties as `{name, type, customPropertyConfig}`. */
export function allCustomProperties(ctx: CatalogContext): Record<string, TypeField[]> {
  const out: Record<string, TypeField[]> = {};
  for (const kind of ctx.kinds.all) {
    const properties = customPropertiesOf(ctx, kind.type);
    if (properties.length) out[kind.type] = properties.map(summary);
  }
  return out;
}

function summary(property: CustomProperty): TypeField {
  return {
    name: property.name,
    type: property.propertyType.name ?? '',
    ...(property.customPropertyConfig ? { customPropertyConfig: structuredClone(property.customPropertyConfig) } : {}),
  };
}

/** The property type a property names (by id, as the web UI sends it, else by name); 404 when it is not one. */
function propertyTypeOf(property: CustomProperty): PropertyType {
  const ref = property.propertyType;
  const found = propertyTypeWithId(ref.id) ?? (ref.name !== undefined && ref.id === undefined ? propertyTypeNamed(ref.name) : undefined);
  if (!found) throw CatalogError.notFound('type', ref.id);
  return found;
}

/** A property as stored: its property type a full reference, its config checked. */
function normalise(property: CustomProperty): CustomProperty {
  const type = propertyTypeOf(property);
  type.checkConfig?.(property.customPropertyConfig?.config, property.name);
  const entity = propertyTypeEntity(type);
  return {
    ...structuredClone(property),
    propertyType: { id: entity.id, type: 'type', name: entity.name, fullyQualifiedName: entity.name, description: entity.description, displayName: entity.name },
  };
}

/** Takes a property's values off every entity of the kind (no new version, as labels leave entities). */
function dropValues(ctx: CatalogContext, entityType: string, property: string): void {
  for (const stored of ctx.store.ofType(entityType)) {
    const extension = stored.entity.extension as Record<string, unknown> | undefined;
    if (!extension || !(property in extension)) continue;
    const rest = { ...extension };
    delete rest[property];
    const entity: Entity = { ...stored.entity };
    if (Object.keys(rest).length === 0) delete entity.extension;
    else entity.extension = rest as Entity['extension'];
    stored.entity = entity;
  }
}

/** Stores `next` as a new version of the entity type when it differs; drops the values of properties it lost or retyped. */
function commit(ctx: CatalogContext, kind: Kind, before: Type, next: Type, user: string): { type: Type; changed: boolean } {
  const change = describeChange(before as unknown as Entity, next as unknown as Entity);
  if (isEmptyChange(change)) return { type: before, changed: false };
  const kept = new Map((next.customProperties ?? []).map((p) => [p.name, p.propertyType.id]));
  for (const old of before.customProperties ?? []) if (kept.get(old.name) !== old.propertyType.id) dropValues(ctx, kind.type, old.name);
  const stored: Type = {
    ...next,
    version: nextMinor(before.version),
    updatedAt: Math.max(ctx.now(), before.updatedAt),
    updatedBy: user,
    changeDescription: change,
    incrementalChangeDescription: change,
  };
  ctx.store.setSide(CHANGED, kind.type, stored);
  return { type: structuredClone(stored), changed: true };
}

/** The entity type with that id; a property type is a 400 (OpenMetadata: only entity types can be extended). */
function extensibleType(ctx: CatalogContext, id: string): { kind: Kind; type: Type } {
  const type = findType(ctx, 'id', id);
  if (type.category !== 'entity') throw CatalogError.badRequest("Only entity types can be extended and field types can't be extended");
  return { kind: kindOf(ctx, type.name), type };
}

/** `PUT /v1/metadata/types/{id}` (OpenMetadata's `addProperty`): adds the property, or replaces the one with its name. */
export function addCustomProperty(ctx: CatalogContext, id: string, property: CustomProperty, user: string): { type: Type; changed: boolean } {
  const { kind, type } = extensibleType(ctx, id);
  const added = normalise(property);
  const next: Type = { ...type, customProperties: [...(type.customProperties ?? []).filter((p) => p.name !== added.name), added] };
  return commit(ctx, kind, type, next, user);
}

/** Fields of a type that JSON Patch cannot change. */
const PATCH_KEPT = [
  'id',
  'name',
  'fullyQualifiedName',
  'category',
  'nameSpace',
  'schema',
  'version',
  'updatedAt',
  'updatedBy',
  'href',
  'changeDescription',
  'incrementalChangeDescription',
] as const;

/** `PATCH /v1/metadata/types/{id}`: `customProperties`, `description` and `displayName` change; each property is checked as when added. */
export function patchType(ctx: CatalogContext, id: string, operations: Operation[], user: string): { type: Type; changed: boolean } {
  const { kind, type } = extensibleType(ctx, id);
  const patched = patchedCopy(type, operations, ctx.limits.documentBytes, 'type');
  const record = patched as unknown as Record<string, unknown>;
  for (const key of PATCH_KEPT) {
    if (type[key] === undefined) delete record[key];
    else record[key] = type[key];
  }
  const problems = ctx.validators.validate('Type', patched);
  if (problems.length) throw CatalogError.badRequest(`Invalid type after patch: ${detailsText(problems)}`, problems);
  const names = new Set<string>();
  for (const property of patched.customProperties ?? []) {
    if (names.has(property.name)) throw CatalogError.badRequest(`Custom property ${property.name} is listed twice`);
    names.add(property.name);
  }
  patched.customProperties = (patched.customProperties ?? []).map(normalise);
  return commit(ctx, kind, type, patched, user);
}

/**
 * The `extension` of an entity checked against its type's custom properties (OpenMetadata's
 * `CustomPropertyValidator`): a name that is no property of the type is a 400 `Unknown custom
 * field <name>`, a value of the wrong type a 400 naming the property; returns the extension as
 * stored (enum values sorted, entity references completed). Values equal to those in `before`
 * (the stored extension, on an update) are kept as they are.
 */
export function checkExtension(ctx: CatalogContext, kind: Kind, extension: unknown, before?: unknown): unknown {
  if (extension === undefined || extension === null || typeof extension !== 'object' || Array.isArray(extension)) return extension;
  const properties = new Map(customPropertiesOf(ctx, kind.type).map((p) => [p.name, p]));
  const previous = (before ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(extension as Record<string, unknown>)) {
    const property = properties.get(name);
    if (!property) throw CatalogError.badRequest(`Unknown custom field ${name}`);
    if (Object.hasOwn(previous, name) && JSON.stringify(previous[name]) === JSON.stringify(value)) {
      out[name] = value;
      continue;
    }
    const type = propertyTypeNamed(property.propertyType.name ?? '');
    out[name] = type ? type.value(ctx, name, value, property.customPropertyConfig?.config) : value;
  }
  return out;
}

/** `GET /v1/metadata/types/name/{entityType}/customProperties`: 404 when no entity type has the name. */
export function customPropertiesOfType(ctx: CatalogContext, entityType: string): CustomProperty[] {
  return structuredClone(entityTypeEntity(ctx, kindOf(ctx, entityType)).customProperties ?? []);
}

/** The kind of an entity type name, for the fields of its schema; 404 when there is none. */
export function entityTypeKind(ctx: CatalogContext, entityType: string): Kind {
  return kindOf(ctx, entityType);
}
