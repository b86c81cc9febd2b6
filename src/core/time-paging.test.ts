import { describe, expect, it } from 'vitest';
import { textToBase64url } from '../platform/encoding.ts';
import type { TimeKey, TimeOrder } from './time-paging.ts';
import { pageInTimeOrder } from './time-paging.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const item = (n: number, ts: number): TimeKey => ({ ts, id: id(n) });
const cursor = (key: TimeKey) => textToBase64url(`${key.ts}:${key.id}`);
// Times 50, 40, 30, 20, 10: newest first.
const newest = [1, 2, 3, 4, 5].map((n) => item(n, 60 - n * 10));
const oldest = [...newest].reverse();
const ids = (items: TimeKey[]) => items.map((i) => Number(i.id.slice(-2)));
const page = (items: TimeKey[], order: TimeOrder, limit: number, before?: string, after?: string) => pageInTimeOrder(items, (i) => i, order, limit, before, after);

describe('pageInTimeOrder: lists in time order page by <time>:<id> cursors', () => {
  it.each([
    { given: 'the first page', want: [1, 2], run: () => page(newest, 'newest-first', 2) },
    { given: 'after the second item', want: [3, 4], run: () => page(newest, 'newest-first', 2, undefined, cursor(newest[1]!)) },
    { given: 'before the fourth item', want: [2, 3], run: () => page(newest, 'newest-first', 2, cursor(newest[3]!)) },
    { given: 'after an item that is gone, by its time', want: [3, 4], run: () => page(newest, 'newest-first', 2, undefined, cursor(item(9, 35))) },
    { given: 'oldest first, after an item that is gone', want: [3, 2], run: () => page(oldest, 'oldest-first', 2, undefined, cursor(item(9, 25))) },
  ])('$given', ({ run, want }) => expect(ids(run().data)).toEqual(want));

  it('says where the neighbouring pages are: no before on the first page, no after on the last', () => {
    const first = page(newest, 'newest-first', 2);
    expect([first.paging.total, first.paging.before, first.paging.after]).toEqual([5, undefined, cursor(newest[1]!)]);
    const last = page(newest, 'newest-first', 2, undefined, cursor(newest[2]!));
    expect([last.paging.before, last.paging.after]).toEqual([cursor(newest[3]!), undefined]);
  });

  it.each([
    { given: 'not base64 of <time>:<id>', before: 'Zm9yZ2Vk', after: undefined, want: 'Invalid cursor Zm9yZ2Vk' },
    { given: 'both cursors', before: cursor(newest[0]!), after: cursor(newest[1]!), want: 'Only one of before or after query parameter allowed' },
  ])('refuses $given', ({ before, after, want }) => {
    expect(() => page(newest, 'newest-first', 2, before, after)).toThrow(want);
  });
});
