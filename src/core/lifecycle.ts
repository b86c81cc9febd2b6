/**
 * The entity lifecycle (docs/behaviour.md "Create", "Upsert", "Patch", "Delete and restore",
 * "Versions"): create, upsert, JSON Patch, soft and hard delete (recursive or not) and restore,
 * with OpenMetadata's version rules, for every kind alike; what is particular to a kind comes from
 * its hooks (`Kind`, src/core/context.ts).
 *
 * Each operation is synchronous from its first check to its last write, so concurrent requests
 * cannot interleave inside it (one of fifty parallel POSTs of a name wins, the others get 409).
 */
import type { Operation } from 'fast-json-patch';
import { CatalogError } from './errors.ts';
import { addToFqn, quoteName } from './fqn.ts';
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext, Kind } from './context.ts';
import { removeForGood } from './dependents.ts';
import { applyPatchWithin } from './json-patch.ts';
import { columnListsOf, withNamedColumns } from './column-names.ts';
import type { ChangeDescription, CreateRequest, Entity, EntityReference, TagLabel } from './entity.ts';
import { SYSTEM_FIELDS, referenceTo, withFields } from './entity.ts';
import { findLive, resolvePatchedRefs, resolveRequestRefs, resolveTagLabels } from './references.ts';
import { mergeConnection } from './secrets.ts';
import { INITIAL_VERSION, changesNothing, describeChange, isEmptyChange, isMajorChange, nextMajor, nextMinor } from './versioning.ts';
import { detailsText } from '../openapi/validation-details.ts';
import { checkExtension } from './entity-types.ts';
import { recordChange } from './change-events.ts';

export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

interface Prepared {
  entity: Entity;
  parent: StoredEntity | undefined;
}

/** A copy of an object; text and numbers as they are (`structuredClone` of a string still serialises it). */
function copyValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}

/** Builds a new entity from a create request: parent, FQN, references, system fields. */
function prepare(ctx: CatalogContext, def: Kind, request: CreateRequest, user: string): Prepared {
  let parent: StoredEntity | undefined;
  const parentFields = new Set((def.parents ?? []).map((p) => p.field));
  const entity: Entity = {
    id: ctx.newId(),
    name: request.name,
    fullyQualifiedName: '',
    version: INITIAL_VERSION,
    updatedAt: ctx.now(),
    updatedBy: user,
    deleted: false,
  };
  for (const [key, value] of Object.entries(request)) {
    // Objects are copied (the request may be reused by its caller, a bulk or a fixture); text and numbers need not be.
    if (!def.refFields?.[key] && !SYSTEM_FIELDS.has(key) && value !== undefined) entity[key] = copyValue(value);
  }
  for (const field of def.emptyArrays) entity[field] ??= [];
  if (def.followable) entity.followers = [];
  if (def.votable) entity.votes = { upVotes: 0, downVotes: 0, upVoters: [], downVoters: [] };
  for (const [key, value] of Object.entries(def.defaults ?? {})) entity[key] ??= copyValue(value);

  // The containing entity (docs/behaviour.md "Fully qualified names"): the first parent rule the request names.
  const chosen = def.parents?.find((rule) => request[rule.field] !== undefined && request[rule.field] !== null);
  if (def.parents?.length && !chosen) throw CatalogError.badRequest(`[${def.parents[def.parents.length - 1]!.field} must not be null]`);
  if (chosen) {
    parent = resolveParentField(ctx, def, chosen.field, request[chosen.field]);
    entity[chosen.field] = referenceTo(parent.type, parent.entity);
    for (const inherited of chosen.inherit ?? []) {
      if (parent.entity[inherited] !== undefined) entity[inherited] = copyValue(parent.entity[inherited]);
    }
    // A nested container also names its service: it must be the service of its parent.
    for (const rule of def.parents ?? []) {
      if (rule === chosen || request[rule.field] === undefined || request[rule.field] === null) continue;
      const named = resolveParentField(ctx, def, rule.field, request[rule.field]);
      if ((entity[rule.field] as EntityReference | undefined)?.id !== named.entity.id) {
        throw CatalogError.badRequest(`${rule.field} ${String(request[rule.field])} is not the ${rule.field} of ${parent.entity.fullyQualifiedName}`);
      }
    }
  }
  Object.assign(entity, resolveRequestRefs(ctx, def, request, parentFields));
  def.resolveRequest?.(request, entity, ctx);
  if (Array.isArray(request.tags)) entity.tags = resolveTagLabels(ctx, request.tags as TagLabel[]);
  // Custom property values, checked against the type's properties (docs/behaviour.md "Custom properties").
  if (entity.extension !== undefined) entity.extension = checkExtension(ctx, def, entity.extension) as Entity['extension'];
  resolveColumnTagsOf(ctx, def, entity);

  entity.fullyQualifiedName = def.fqn ? def.fqn(request, entity, ctx) : parent ? addToFqn(parent.entity.fullyQualifiedName, request.name) : quoteName(request.name);
  const named = withNamedColumns(def, entity);
  def.beforeWrite?.(named, ctx);
  return { entity: named, parent };
}

function resolveParentField(ctx: CatalogContext, def: Kind, field: string, value: unknown): StoredEntity {
  const refField = def.refFields?.[field];
  if (!refField) throw new Error(`kind ${def.type}: parent field ${field} has no refField`);
  return findLive(ctx, refField.kinds, refField.by, value);
}

/** The tag labels of every column or field of the entity (where its kind's `columnsAt` says), resolved as an entity's are: 404 for an unknown tag. */
function resolveColumnTagsOf(ctx: CatalogContext, def: Kind, entity: Entity): void {
  for (const columns of columnListsOf(def, entity)) resolveColumnTags(ctx, columns);
}

function resolveColumnTags(ctx: CatalogContext, columns: unknown[]): void {
  for (const column of columns as { tags?: TagLabel[]; children?: unknown[] }[]) {
    if (Array.isArray(column.tags)) column.tags = resolveTagLabels(ctx, column.tags);
    if (Array.isArray(column.children)) resolveColumnTags(ctx, column.children);
  }
}

/** POST (docs/behaviour.md "Create"): 409 when the FQN exists in its kind, soft-deleted included. */
export function createEntity(ctx: CatalogContext, def: Kind, given: CreateRequest, user: string): StoredEntity {
  const { entity, parent } = checkCreate(ctx, def, given, user);
  return created(ctx, ctx.store.insert(def.type, entity, parent?.entity.id), user);
}

/**
 * Everything a create checks, nothing stored: throws what `createEntity` would throw, and returns
 * the entity it would store (a CSV dry run checks its rows so, src/features/csv/engine.ts).
 */
export function checkCreate(ctx: CatalogContext, def: Kind, given: CreateRequest, user: string): Prepared {
  const request = def.fromRequest ? def.fromRequest(given, ctx) : given;
  const prepared = prepare(ctx, def, request, user);
  if (ctx.store.getByFqn(def.type, prepared.entity.fullyQualifiedName)) throw CatalogError.alreadyExists();
  def.beforeCreate?.(prepared.entity, ctx);
  return prepared;
}

/** A new entity is in the store: its change event (docs/behaviour.md "Events"). */
function created(ctx: CatalogContext, stored: StoredEntity, user: string): StoredEntity {
  recordChange(ctx, { eventType: 'entityCreated', stored, user, previousVersion: stored.entity.version });
  return stored;
}

/**
 * PUT (docs/behaviour.md "Upsert"): keyed by FQN; creates, updates or leaves
 * unchanged; restores a soft-deleted entity (and what its recursive delete took) first. Never 409.
 */
export function upsertEntity(
  ctx: CatalogContext,
  def: Kind,
  given: CreateRequest,
  user: string,
  /** Checks the entity the request names as it is (undefined: none yet) before anything is written; throws to refuse (`If-Match`). */
  precondition?: (existing: StoredEntity | undefined) => void,
): { stored: StoredEntity; outcome: UpsertOutcome } {
  const request = def.fromRequest ? def.fromRequest(given, ctx) : given;
  const { entity: candidate, parent } = prepare(ctx, def, request, user);
  const existing = ctx.store.getByFqn(def.type, candidate.fullyQualifiedName);
  precondition?.(existing);
  if (!existing) {
    def.beforeCreate?.(candidate, ctx);
    return { stored: created(ctx, ctx.store.insert(def.type, candidate, parent?.entity.id), user), outcome: 'created' };
  }
  // Everything the request changes is worked out (and checked) before anything is written, so a
  // bad request leaves even a soft-deleted entity as it was.
  const updates: Record<string, unknown> = {};
  for (const key of Object.keys(request)) {
    if (SYSTEM_FIELDS.has(key) || def.parents?.some((p) => p.field === key) || def.immutableFields?.includes(key)) continue;
    const value = candidate[key] !== undefined ? candidate[key] : key in (def.refFields ?? {}) ? candidate[def.refFields![key]!.as ?? key] : undefined;
    if (value === undefined) continue;
    const target = def.refFields?.[key]?.as ?? key;
    if (target === 'tags') updates.tags = resolveTagLabels(ctx, mergeTags(existing.entity.tags, value as TagLabel[]));
    else if (['owners', 'domains', 'extension', 'experts', 'reviewers'].includes(target) && isEmpty(value)) continue;
    else if (target === 'connection') updates.connection = mergeConnection(existing.entity.connection, value);
    else updates[target] = value;
  }
  let outcome: UpsertOutcome = 'unchanged';
  const previousVersion = existing.entity.version;
  const changes: ChangeDescription[] = [];
  if (existing.entity.deleted) {
    restoreTree(ctx, existing, user);
    changes.push(existing.entity.changeDescription as ChangeDescription);
    outcome = 'updated';
  }
  // A shallow copy: the store keeps its own compacted copy of what it is given (src/core/compact.ts), and nothing below changes nested values.
  const next = withFields(existing.entity, updates);
  if (commitChange(ctx, def, existing, next, user)) {
    changes.push(existing.entity.changeDescription as ChangeDescription);
    outcome = 'updated';
  }
  // One event for the request, restore and update together (docs/behaviour.md "Events").
  if (outcome === 'updated') recordChange(ctx, { eventType: 'entityUpdated', stored: existing, user, previousVersion, changeDescription: mergeChanges(changes, previousVersion) });
  return { stored: existing, outcome };
}

function mergeChanges(changes: readonly ChangeDescription[], previousVersion: number): ChangeDescription {
  // One change since `previousVersion` (an update, the usual case) is its own description: the event
  // holds the one the stored version holds, not an equal copy kept beside it for as long as the event.
  if (changes.length === 1 && changes[0]!.previousVersion === previousVersion) return changes[0]!;
  return {
    fieldsAdded: changes.flatMap((c) => c.fieldsAdded),
    fieldsUpdated: changes.flatMap((c) => c.fieldsUpdated),
    fieldsDeleted: changes.flatMap((c) => c.fieldsDeleted),
    previousVersion,
  };
}

function isEmpty(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
}

/** PUT merges tags: it adds the new ones and never removes (docs/behaviour.md "Upsert"). */
function mergeTags(current: unknown, incoming: TagLabel[]): TagLabel[] {
  const out = [...((current as TagLabel[] | undefined) ?? [])];
  for (const tag of incoming) if (!out.some((t) => t.tagFQN === tag.tagFQN)) out.push(tag);
  return out;
}

/**
 * Stores `next` as a new version when it differs from the current one: +0.1, or +1.0 for a major
 * change; nothing at all (same version, same updatedAt) when it does not. Returns whether it
 * changed; a change records its event (`entityUpdated`, docs/behaviour.md "Events").
 */
export function applyChange(ctx: CatalogContext, def: Kind, stored: StoredEntity, next: Entity, user: string): boolean {
  const previousVersion = stored.entity.version;
  if (!commitChange(ctx, def, stored, next, user)) return false;
  recordChange(ctx, { eventType: 'entityUpdated', stored, user, previousVersion, changeDescription: stored.entity.changeDescription as ChangeDescription });
  return true;
}

/** `applyChange` without the event: the caller records one for its whole request. */
function commitChange(ctx: CatalogContext, def: Kind, stored: StoredEntity, given: Entity, user: string): boolean {
  const before = stored.entity;
  // A column a change adds (or renames) is named like the others (src/core/column-names.ts).
  const next = withNamedColumns(def, given);
  const change = describeChange(before, next);
  if (isEmptyChange(change)) {
    // What changes without a version (followers, votes, usage) is written as it is; a request that
    // changes nothing writes nothing (no new object for the `--data` journal to record, src/app/persistence/changes.ts).
    if (!changesNothing(before, next)) stored.entity = withFields(next, { version: before.version, updatedAt: before.updatedAt, updatedBy: before.updatedBy });
    return false;
  }
  next.version = isMajorChange(before, next, def.majorFields ?? []) ? nextMajor(before.version) : nextMinor(before.version);
  next.updatedAt = Math.max(ctx.now(), before.updatedAt);
  next.updatedBy = user;
  next.changeDescription = change;
  next.incrementalChangeDescription = change;
  ctx.store.update(stored, next, true);
  return true;
}

/** Read-only attributes are kept as they were; `deleted` cannot be patched (docs/behaviour.md "Patch"). */
const PATCH_KEPT = [
  'id',
  'name',
  'fullyQualifiedName',
  'version',
  'updatedAt',
  'updatedBy',
  'href',
  'changeDescription',
  'incrementalChangeDescription',
  'followers',
  'votes',
  'serviceType',
];

/** JSON Patch (docs/behaviour.md "Patch"); with `checkOnly`, everything it checks and nothing stored (a CSV dry run, src/features/csv/engine.ts). */
export function patchEntity(ctx: CatalogContext, def: Kind, stored: StoredEntity, operations: Operation[], user: string, checkOnly = false): StoredEntity {
  let patched: Entity;
  try {
    // A copy through JSON: the stored entity shares its empty arrays and equal references (src/core/compact.ts),
    // which structuredClone would keep shared. Within the request body limit: a patch cannot build an
    // entity no request could send (src/core/json-patch.ts).
    const copy = JSON.parse(JSON.stringify(stored.entity)) as Entity;
    patched = applyPatchWithin(copy, operations, ctx.limits.documentBytes, def.type) as Entity;
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw CatalogError.badRequest(`Invalid JSON Patch: ${message}`);
  }
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) throw CatalogError.badRequest('Invalid JSON Patch: the result is not an entity');
  if (patched.deleted !== stored.entity.deleted) throw CatalogError.badRequest(`${def.type} attribute deleted can't be modified`);
  for (const key of [...PATCH_KEPT, ...(def.immutableFields ?? []), ...(def.parents ?? []).flatMap((p) => [p.field, ...(p.inherit ?? [])])]) {
    if (stored.entity[key] === undefined) delete patched[key];
    else patched[key] = stored.entity[key];
  }
  const problems = ctx.validators.validate(def.schema, patched);
  if (problems.length) throw CatalogError.badRequest(`Invalid ${def.type} after patch: ${detailsText(problems)}`, problems);
  def.beforeWrite?.(patched, ctx);
  resolvePatchedRefs(ctx, def, patched);
  resolveColumnTagsOf(ctx, def, patched);
  if (JSON.stringify(patched.extension) !== JSON.stringify(stored.entity.extension))
    patched.extension = checkExtension(ctx, def, patched.extension, stored.entity.extension) as Entity['extension'];
  if (!checkOnly) applyChange(ctx, def, stored, patched, user);
  return stored;
}

function setDeleted(ctx: CatalogContext, stored: StoredEntity, deleted: boolean, user: string): void {
  const before = stored.entity;
  const next = withFields(before, { deleted, version: nextMinor(before.version), updatedAt: Math.max(ctx.now(), before.updatedAt), updatedBy: user });
  const change = { fieldsAdded: [], fieldsUpdated: [{ name: 'deleted', oldValue: !deleted, newValue: deleted }], fieldsDeleted: [], previousVersion: before.version };
  next.changeDescription = change;
  next.incrementalChangeDescription = change;
  ctx.store.update(stored, next, true);
}

function checkDeletable(ctx: CatalogContext, def: Kind, stored: StoredEntity, recursive: boolean): void {
  def.beforeDelete?.(stored, ctx);
  if (!recursive && ctx.store.hasChildren(stored.entity.id)) throw CatalogError.notEmpty(def.type);
}

/**
 * Soft delete (docs/behaviour.md "Delete and restore"): deleted true, version
 * +0.1, each descendant too when recursive. A parent with children needs `recursive` (400).
 */
export function softDelete(ctx: CatalogContext, def: Kind, stored: StoredEntity, recursive: boolean, user: string): StoredEntity {
  if (stored.entity.deleted) return stored;
  checkDeletable(ctx, def, stored, recursive);
  const previousVersion = stored.entity.version;
  for (const child of ctx.store.descendants(stored.entity.id)) {
    if (child.entity.deleted) continue;
    setDeleted(ctx, child, true, user);
    child.deletedBy = stored.entity.id;
  }
  setDeleted(ctx, stored, true, user);
  // One event, about the entity the request names (docs/behaviour.md "Events").
  recordChange(ctx, { eventType: 'entitySoftDeleted', stored, user, previousVersion, changeDescription: stored.entity.changeDescription as ChangeDescription });
  return stored;
}

/**
 * Hard delete (docs/behaviour.md "Delete and restore"): the entity and, when recursive, every
 * descendant are gone, each with what cannot outlive it (src/core/dependents.ts).
 */
export function hardDelete(ctx: CatalogContext, def: Kind, stored: StoredEntity, recursive: boolean, user = stored.entity.updatedBy): Entity {
  checkDeletable(ctx, def, stored, recursive);
  for (const child of ctx.store.descendants(stored.entity.id)) removeForGood(ctx, child);
  removeForGood(ctx, stored);
  recordChange(ctx, { eventType: 'entityDeleted', stored, user, previousVersion: stored.entity.version });
  return stored.entity;
}

/** Restores an entity and the descendants its recursive delete took (docs/behaviour.md "Delete and restore"). */
function restoreTree(ctx: CatalogContext, stored: StoredEntity, user: string): void {
  setDeleted(ctx, stored, false, user);
  stored.deletedBy = undefined;
  for (const child of ctx.store.descendants(stored.entity.id)) {
    if (child.deletedBy !== stored.entity.id) continue;
    setDeleted(ctx, child, false, user);
    child.deletedBy = undefined;
  }
}

/** Restore (docs/behaviour.md "Delete and restore"): 404 unknown, 400 when not deleted or parent deleted. */
export function restoreEntity(ctx: CatalogContext, def: Kind, id: string, user: string): StoredEntity {
  const stored = ctx.store.get(id);
  if (!stored || stored.type !== def.type) throw CatalogError.notFound(def.type, id);
  if (!stored.entity.deleted) throw CatalogError.badRequest(`${def.type} ${stored.entity.fullyQualifiedName} is not deleted`);
  const parent = stored.parentId ? ctx.store.get(stored.parentId) : undefined;
  if (parent?.entity.deleted) {
    throw CatalogError.badRequest(`Cannot restore ${def.type} ${stored.entity.fullyQualifiedName}: its parent ${parent.type} ${parent.entity.fullyQualifiedName} is deleted`);
  }
  const previousVersion = stored.entity.version;
  restoreTree(ctx, stored, user);
  recordChange(ctx, { eventType: 'entityRestored', stored, user, previousVersion, changeDescription: stored.entity.changeDescription as ChangeDescription });
  return stored;
}
