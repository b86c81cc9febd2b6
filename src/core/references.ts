/**
 * Turning the names a request uses for other entities (FQN strings, `{id, type}` objects, UUIDs,
 * user names) into references, and tag FQNs into tag labels. A name that resolves to nothing, or
 * to a soft-deleted entity, is a 404 in OpenMetadata's words (docs/behaviour.md "Errors").
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext, Kind, RefField } from './context.ts';
import type { Entity, EntityReference, TagLabel } from './entity.ts';
import { referenceTo } from './entity.ts';
import { quoteName } from './fqn.ts';

function userNameFqn(name: string): string {
  try {
    return quoteName(name);
  } catch {
    return name;
  }
}

export function findLive(ctx: CatalogContext, kinds: readonly string[], by: RefField['by'], value: unknown): StoredEntity {
  const { store } = ctx;
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
function resolveRefField(ctx: CatalogContext, field: RefField, value: unknown): EntityReference | EntityReference[] {
  if (field.many) {
    const refs: EntityReference[] = [];
    const seen = new Set<string>();
    for (const item of value as unknown[]) {
      const found = findLive(ctx, field.kinds, field.by, item);
      if (!seen.has(found.entity.id)) refs.push(referenceTo(found.type, found.entity));
      seen.add(found.entity.id);
    }
    return refs;
  }
  const found = findLive(ctx, field.kinds, field.by, value);
  const ref = referenceTo(found.type, found.entity);
  return field.asList ? [ref] : ref;
}

/**
 * Resolves every reference field a request carries, except the parent fields, which the
 * lifecycle resolves itself. Returns the entity fields to set.
 */
export function resolveRequestRefs(ctx: CatalogContext, def: Kind, request: Record<string, unknown>, skip: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(def.refFields ?? {})) {
    const value = request[name];
    if (value === undefined || value === null || skip.has(name)) continue;
    out[field.as ?? name] = resolveRefField(ctx, field, value);
  }
  return out;
}

/** Label sources no kind serves, with the entity type a 404 names (glossary terms are not served). */
const UNSERVED_LABEL_SOURCES: Readonly<Record<string, string>> = { Glossary: 'glossaryTerm' };

/**
 * Tag labels (docs/behaviour.md "Classifications and tags"): the labelled entity must exist and be
 * live (404); the kind that serves the label's `source` may refuse it (a disabled tag, 400) and
 * names the group within which labels exclude each other (400 for a second one of a group).
 */
export function resolveTagLabels(ctx: CatalogContext, labels: readonly TagLabel[]): TagLabel[] {
  const out: TagLabel[] = [];
  const exclusiveSeen = new Map<string, string>();
  for (const label of labels) {
    if (out.some((l) => l.tagFQN === label.tagFQN)) continue;
    const source = label.source ?? 'Classification';
    const kind = ctx.kinds.labelledAs(source);
    const found = kind && ctx.store.getByFqn(kind.type, label.tagFQN);
    if (!kind || !found || found.entity.deleted) throw CatalogError.notFound(kind?.type ?? UNSERVED_LABEL_SOURCES[source] ?? source, label.tagFQN);
    const group = kind.asLabel?.(found, ctx).exclusiveGroup;
    if (group !== undefined) {
      const other = exclusiveSeen.get(group);
      if (other) throw CatalogError.badRequest(`Tag labels ${label.tagFQN} and ${other} are mutually exclusive and can't be assigned together`);
      exclusiveSeen.set(group, label.tagFQN);
    }
    const resolved: TagLabel = {
      tagFQN: label.tagFQN,
      name: found.entity.name,
      source,
      labelType: label.labelType ?? 'Manual',
      state: label.state ?? 'Confirmed',
    };
    if (typeof found.entity.displayName === 'string') resolved.displayName = found.entity.displayName;
    if (typeof found.entity.description === 'string') resolved.description = found.entity.description;
    if (label.reason !== undefined) resolved.reason = label.reason;
    out.push(resolved);
  }
  return out;
}

/** Reference lists a PATCH may write as raw `{id, type}` objects: re-checked against the kind's refFields. */
const PATCH_CHECKED_REFS = ['owners', 'reviewers', 'domains', 'dataProducts'] as const;

/** Re-checks references that a PATCH may have written as raw `{id, type}` objects. */
export function resolvePatchedRefs(ctx: CatalogContext, def: Kind, entity: Entity): void {
  for (const name of PATCH_CHECKED_REFS) {
    const value = entity[name];
    const field = def.refFields?.[name];
    if (!Array.isArray(value) || !field) continue;
    (entity as Record<string, unknown>)[name] = resolveRefField(ctx, { kinds: field.kinds, by: 'ref', many: true }, value);
  }
  if (Array.isArray(entity.tags)) entity.tags = resolveTagLabels(ctx, entity.tags as TagLabel[]);
}
