/**
 * The whole state as JSON (issue 6 "Admin API" export/import, and `--data` persistence): every
 * stored entity with its kind, container, version history and recursive-delete mark. An import
 * replaces the state; ids, versions and FQNs come back exactly as exported. Not yet included: the
 * side data of tables (profiler config, sample data, profiles) and data-contract results.
 */
import type { CatalogContext } from '../domain/context.ts';
import type { Entity } from '../domain/entity.ts';
import { dropContractResults } from '../domain/data-contracts.ts';
import { dropTableData } from '../domain/table-data.ts';
import { ApiError } from '../http/errors.ts';

export const STATE_FORMAT = 'catalog-kit-state/1';

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
}

export function exportState(ctx: CatalogContext): StateJson {
  const entities: StoredEntityJson[] = [];
  for (const stored of ctx.store.all()) {
    entities.push({
      type: stored.type,
      ...(stored.parentId ? { parentId: stored.parentId } : {}),
      ...(stored.deletedBy ? { deletedBy: stored.deletedBy } : {}),
      history: [...stored.history],
      entity: structuredClone(stored.entity),
    });
  }
  return { format: STATE_FORMAT, exportedAt: ctx.now(), entities };
}

/** Replaces the state with an export. Checked before anything is cleared, so a bad file changes nothing. */
export function importState(ctx: CatalogContext, state: unknown): number {
  const value = state as Partial<StateJson> | null;
  if (!value || value.format !== STATE_FORMAT || !Array.isArray(value.entities)) {
    throw ApiError.badRequest(`Not a catalog-kit state export (expected format "${STATE_FORMAT}" and an entities array)`);
  }
  for (const item of value.entities) {
    const entity = item?.entity as Partial<Entity> | undefined;
    if (typeof item?.type !== 'string' || typeof entity?.id !== 'string' || typeof entity.fullyQualifiedName !== 'string') {
      throw ApiError.badRequest('Every exported entity needs a type, an entity.id and an entity.fullyQualifiedName');
    }
  }
  clearState(ctx);
  for (const item of value.entities) {
    const stored = ctx.store.insert(item.type, structuredClone(item.entity), item.parentId);
    stored.history.push(...(Array.isArray(item.history) ? item.history.map(String) : []));
    stored.deletedBy = item.deletedBy;
  }
  return value.entities.length;
}

/** Empties the store and the side data kept beside it (table profiles, contract results). */
export function clearState(ctx: CatalogContext): void {
  for (const stored of ctx.store.all()) {
    if (stored.type === 'table') dropTableData(ctx, stored.entity.id);
    if (stored.type === 'dataContract') dropContractResults(ctx, stored.entity.id);
  }
  ctx.store.clear();
}
