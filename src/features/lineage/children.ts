/**
 * The parts of an entity that column-level lineage may name (docs/behaviour.md "Lineage"), as
 * OpenMetadata's `LineageRepository.getChildrenNames` reads them: names relative to the entity's
 * FQN, a nested part as `<parent>.<child>` (a name with a dot in quotes, as in FQNs). The kinds that
 * take part in lineage call these from their `lineageChildren` hook, and lineage itself for the
 * columns of a kind's `columnsAt` (src/features/lineage/edges.ts).
 */
import { columnPart } from '../../core/fqn.ts';

interface Named {
  name?: unknown;
  children?: unknown;
}

/** Every column (field) of a tree of columns, nested ones as `parent.child`. */
export function nestedNames(columns: unknown, prefix = ''): string[] {
  if (!Array.isArray(columns)) return [];
  return (columns as Named[]).flatMap((column) => {
    if (typeof column?.name !== 'string') return [];
    const name = `${prefix}${columnPart(column.name)}`;
    return [name, ...nestedNames(column.children, `${name}.`)];
  });
}

/** The last part of each referenced entity's FQN below `parentFqn` (a dashboard's charts, a model's features). */
export function namesBelow(parentFqn: string, fqns: readonly unknown[]): string[] {
  return fqns.filter((fqn): fqn is string => typeof fqn === 'string').map((fqn) => (fqn.startsWith(`${parentFqn}.`) ? fqn.slice(parentFqn.length + 1) : fqn));
}
