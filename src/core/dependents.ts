/**
 * What goes with an entity removed for good (docs/behaviour.md "Delete and restore"): the data kept
 * beside it (the store drops its side data with it), the entities that cannot outlive it (each
 * kind's `dependentsOf`: the test cases whose entity link points at it, the data contract written
 * for it), so a hard delete never leaves one pointing at nothing; and, for an entity applied as a
 * label (a kind with a `labelSource`, a tag), its labels on the entities and columns that carried
 * them. Like followers, dropping a label is no new version of those entities.
 */
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { Entity, TagLabel } from './entity.ts';

/** Removes one entity for good, with what cannot outlive it (its descendants are the caller's). */
export function removeForGood(ctx: CatalogContext, removed: StoredEntity): void {
  ctx.store.remove(removed);
  const kind = ctx.kinds.of(removed.type);
  const dependents = ctx.kinds.all.flatMap((dependentKind) => dependentKind.dependentsOf?.(removed, ctx) ?? []);
  for (const dependent of dependents) ctx.store.remove(dependent);
  if (kind.labelSource !== undefined) dropLabels(ctx, removed.entity.fullyQualifiedName);
}

type Labelled = { tags?: TagLabel[]; columns?: Labelled[]; children?: Labelled[] };

/** The same columns without the label, or undefined when none carried it. */
function withoutLabel(columns: Labelled[] | undefined, tagFQN: string): Labelled[] | undefined {
  if (!Array.isArray(columns)) return undefined;
  let changed = false;
  const out = columns.map((column) => {
    const tags = column.tags?.filter((t) => t.tagFQN !== tagFQN);
    const children = withoutLabel(column.children, tagFQN);
    if ((tags && tags.length !== column.tags?.length) || children) {
      changed = true;
      return { ...column, ...(tags ? { tags } : {}), ...(children ? { children } : {}) };
    }
    return column;
  });
  return changed ? out : undefined;
}

function dropLabels(ctx: CatalogContext, tagFQN: string): void {
  for (const stored of ctx.store.all()) {
    const entity = stored.entity as Entity & Labelled;
    const tags = entity.tags?.filter((t) => t.tagFQN !== tagFQN);
    const columns = withoutLabel(entity.columns, tagFQN);
    if ((tags && tags.length !== entity.tags?.length) || columns) {
      stored.entity = { ...entity, ...(tags ? { tags } : {}), ...(columns ? { columns } : {}) };
    }
  }
}
