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
import { ApiError } from '../../http/errors.ts';
import { compactJson } from '../../core/compact.ts';
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

/** Replaces the state with an export. Checked before anything is cleared, so a bad file changes nothing. */
export function importState(ctx: CatalogContext, state: unknown): number {
  const value = state as Partial<StateJson> | null;
  if (!value || value.format !== STATE_FORMAT || !Array.isArray(value.entities)) {
    throw ApiError.badRequest(`Not a catalog-kit state export (expected format "${STATE_FORMAT}" and an entities array)`);
  }
  const typeOf = new Map<string, string>();
  const histories: Entity[][] = [];
  for (const item of value.entities) {
    const entity = item?.entity as Partial<Entity> | undefined;
    if (typeof item?.type !== 'string' || typeof entity?.id !== 'string' || typeof entity.fullyQualifiedName !== 'string') {
      throw ApiError.badRequest('Every exported entity needs a type, an entity.id and an entity.fullyQualifiedName');
    }
    typeOf.set(entity.id, item.type);
    histories.push(versionsOf(item.type, entity.id, item.history));
  }
  const side = checkSideData(ctx, value.sideData, typeOf);
  const kinds = new Map(ctx.kinds.all.map((kind) => [kind.type, kind]));
  clearState(ctx);
  for (const [i, item] of value.entities.entries()) {
    // A state written before the server named columns (and a topic's or an API endpoint's fields)
    // gets their FQNs as a write gives them (src/core/column-names.ts); a named one is unchanged.
    const kind = kinds.get(item.type);
    const entity = structuredClone(item.entity);
    const stored = ctx.store.insert(item.type, kind ? withNamedColumns(kind, entity) : entity, item.parentId);
    stored.history.push(...histories[i]!);
    stored.deletedBy = item.deletedBy;
  }
  ctx.store.importSideData(side);
  return value.entities.length;
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
