/**
 * Lists with cursor paging (docs/behaviour.md "Listing"): `limit` (0 counts only), `before` / `after` opaque
 * cursors (both → 400), `include`, and the kind's filters (`prefixFilters`, `listFilters`). Keys are kept in FQN order, so a page
 * starts with a binary search; an FQN-prefix filter (`service`, `database`...) reads only its range.
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext, Kind } from './context.ts';
import type { Entity, Paging } from './entity.ts';
import { textFromBase64url, textToBase64url } from '../platform/encoding.ts';

export type Include = 'non-deleted' | 'deleted' | 'all';

export interface ListQuery {
  include: Include;
  limit: number;
  before?: string;
  after?: string;
  /** Other query parameters: the kind's filters; unknown ones are ignored. */
  filters: Readonly<Record<string, unknown>>;
}

/** The key a cursor encodes: `<fqn>\0<id>` of the entity it points at. */
export function cursorKey(fqn: string, id: string): string {
  return `${fqn}\u0000${id}`;
}

export function encodeCursor(key: string): string {
  return textToBase64url(key);
}

/** A cursor is `<fqn>\0<id>` of an entity (`cursorKey`); anything else (`AAAA`...) is a 400, not a position. */
// eslint-disable-next-line no-control-regex -- the NUL separates FQN and id (`cursorKey`)
const CURSOR_KEY = /^[^\u0000]+\u0000[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The FQN a cursor points at: the position in the kind's FQN order (src/core/sorted-keys.ts). */
function decodeCursor(cursor: string): string {
  const key = textFromBase64url(cursor) ?? '';
  if (!CURSOR_KEY.test(key) || encodeCursor(key) !== cursor.replace(/=+$/, '')) throw CatalogError.badRequest(`Invalid cursor ${cursor}`);
  return key.slice(0, key.indexOf('\u0000'));
}

export function matchesInclude(entity: Entity, include: Include): boolean {
  return include === 'all' || entity.deleted === (include === 'deleted');
}

export function listEntities(ctx: CatalogContext, def: Kind, query: ListQuery): { items: StoredEntity[]; paging: Paging } {
  // The HTTP layer's validator refuses these first; a caller of the domain API gets the same answer.
  if (!Number.isInteger(query.limit) || query.limit < 0) throw CatalogError.badRequest(`limit must be an integer >= 0, got ${query.limit}`);
  if (query.before !== undefined && query.after !== undefined) throw CatalogError.badRequest('Only one of before or after query parameter allowed');
  const keys = ctx.store.orderedKeys(def.type);
  const prefixParam = def.prefixFilters?.find((f) => typeof query.filters[f] === 'string' && query.filters[f] !== '');
  // A prefix filter names a parent by FQN: its entities have keys `<fqn>.`…; the range ends before `<fqn>/`.
  const prefix = prefixParam ? `${String(query.filters[prefixParam])}.` : '';
  const lo = prefix ? keys.lowerBound(prefix) : 0;
  const hi = prefix ? keys.lowerBound(`${prefix.slice(0, -1)}/`) : keys.size;
  // The kind's other filters, each a test on the entity. Own keys only: `?__proto__=` or
  // `?hasOwnProperty=` must not reach Object.prototype. A value that filters nothing (`root=false`,
  // which the validator fills in by default) is left out, keeping the O(1) total of an unfiltered list.
  const filters = def.listFilters ?? {};
  const predicates: ((entity: Entity) => boolean)[] = [];
  for (const [name, value] of Object.entries(query.filters)) {
    if (!Object.hasOwn(filters, name) || value === undefined || name === prefixParam) continue;
    const test = filters[name]!(value, ctx);
    if (test) predicates.push(test);
  }
  const matches = (stored: StoredEntity | undefined): stored is StoredEntity =>
    !!stored && matchesInclude(stored.entity, query.include) && predicates.every((test) => test(stored.entity));
  const at = (i: number): StoredEntity | undefined => ctx.store.orderedAt(def.type, i);

  let total: number;
  if (!prefix && predicates.length === 0) {
    const deleted = ctx.store.deletedCount(def.type);
    total = query.include === 'all' ? keys.size : query.include === 'deleted' ? deleted : keys.size - deleted;
  } else {
    total = 0;
    for (let i = lo; i < hi; i++) if (matches(at(i))) total++;
  }

  const items: StoredEntity[] = [];
  const paging: Paging = { total };
  if (query.limit === 0) return { items, paging };
  if (query.before !== undefined) {
    const cursor = decodeCursor(query.before);
    let i = Math.min(keys.lowerBound(cursor), hi) - 1;
    for (; i >= lo && items.length < query.limit; i--) {
      const stored = at(i);
      if (matches(stored)) items.unshift(stored);
    }
    for (; i >= lo; i--) {
      if (matches(at(i))) {
        if (items.length) paging.before = encodeCursor(firstKey(items));
        break;
      }
    }
    if (items.length) paging.after = encodeCursor(lastKey(items));
    return { items, paging };
  }
  let i = lo;
  if (query.after !== undefined) {
    const cursor = decodeCursor(query.after);
    i = Math.max(keys.lowerBound(cursor), lo);
    if (keys.at(i) === cursor) i++;
  }
  const first = i;
  for (; i < hi && items.length < query.limit; i++) {
    const stored = at(i);
    if (matches(stored)) items.push(stored);
  }
  for (; i < hi; i++) {
    if (matches(at(i))) {
      paging.after = encodeCursor(lastKey(items));
      break;
    }
  }
  if (query.after !== undefined && items.length) {
    for (let j = first - 1; j >= lo; j--) {
      if (matches(at(j))) {
        paging.before = encodeCursor(firstKey(items));
        break;
      }
    }
  }
  return { items, paging };
}

function firstKey(items: StoredEntity[]): string {
  return cursorKey(items[0]!.entity.fullyQualifiedName, items[0]!.entity.id);
}

function lastKey(items: StoredEntity[]): string {
  const last = items[items.length - 1]!;
  return cursorKey(last.entity.fullyQualifiedName, last.entity.id);
}
