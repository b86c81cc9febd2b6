/**
 * The whole state as JSON (the Admin API's `GET|PUT /__admin/state`, and the `--data` file): every
 * stored entity with its kind, container, version history and recursive-delete mark, and the data
 * the store keeps beside entities (side-data.ts: table profiler configs, sample data and profiles,
 * test case results, data contract results). An import replaces the state; ids, versions, FQNs and
 * side data come back exactly as exported. Everything is in the store, so clearing it clears all.
 */
import { withNamedColumns } from '../../core/column-names.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { ApiError } from '../../http/errors.ts';
import { detailsText } from '../../openapi/validation-details.ts';
import { compactJson } from '../../core/compact.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { EntityStore } from '../../core/entity-store.ts';
import { checkIntegrity } from '../../core/integrity.ts';
import type { SideDataJson } from './side-data-json.ts';
import { checkSideData } from './side-data-json.ts';

const STATE_FORMAT = 'catalog-kit-state/1';

export interface StoredEntityJson {
  type: string;
  parentId?: string;
  deletedBy?: string;
  history: string[];
  entity: Entity;
}

export interface StateJson {
  format: typeof STATE_FORMAT;
  exportedAt: number;
  entities: StoredEntityJson[];
  /** Absent in exports made before side data was carried: then there is none. */
  sideData?: SideDataJson;
}

export function exportState(ctx: CatalogContext): StateJson {
  const entities: StoredEntityJson[] = [];
  for (const stored of ctx.store.all()) {
    entities.push({
      type: stored.type,
      ...(stored.parentId ? { parentId: stored.parentId } : {}),
      ...(stored.deletedBy ? { deletedBy: stored.deletedBy } : {}),
      history: stored.history.map((version) => JSON.stringify(version)),
      entity: structuredClone(stored.entity),
    });
  }
  return { format: STATE_FORMAT, exportedAt: ctx.now(), entities, sideData: ctx.store.exportSideData() as SideDataJson };
}

/**
 * Replaces the state with an export. Everything is checked before anything is cleared, so a bad
 * file changes nothing (docs/behaviour.md "Admin API" and "Limits of one request"): each entity as
 * a write would check it (a kind the server serves, its schema, its kind's `beforeWrite`), ids and
 * FQNs unique, what contains each entity (`parentId` and the kind's parent references) present
 * and free of cycles, and the whole as the store's integrity check wants it (src/core/integrity.ts:
 * no orphan, no live entity under a deleted one, `deletedBy` an ancestor).
 */
export function importState(ctx: CatalogContext, state: unknown): number {
  const value = state as Partial<StateJson> | null;
  if (!value || value.format !== STATE_FORMAT || !Array.isArray(value.entities)) {
    throw ApiError.badRequest(`Not a catalog-kit state export (expected format "${STATE_FORMAT}" and an entities array)`);
  }
  const typeOf = new Map<string, string>();
  const fqns = new Set<string>();
  const histories: Entity[][] = [];
  for (const item of value.entities) {
    const entity = item?.entity as Partial<Entity> | undefined;
    if (typeof item?.type !== 'string' || typeof entity?.id !== 'string' || typeof entity.fullyQualifiedName !== 'string') {
      throw ApiError.badRequest('Every exported entity needs a type, an entity.id and an entity.fullyQualifiedName');
    }
    if (typeOf.has(entity.id)) throw ApiError.badRequest(`The id ${entity.id} is exported twice`);
    const key = `${item.type}\u0000${entity.fullyQualifiedName}`;
    if (fqns.has(key)) throw ApiError.badRequest(`${item.type} ${entity.fullyQualifiedName} is exported twice (an FQN names one entity of a kind)`);
    fqns.add(key);
    typeOf.set(entity.id, item.type);
    histories.push(versionsOf(item.type, entity.id, item.history));
  }
  const side = checkSideData(ctx, value.sideData, typeOf);
  const entities = value.entities.map((item) => checkEntity(ctx, item));
  checkContainment(ctx, value.entities, typeOf);
  // The whole, as the store will hold it: built aside first, so the store is cleared only for a sound state.
  const aside = new EntityStore();
  for (const [i, item] of value.entities.entries()) fill(aside.insert(item.type, entities[i]!, item.parentId), histories[i]!, item.deletedBy);
  const problems = checkIntegrity(aside);
  if (problems.length) throw ApiError.badRequest(`The state is not sound: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
  clearState(ctx);
  for (const [i, item] of value.entities.entries()) fill(ctx.store.insert(item.type, entities[i]!, item.parentId), histories[i]!, item.deletedBy);
  ctx.store.importSideData(side);
  return value.entities.length;
}

function fill(stored: StoredEntity, history: readonly Entity[], deletedBy: string | undefined): void {
  stored.history.push(...history);
  stored.deletedBy = deletedBy;
}

/** An exported entity as the store will hold it, checked as a write checks one; a 400 naming it when it is not. */
function checkEntity(ctx: CatalogContext, item: StoredEntityJson): Entity {
  const kind = ctx.kinds.all.find((k) => k.type === item.type);
  const label = `${item.type} ${item.entity.fullyQualifiedName} (${item.entity.id})`;
  if (!kind) throw ApiError.badRequest(`${label}: ${item.type} is not an entity type this server serves`);
  // A state written before the server named columns (and a topic's or an API endpoint's fields)
  // gets their FQNs as a write gives them (src/core/column-names.ts); a named one is unchanged.
  const entity = withNamedColumns(kind, structuredClone(item.entity));
  const problems = ctx.validators.validate(kind.schema, entity);
  if (problems.length) throw ApiError.badRequest(`${label}: ${detailsText(problems)}`, problems);
  try {
    kind.beforeWrite?.(entity, ctx);
  } catch (error) {
    if (error instanceof CatalogError) throw ApiError.badRequest(`${label}: ${error.message}`, error.details);
    throw error;
  }
  return entity;
}

/**
 * What contains each entity — its `parentId`, and each reference its kind names a parent by (a
 * container's `parent`, a table's `databaseSchema`) — is an entity of the state of a kind the
 * reference may name, and following them never comes back to where it started (a container that
 * is its own parent, or two that are each other's, would send a recursive delete round for ever).
 */
function checkContainment(ctx: CatalogContext, items: readonly StoredEntityJson[], typeOf: ReadonlyMap<string, string>): void {
  const up = new Map<string, string[]>();
  for (const item of items) {
    const kind = ctx.kinds.of(item.type);
    const label = `${item.type} ${item.entity.fullyQualifiedName} (${item.entity.id})`;
    const links: string[] = [];
    if (item.parentId !== undefined) {
      if (!typeOf.has(item.parentId)) throw ApiError.badRequest(`${label}: its parent ${item.parentId} is not in the state`);
      links.push(item.parentId);
    }
    for (const rule of kind.parents ?? []) {
      const ref = item.entity[rule.field] as { id?: unknown } | undefined;
      if (ref === undefined || ref === null || typeof ref !== 'object' || typeof ref.id !== 'string') continue;
      const type = typeOf.get(ref.id);
      const allowed = kind.refFields?.[rule.field]?.kinds;
      if (type === undefined || (allowed && !allowed.includes(type)))
        throw ApiError.badRequest(`${label}: its ${rule.field} ${ref.id} is not a ${allowed?.join(' or ') ?? 'entity'} of the state`);
      links.push(ref.id);
    }
    up.set(item.entity.id, links);
  }
  // Each entity's chain upwards, walked once: `done` holds those known to end, `path` the current walk.
  const done = new Set<string>();
  for (const start of up.keys()) {
    const path = new Set<string>();
    const stack: string[] = [start];
    while (stack.length) {
      const id = stack[stack.length - 1]!;
      if (done.has(id)) {
        stack.pop();
        path.delete(id);
        continue;
      }
      if (!path.has(id)) path.add(id);
      const next = (up.get(id) ?? []).find((link) => !done.has(link));
      if (next === undefined) {
        done.add(id);
        path.delete(id);
        stack.pop();
        continue;
      }
      if (path.has(next)) {
        const item = items.find((i) => i.entity.id === next)!;
        throw ApiError.badRequest(`${item.type} ${item.entity.fullyQualifiedName} (${next}) contains itself: its parents come back to it`);
      }
      stack.push(next);
    }
  }
}

/** An exported history (the JSON texts of the earlier versions, oldest first) as the store keeps it; a 400 when it is not one. */
function versionsOf(type: string, id: string, history: unknown): Entity[] {
  if (history === undefined) return [];
  const refused = () => ApiError.badRequest(`The history of ${type} ${id} must be an array of the JSON texts of its earlier versions (objects with a version number)`);
  if (!Array.isArray(history)) throw refused();
  return history.map((text) => {
    let version: unknown;
    try {
      version = typeof text === 'string' ? compactJson(text) : undefined;
    } catch {
      throw refused();
    }
    if (version === null || typeof version !== 'object' || Array.isArray(version) || typeof (version as { version?: unknown }).version !== 'number') throw refused();
    return version as Entity;
  });
}

/** Empties the store: the entities and the side data kept beside them. */
export function clearState(ctx: CatalogContext): void {
  ctx.store.clear();
}
