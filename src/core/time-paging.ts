/**
 * Cursor paging of lists kept in time order (the feed's threads, conversations, replies;
 * docs/behaviour.md "Listing"): a cursor is the base64url of `<time>:<id>` of the item a page ends
 * at, and anything else is 400 `Invalid cursor <c>`, as on the entity lists. A cursor whose item
 * is gone points where an item of its time would be.
 */
import { CatalogError } from './errors.ts';
import type { Paging } from './entity.ts';
import { textFromBase64url, textToBase64url } from '../platform/encoding.ts';

/** Where an item stands in its list: its time (epoch ms) and id. */
export interface TimeKey {
  ts: number;
  id: string;
}

export type TimeOrder = 'newest-first' | 'oldest-first';

function encodeCursor(key: TimeKey): string {
  return textToBase64url(`${key.ts}:${key.id}`);
}

function decodeCursor(cursor: string): TimeKey {
  const match = /^(\d+):([0-9a-f-]{36})$/i.exec(textFromBase64url(cursor) ?? '');
  if (!match) throw CatalogError.badRequest(`Invalid cursor ${cursor}`);
  return { ts: Number(match[1]), id: match[2]! };
}

/**
 * A page of `items` (already in `order`): `limit` items after `after`, or before `before`;
 * `paging.total` counts them all, `before` / `after` are absent on the first / last page.
 */
export function pageInTimeOrder<T>(
  items: readonly T[],
  keyOf: (item: T) => TimeKey,
  order: TimeOrder,
  limit: number,
  before?: string,
  after?: string,
): { data: T[]; paging: Paging } {
  if (before !== undefined && after !== undefined) throw CatalogError.badRequest('Only one of before or after query parameter allowed');
  const comesAfter = order === 'newest-first' ? (ts: number, cursorTs: number) => ts < cursorTs : (ts: number, cursorTs: number) => ts > cursorTs;
  const positionOf = (cursor: string): { index: number; found: boolean } => {
    const { ts, id } = decodeCursor(cursor);
    const index = items.findIndex((item) => keyOf(item).id === id);
    if (index >= 0) return { index, found: true };
    const next = items.findIndex((item) => comesAfter(keyOf(item).ts, ts));
    return { index: next === -1 ? items.length : next, found: false };
  };
  const paging: Paging = { total: items.length };
  let start: number;
  let end: number;
  if (before !== undefined) {
    end = positionOf(before).index;
    start = Math.max(0, end - limit);
  } else {
    const at = after === undefined ? { index: 0, found: false } : positionOf(after);
    start = at.found ? at.index + 1 : at.index;
    end = Math.min(items.length, start + limit);
  }
  const data = items.slice(start, end);
  if (data.length && start > 0) paging.before = encodeCursor(keyOf(data[0]!));
  if (data.length && end < items.length) paging.after = encodeCursor(keyOf(data[data.length - 1]!));
  return { data, paging };
}
