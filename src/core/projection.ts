/**
 * What a response shows of a stored entity (docs/behaviour.md "Reading"): relationship fields only when
 * asked for with `fields=` (GET and list), everything after a write; `href` from the request's base
 * URL, on the entity and on every reference it carries; connection secrets masked in the `contract`
 * profile; and the entity's tag for conditional requests (docs/behaviour.md "Conditional requests").
 */
import { sha1 } from '../platform/digest.ts';
import { base64url } from '../platform/encoding.ts';
import { CatalogError } from './errors.ts';
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext, Kind, KindRegistry } from './context.ts';
import type { Entity, EntityReference } from './entity.ts';
import { referenceTo, withFields } from './entity.ts';
import { maskConnection } from './secrets.ts';

/** `all`: every field (write responses); otherwise the relationship fields asked for. */
export type FieldSelection = 'all' | ReadonlySet<string>;

/**
 * Parses `fields=a,b`: any property of the kind's entity schema in the profile's document (its
 * relationship fields among them: OpenMetadata's `EntityRepository.allowedFields`, every property of
 * the entity class), as the document's `fields` pattern lists them; anything else is 400 `Invalid field name x`.
 */
export function parseFields(ctx: CatalogContext, def: Kind, raw: unknown): FieldSelection {
  if (raw === undefined || raw === '') return new Set();
  const names = String(raw)
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (names.includes('*')) return 'all';
  const schemaFields = ctx.validators.propertyNames(def.schema);
  for (const name of names) if (!schemaFields.has(name)) throw CatalogError.badRequest(`Invalid field name ${name}`);
  return new Set(names);
}

export function render(ctx: CatalogContext, def: Kind, stored: StoredEntity, fields: FieldSelection, baseUrl: string): Entity {
  const source = stored.entity;
  const relationships = relationshipsOf(def);
  // Copied key by key, leaving out the relationship fields not asked for: deleting them from a copy
  // would make it a slow dictionary object for validation and JSON.stringify (bench: list page).
  const out = {} as Entity;
  // The openmetadata profiles answer only what OpenMetadata's schema of the kind lists (docs/behaviour.md
  // "Shapes of the openmetadata profiles"); the contract profile answers what is stored, checked by its schema.
  const shown = ctx.profile.entityShapes === 'upstream' ? ctx.validators.propertyNames(def.schema) : ALL_FIELDS;
  for (const key in source) if ((fields === 'all' || !relationships.has(key) || fields.has(key)) && shown.has(key)) out[key] = source[key];
  for (const field of def.relationshipFields) {
    if ((fields !== 'all' && !fields.has(field)) || !shown.has(field)) continue;
    const childType = def.childFields?.[field];
    if (childType !== undefined) {
      out[field] = ctx.store
        .children(source.id)
        .filter((c) => c.type === childType && !c.entity.deleted)
        .map((c) => referenceTo(c.type, c.entity));
    } else if (out[field] === undefined) {
      const provided = def.extraFields?.[field]?.(stored, ctx);
      if (provided !== undefined) out[field] = provided;
      else if (def.emptyArrays.includes(field)) out[field] = [];
    }
  }
  if (fields !== 'all') for (const field of def.emptyArrays) if (!relationships.has(field) && shown.has(field)) out[field] ??= [];
  if (ctx.profile.maskSecrets && out.connection !== undefined) out.connection = maskConnection(out.connection);
  addReferenceHrefs(collectionsOf(ctx.kinds), out, baseUrl);
  out.href = `${baseUrl}/v1/${def.collection}/${source.id}`;
  return out;
}

/** Every field name: what the contract profile's answers keep. */
const ALL_FIELDS: Pick<ReadonlySet<string>, 'has'> = { has: () => true };

const relationshipSets = new WeakMap<Kind, ReadonlySet<string>>();

/** A kind's relationship fields as a set: `render` asks about every key of every entity it answers. */
function relationshipsOf(def: Kind): ReadonlySet<string> {
  let set = relationshipSets.get(def);
  if (!set) relationshipSets.set(def, (set = new Set(def.relationshipFields)));
  return set;
}

/** Fields whose values are history or free-form: their references are left as they were written. */
const NOT_WALKED = new Set(['changeDescription', 'incrementalChangeDescription', 'extension', 'href']);

const collections = new WeakMap<KindRegistry, ReadonlyMap<string, string>>();

/** Entity type → collection path of the kinds served. */
function collectionsOf(kinds: KindRegistry): ReadonlyMap<string, string> {
  let map = collections.get(kinds);
  if (!map) collections.set(kinds, (map = new Map(kinds.all.map((kind) => [kind.type, kind.collection]))));
  return map;
}

/**
 * Every reference the rendered entity carries gets its own `href` (OpenMetadata's
 * `EntityUtil.populateEntityReferences`; docs/behaviour.md "Reading"): a field holding one, a list
 * of them, or an object holding them (`votes.upVoters`). The stored references are not changed:
 * each is copied.
 */
function addReferenceHrefs(known: ReadonlyMap<string, string>, out: Entity, baseUrl: string): void {
  for (const key in out) {
    const value = out[key];
    if (value === null || typeof value !== 'object' || NOT_WALKED.has(key)) continue;
    let next = withHref(known, baseUrl, value);
    if (next === value && !Array.isArray(value)) {
      // An object holding references (`votes`): one level down.
      let copy: Record<string, unknown> | undefined;
      const record = value as Record<string, unknown>;
      for (const inner in record) {
        const item = record[inner];
        if (item === null || typeof item !== 'object') continue;
        const changed = withHref(known, baseUrl, item);
        if (changed !== item) (copy ??= { ...record })[inner] = changed;
      }
      next = copy ?? value;
    }
    if (next !== value) out[key] = next;
  }
}

/** A reference (or a list of them) with its `href`; anything else as it is. */
function withHref(known: ReadonlyMap<string, string>, baseUrl: string, value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = withHref(known, baseUrl, item);
      if (next !== item) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const ref = value as Partial<EntityReference>;
  if (typeof ref.id !== 'string' || typeof ref.type !== 'string') return value;
  const collection = known.get(ref.type);
  if (collection === undefined) return value;
  return withFields(ref as EntityReference, { href: `${baseUrl}/v1/${collection}/${ref.id}` });
}

/**
 * The entity's tag (docs/behaviour.md "Conditional requests"): weak, `W/"<version>-<updatedAt>-<digest>"`,
 * where the digest covers the whole stored entity, so that a change that keeps the version (a
 * follower, a vote, a label dropped with its tag) changes the tag too. Stored entities are replaced,
 * never changed in place (src/app/persistence/changes.ts), so a tag is computed once per state, and kept
 * with the stored entity for as long as that state is its current one.
 */
export function entityTag(stored: StoredEntity): string {
  const entity = stored.entity;
  if (stored.taggedEntity === entity && stored.tag !== undefined) return stored.tag;
  const digest = base64url(sha1(JSON.stringify(entity))).slice(0, 12);
  const tag = `W/"${entity.version}-${entity.updatedAt}-${digest}"`;
  stored.tag = tag;
  stored.taggedEntity = entity;
  return tag;
}

/**
 * Whether an answer with these fields shows only what the stored entity holds, so that the
 * entity's tag identifies it. Relationship fields computed elsewhere (children, a table's
 * profile, a user's teams) change without the entity: such an answer is tagged by its content.
 */
export function taggedByEntity(def: Kind, fields: FieldSelection): boolean {
  if (!def.childFields && !def.extraFields) return true;
  const computed = (field: string): boolean => def.childFields?.[field] !== undefined || def.extraFields?.[field] !== undefined;
  return fields === 'all' ? !def.relationshipFields.some(computed) : ![...fields].some(computed);
}
