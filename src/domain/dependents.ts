/**
 * Entities that name another one and cannot outlive it: the test cases whose entity link points at
 * it and the data contract written for it. When that entity is removed for good they go too, with
 * the data kept beside them (OpenMetadata deletes a table's tests and contract with the table), so
 * a hard delete never leaves a test case or contract pointing at nothing.
 */
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { EntityReference } from './entity.ts';
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
}
