import { describe, expect, it } from 'vitest';
import { SortedKeys, sortKey } from './sorted-keys.ts';

function keysOf(entries: readonly (readonly [string, string])[]): SortedKeys {
  const keys = new SortedKeys();
  for (const [fqn, id] of entries) keys.insert(fqn, id);
  return keys;
}

const ids = (keys: SortedKeys) => Array.from({ length: keys.size }, (_, i) => keys.at(i)!.id);

const UNORDERED = [
  ['s.c', '3'],
  ['s.a', '1'],
  ['t.a', '4'],
  ['s.b', '2'],
] as const;

describe('SortedKeys: entries in FQN order (ties by id), whatever the order of insertion and removal', () => {
  it.each<{ given: string; insert: readonly (readonly [string, string])[]; remove?: readonly (readonly [string, string])[]; want: string[] }>([
    { given: 'keys inserted out of order', insert: UNORDERED, want: ['1', '2', '3', '4'] },
    { given: 'one key removed', insert: UNORDERED, remove: [['s.b', '2']], want: ['1', '3', '4'] },
    { given: 'a key that is not there removed', insert: UNORDERED, remove: [['s.b', 'missing']], want: ['1', '2', '3', '4'] },
    {
      given: 'one FQN, two ids',
      insert: [
        ['s.a', 'b'],
        ['s.a', 'a'],
      ],
      want: ['a', 'b'],
    },
    {
      given: 'a key removed twice',
      insert: UNORDERED,
      remove: [
        ['t.a', '4'],
        ['t.a', '4'],
      ],
      want: ['1', '2', '3'],
    },
  ])('$given → ids $want', ({ insert, remove = [], want }) => {
    const keys = keysOf(insert);
    for (const [fqn, id] of remove) keys.remove(fqn, id);
    expect({ ids: ids(keys), size: keys.size }).toEqual({ ids: want, size: want.length });
  });
});

describe('SortedKeys.lowerBound: where a key would sort, found by a binary search', () => {
  // svc0.e0, svc1.e1, ... svc9.e9, svc0.e10, ...: ten FQNs under each of ten prefixes.
  const keys = keysOf(Array.from({ length: 100 }, (_, i) => [`svc${i % 10}.e${i}`, `id${i}`] as const));
  it.each<{ given: string; key: string; want: { index: number; at: string | undefined; before: string | undefined } }>([
    { given: 'the start of a prefix range', key: sortKey('svc3.', ''), want: { index: 30, at: 'svc3.e13', before: 'svc2.e92' } },
    { given: 'a stored key', key: sortKey('svc3.e3', 'id3'), want: { index: 32, at: 'svc3.e3', before: 'svc3.e23' } },
    { given: 'a key before every key', key: sortKey('a', ''), want: { index: 0, at: 'svc0.e0', before: undefined } },
    { given: 'a key after every key', key: sortKey('z', ''), want: { index: 100, at: undefined, before: 'svc9.e99' } },
  ])('$given → index $want.index', ({ key, want }) => {
    const index = keys.lowerBound(key);
    const fqnAt = (i: number) => keys.at(i)?.key.split('\u0000')[0];
    expect({ index, at: fqnAt(index), before: fqnAt(index - 1) }).toEqual(want);
  });
});

describe('SortedKeys in chunks: the same order and indices as one sorted array, across chunk splits and removals', () => {
  it('agrees with a sorted array after 3,000 inserts and 1,500 removals in a scrambled order', () => {
    const keys = new SortedKeys();
    const model: string[] = [];
    // A fixed permutation (multiplying by a number prime to the length), so the run is the same every time.
    const n = 3000;
    const entries = Array.from({ length: n }, (_, i) => {
      const j = (i * 7919) % n;
      return [`svc${j % 7}.e${j}`, `id${j}`] as const;
    });
    for (const [fqn, id] of entries) {
      keys.insert(fqn, id);
      model.push(sortKey(fqn, id));
    }
    for (const [fqn, id] of entries.filter((_, i) => i % 2 === 0)) {
      keys.remove(fqn, id);
      model.splice(model.indexOf(sortKey(fqn, id)), 1);
    }
    model.sort();
    expect(keys.size).toBe(model.length);
    expect(Array.from({ length: keys.size }, (_, i) => keys.at(i)!.key)).toEqual(model);
    for (const probe of [sortKey('svc0.', ''), sortKey('svc3.e1', ''), sortKey('svc6.e999', 'id999'), sortKey('a', ''), sortKey('z', '')]) {
      expect(keys.lowerBound(probe)).toBe(model.findIndex((k) => k >= probe) === -1 ? model.length : model.findIndex((k) => k >= probe));
    }
    expect(keys.at(-1)).toBeUndefined();
    expect(keys.at(model.length)).toBeUndefined();
    // Emptied chunks go: removing every key leaves an empty index that takes new keys.
    for (const [fqn, id] of entries) keys.remove(fqn, id);
    expect({ size: keys.size, first: keys.at(0), bound: keys.lowerBound(sortKey('svc0.', '')) }).toEqual({ size: 0, first: undefined, bound: 0 });
    keys.insert('s.a', '1');
    expect(keys.at(0)?.id).toBe('1');
  });
});
