/**
 * Column and schema field FQNs (docs/behaviour.md "Fully qualified names"): the server names every
 * column or schema field of an entity (where the kind's `columnsAt` says they are) `<entity
 * FQN>.<name>`, and a nested one `<parent's FQN>.<child>`, on create and on every change, as
 * OpenMetadata does (`ColumnUtil.setColumnFQN` and `EntityUtil.setFieldFQN` in its table, data
 * model, container, topic and API endpoint repositories). Whatever a request says such an FQN is
 * gives way to that name. Stored values are shared and frozen (src/core/compact.ts), so columns
 * are copied, never changed in place, and an entity whose columns are named already is returned
 * as it is.
 */
import { columnPart } from './fqn.ts';
import type { Kind } from './context.ts';
import type { Entity, Schemas } from './entity.ts';
import { withFields } from './entity.ts';

/** A column, or a schema field (the same shape where names are concerned: `name`, `children`). */
type Column = Schemas['Column'];

/** `columns` named below `parentFqn`: the same array when every column (nested ones too) already has its name. */
export function namedColumns(parentFqn: string, columns: readonly Column[]): readonly Column[] {
  let changed = false;
  const named = columns.map((column) => {
    if (typeof column?.name !== 'string') return column;
    const fqn = `${parentFqn}.${columnPart(column.name)}`;
    const children = Array.isArray(column.children) ? namedColumns(fqn, column.children) : column.children;
    if (column.fullyQualifiedName === fqn && children === column.children) return column;
    changed = true;
    return children === column.children ? withFields(column, { fullyQualifiedName: fqn }) : withFields(column, { fullyQualifiedName: fqn, children: children as Column[] });
  });
  return changed ? named : columns;
}

/** The entity with its columns named, or the entity itself when they are (or it has none). */
export function withNamedColumns(def: Kind, entity: Entity): Entity {
  let out = entity;
  for (const path of def.columnsAt ?? []) if (path.length) out = renamedAt(out, path, entity.fullyQualifiedName) as Entity;
  return out;
}

/** The lists of columns or fields an entity holds where its kind's `columnsAt` says (those it has). */
export function columnListsOf(def: Kind, entity: Entity): unknown[][] {
  const lists: unknown[][] = [];
  for (const path of def.columnsAt ?? []) {
    let value: unknown = entity;
    for (const field of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
    if (Array.isArray(value)) lists.push(value);
  }
  return lists;
}

function renamedAt(holder: Record<string, unknown>, path: readonly string[], fqn: string): Record<string, unknown> {
  const [field, ...rest] = path as [string, ...string[]];
  const value = holder[field];
  let next: unknown;
  if (rest.length === 0) next = Array.isArray(value) ? namedColumns(fqn, value as Column[]) : value;
  else next = value !== null && typeof value === 'object' && !Array.isArray(value) ? renamedAt(value as Record<string, unknown>, rest, fqn) : value;
  return next === value ? holder : withFields(holder, { [field]: next });
}
