import { describe, expect, it } from 'vitest';
import { SortedKeys, sortKey } from './sorted-keys.ts';

describe('SortedKeys', () => {
  it('keeps entries in FQN order whatever the insertion order, and removes exactly one', () => {
    const keys = new SortedKeys();
    for (const [fqn, id] of [
      ['s.c', '3'],
      ['s.a', '1'],
      ['t.a', '4'],
      ['s.b', '2'],
    ] as const)
      keys.insert(fqn, id);
    expect([0, 1, 2, 3].map((i) => keys.at(i)?.id)).toEqual(['1', '2', '3', '4']);
    keys.remove('s.b', '2');
    keys.remove('s.b', 'missing');
    expect(keys.size).toBe(3);
    expect(keys.at(1)?.id).toBe('3');
  });
  it('finds the start of an FQN prefix range with a binary search', () => {
    const keys = new SortedKeys();
    for (let i = 0; i < 100; i++) keys.insert(`svc${i % 10}.e${i}`, `id${i}`);
    const start = keys.lowerBound(sortKey('svc3.', ''));
    expect(keys.at(start)?.key.startsWith('svc3.')).toBe(true);
    expect(keys.at(start - 1)?.key.startsWith('svc2.')).toBe(true);
  });
});
