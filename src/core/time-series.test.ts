import { describe, expect, it } from 'vitest';
import { timeRange, upsertByTimestamp } from './time-series.ts';

describe('time series: insertion keeps timestamp order; same timestamp and key replaces', () => {
  it('orders, replaces and keeps other keys at the same timestamp', () => {
    const list: { timestamp: number; k: string; v: number }[] = [];
    for (const [timestamp, k, v] of [
      [3, 'a', 1],
      [1, 'a', 2],
      [2, 'a', 3],
      [2, 'b', 4],
      [2, 'a', 5],
    ] as const) {
      upsertByTimestamp(list, { timestamp, k, v }, (x) => x.k === k);
    }
    expect(list.map((x) => `${x.timestamp}${x.k}${x.v}`)).toEqual(['1a2', '2a5', '2b4', '3a1']);
  });
});

describe('time series: reads newest first in [startTs, endTs] with ResultList paging', () => {
  const list = [1, 2, 3, 4, 5].map((timestamp) => ({ timestamp }));
  it('window, default end = now, limit, base64 paging', () => {
    expect(timeRange(list, { startTs: 2, endTs: 4, now: 99 }).data.map((x) => x.timestamp)).toEqual([4, 3, 2]);
    expect(timeRange(list, { now: 3 }).data.map((x) => x.timestamp)).toEqual([3, 2, 1]);
    expect(timeRange(list, { limit: 2, now: 99 }).data.map((x) => x.timestamp)).toEqual([5, 4]);
    expect(timeRange(list, { limit: 0, now: 99 }).data).toHaveLength(5);
    expect(timeRange(list, { startTs: 2, endTs: 4, now: 99 }).paging).toEqual({ before: 'Mg==', after: 'NA==', total: 3 });
  });
});
