/**
 * Time series kept beside entities (table profiles, test case results, data contract results):
 * lists in ascending timestamp order, read back in a `[startTs, endTs]` window newest first, with
 * OpenMetadata's ResultList paging (docs/behaviour.md "Data contracts", "Table data": `before` /
 * `after` are the base64 of `startTs` / `endTs`, `total` is the number returned).
 */
import type { Paging } from './entity.ts';
import { textToBase64 } from '../platform/encoding.ts';

export interface TimeRange {
  /** Inclusive lower bound, epoch ms (default 0). */
  startTs?: number | undefined;
  /** Inclusive upper bound, epoch ms (default: now). */
  endTs?: number | undefined;
  /** At most this many, newest first; 0 or absent: no limit (docs/behaviour.md "Data contracts"). */
  limit?: number | undefined;
  now: number;
}

/**
 * Inserts `item` in timestamp order; an item with the same timestamp for which `sameKey` holds is
 * replaced. Returns the item it replaced, if any.
 */
export function upsertByTimestamp<T extends { timestamp: number }>(list: T[], item: T, sameKey: (existing: T) => boolean): T | undefined {
  const at = list.findIndex((x) => x.timestamp === item.timestamp && sameKey(x));
  if (at >= 0) {
    const [old] = list.splice(at, 1, item);
    return old;
  }
  let index = list.length;
  while (index > 0 && list[index - 1]!.timestamp > item.timestamp) index--;
  list.splice(index, 0, item);
  return undefined;
}

export function timeRange<T extends { timestamp: number }>(list: readonly T[], range: TimeRange): { data: T[]; paging: Paging } {
  const start = range.startTs ?? 0;
  const end = range.endTs ?? range.now;
  const data: T[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i]!;
    if (item.timestamp < start || item.timestamp > end) continue;
    data.push(item);
    if (range.limit && data.length >= range.limit) break;
  }
  return { data: structuredClone(data), paging: { before: base64(start), after: base64(end), total: data.length } };
}

function base64(value: number): string {
  return textToBase64(String(value));
}
