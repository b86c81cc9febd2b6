/**
 * Turning the names a request uses for other entities (FQN strings, `{id, type}` objects, UUIDs,
 * user names) into references, and tag FQNs into tag labels. A name that resolves to nothing, or
 * to a soft-deleted entity, is a 404 in OpenMetadata's words (observed §2.3).
 */
import { CatalogError } from './errors.ts';
import type { RefField, ResourceDef } from '../resources/resource-table.ts';
import type { EntityStore, StoredEntity } from '../store/entity-store.ts';
import type { Entity, EntityReference, TagLabel } from './entity.ts';
import { referenceTo } from './entity.ts';
import { quoteName } from '../resources/fqn.ts';

function userNameFqn(name: string): string {
  try {
    return quoteName(name);
  } catch {
    return name;
  }
}

export function findLive(store: EntityStore, kinds: readonly string[], by: RefField['by'], value: unknown): StoredEntity {
  let found: StoredEntity | undefined;
  let label = String(typeof value === 'object' && value ? (value as { id?: unknown }).id : value);
  if (by === 'fqn' || by === 'name') {
    // A user name with a dot (`alice.smith`) has the quoted FQN `"alice.smith"`.
    const fqn = by === 'name' ? userNameFqn(String(value)) : String(value);
    for (const kind of kinds) found ??= store.getByFqn(kind, fqn);
  } else {
    const ref = value as { id?: unknown; type?: unknown };
    const id = by === 'id' ? String(value) : String(ref.id);
    if (by === 'ref' && typeof ref.type === 'string' && !kinds.includes(ref.type)) {
      throw CatalogError.badRequest(`Invalid entity type ${ref.type}: expected ${kinds.join(' or ')}`);
    }
    const candidate = store.get(id);
    if (candidate && kinds.includes(candidate.type)) found = candidate;
    label = id;
  }
  if (!found || found.entity.deleted) {
    const kind = by === 'ref' && typeof (value as { type?: unknown }).type === 'string' ? String((value as { type: string }).type) : kinds[0]!;
    throw CatalogError.notFound(kind, label);
  }
  return found;
}

/** Resolves one request field into a reference or a list of references. */
export function resolveRefField(store: EntityStore, field: RefField, value: unknown): EntityReference | EntityReference[] {
  if (field.many) {
    const refs: EntityReference[] = [];
    const seen = new Set<string>();
    for (const item of value as unknown[]) {
      const found = findLive(store, field.kinds, field.by, item);
      if (!seen.has(found.entity.id)) refs.push(referenceTo(found.type, found.entity));
      seen.add(found.entity.id);
    }
    return refs;
  }
  const found = findLive(store, field.kinds, field.by, value);
  const ref = referenceTo(found.type, found.entity);
  return field.asList ? [ref] : ref;
}

/**
 * Resolves every reference field a request carries, except the parent fields, which the
 * lifecycle resolves itself. Returns the entity fields to set.
 */
export function resolveRequestRefs(store: EntityStore, def: ResourceDef, request: Record<string, unknown>, skip: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(def.refFields ?? {})) {
    const value = request[name];
    if (value === undefined || value === null || skip.has(name)) continue;
    out[field.as ?? name] = resolveRefField(store, field, value);
  }
  return out;
}

/**
 * Tag labels (observed §7.3, §10): the tag must exist (404), must not be disabled (400), and at
 * most one tag of a mutually exclusive classification may be applied (400).
 */
export function resolveTagLabels(store: EntityStore, labels: readonly TagLabel[]): TagLabel[] {
  const out: TagLabel[] = [];
  const exclusiveSeen = new Map<string, string>();
  for (const label of labels) {
    if (out.some((l) => l.tagFQN === label.tagFQN)) continue;
    const source = label.source ?? 'Classification';
    const tag = store.getByFqn(source === 'Glossary' ? 'glossaryTerm' : 'tag', label.tagFQN);
    if (!tag || tag.entity.deleted) throw CatalogError.notFound(source === 'Glossary' ? 'glossaryTerm' : 'tag', label.tagFQN);
    const classification = classificationOf(store, tag.entity);
    if (tag.entity.disabled === true || classification?.disabled === true) {
      throw CatalogError.badRequest(`Tag label ${label.tagFQN} is disabled and can't be assigned to a data asset.`);
    }
    if (classification?.mutuallyExclusive === true) {
      const other = exclusiveSeen.get(classification.id);
      if (other) throw CatalogError.badRequest(`Tag labels ${label.tagFQN} and ${other} are mutually exclusive and can't be assigned together`);
      exclusiveSeen.set(classification.id, label.tagFQN);
    }
    const resolved: TagLabel = {
      tagFQN: label.tagFQN,
      name: tag.entity.name,
      source,
      labelType: label.labelType ?? 'Manual',
      state: label.state ?? 'Confirmed',
    };
    if (typeof tag.entity.displayName === 'string') resolved.displayName = tag.entity.displayName;
    if (typeof tag.entity.description === 'string') resolved.description = tag.entity.description;
    if (label.reason !== undefined) resolved.reason = label.reason;
    out.push(resolved);
  }
  return out;
}

function classificationOf(store: EntityStore, tag: Entity): Entity | undefined {
  const ref = tag.classification as EntityReference | undefined;
  return ref ? store.get(ref.id)?.entity : undefined;
}

/** Re-checks references that a PATCH may have written as raw `{id, type}` objects. */
export function resolvePatchedRefs(store: EntityStore, def: ResourceDef, entity: Entity): void {
  for (const name of ['owners', 'reviewers', 'domains', 'dataProducts'] as const) {
    const value = entity[name];
    if (!Array.isArray(value)) continue;
    const kinds = def.refFields?.[name]?.kinds ?? (name === 'domains' ? ['domain'] : name === 'dataProducts' ? ['dataProduct'] : ['user', 'team']);
    (entity as Record<string, unknown>)[name] = resolveRefField(store, { kinds, by: 'ref', many: true }, value);
  }
  if (Array.isArray(entity.tags)) entity.tags = resolveTagLabels(store, entity.tags as TagLabel[]);
}
