/**
 * Entities that name another one and cannot outlive it: the test cases whose entity link points at
 * it and the data contract written for it. When that entity is removed for good they go too, with
 * the data kept beside them (OpenMetadata deletes a table's tests and contract with the table), so
 * a hard delete never leaves a test case or contract pointing at nothing. A removed tag's labels
 * leave the entities (and columns) that carried them, as OpenMetadata drops its tag usage; like
 * followers, that is no new version of those entities.
 */
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { Entity, EntityReference, TagLabel } from './entity.ts';
import { readEntityLink } from './entity-link.ts';


export function dropDependents(ctx: CatalogContext, removed: StoredEntity): void {
  const { id, fullyQualifiedName } = removed.entity;
  const dependents = [
    ...[...ctx.store.ofType('testCase')].filter((tc) => {
      const target = readEntityLink(tc.entity.entityLink);
      return target?.type === removed.type && target.fqn === fullyQualifiedName;
    }),
    ...[...ctx.store.ofType('dataContract')].filter((c) => (c.entity.entity as EntityReference | undefined)?.id === id),
  ];
  for (const dependent of dependents) {
    ctx.store.remove(dependent);
    ctx.rules.get(dependent.type)?.afterHardDelete?.(dependent, ctx);
  }
  if (removed.type === 'tag') dropTagLabels(ctx, fullyQualifiedName);
}

type Labelled = { tags?: TagLabel[]; columns?: Labelled[]; children?: Labelled[] };

/** The same columns without the tag's labels, or undefined when none carried it. */
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

function dropTagLabels(ctx: CatalogContext, tagFQN: string): void {
  for (const stored of ctx.store.all()) {
    const entity = stored.entity as Entity & Labelled;
    const tags = entity.tags?.filter((t) => t.tagFQN !== tagFQN);
    const columns = withoutLabel(entity.columns, tagFQN);
    if ((tags && tags.length !== entity.tags?.length) || columns) {
      stored.entity = { ...entity, ...(tags ? { tags } : {}), ...(columns ? { columns } : {}) };
    }
  }
}
