import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted-keys.ts';

/** Each key's value names it, so that a value that strays from its key shows. */
const valueOf = (key: string) => `value of ${key}`;

function keysOf(inserted: readonly string[]): SortedKeys<string> {
  const keys = new SortedKeys<string>();
  for (const key of inserted) keys.insert(key, valueOf(key));
  return keys;
}

const all = (keys: SortedKeys<string>) => Array.from({ length: keys.size }, (_, i) => keys.at(i));
const values = (keys: SortedKeys<string>) => Array.from({ length: keys.size }, (_, i) => keys.valueAt(i));

describe('SortedKeys: FQNs in order, whatever the order of insertion and removal', () => {
  it.each<{ given: string; insert: readonly string[]; remove?: readonly string[]; want: string[] }>([
    { given: 'keys inserted out of order', insert: ['s.c', 's.a', 't.a', 's.b'], want: ['s.a', 's.b', 's.c', 't.a'] },
    { given: 'one key removed', insert: ['s.c', 's.a', 't.a', 's.b'], remove: ['s.b'], want: ['s.a', 's.c', 't.a'] },
    { given: 'a key that is not there removed', insert: ['s.c', 's.a'], remove: ['s.missing'], want: ['s.a', 's.c'] },
    { given: 'a key removed twice', insert: ['s.c', 's.a', 't.a'], remove: ['t.a', 't.a'], want: ['s.a', 's.c'] },
    { given: 'a parent and its children', insert: ['s.a.x', 's.a', 's.ab', 's.a.b'], want: ['s.a', 's.a.b', 's.a.x', 's.ab'] },
  ])('$given → $want', ({ insert, remove = [], want }) => {
    const keys = keysOf(insert);
    for (const key of remove) keys.remove(key);
    expect({ keys: all(keys), values: values(keys), size: keys.size }).toEqual({ keys: want, values: want.map(valueOf), size: want.length });
  });
});

describe('SortedKeys.lowerBound: where a key would sort, found by a binary search', () => {
  // svc0.e0, svc1.e1, ... svc9.e9, svc0.e10, ...: ten FQNs under each of ten prefixes.
  const keys = keysOf(Array.from({ length: 100 }, (_, i) => `svc${i % 10}.e${i}`));
  it.each<{ given: string; key: string; want: { index: number; at: string | undefined; before: string | undefined } }>([
    { given: 'the start of a prefix range', key: 'svc3.', want: { index: 30, at: 'svc3.e13', before: 'svc2.e92' } },
    { given: 'a stored key', key: 'svc3.e3', want: { index: 32, at: 'svc3.e3', before: 'svc3.e23' } },
    { given: 'a key before every key', key: 'a', want: { index: 0, at: 'svc0.e0', before: undefined } },
    { given: 'a key after every key', key: 'z', want: { index: 100, at: undefined, before: 'svc9.e99' } },
  ])('$given → index $want.index', ({ key, want }) => {
    const index = keys.lowerBound(key);
    expect({ index, at: keys.at(index), before: keys.at(index - 1) }).toEqual(want);
  });
});

describe('SortedKeys in chunks: the same order and indices as one sorted array, across chunk splits and removals', () => {
  it('agrees with a sorted array after 3,000 inserts and 1,500 removals in a scrambled order', () => {
    const keys = new SortedKeys<string>();
    // A fixed permutation (multiplying by a number prime to the length), so the run is the same every time.
    const n = 3000;
    const inserted = Array.from({ length: n }, (_, i) => {
      const j = (i * 7919) % n;
      return `svc${j % 7}.e${j}`;
    });
    for (const key of inserted) keys.insert(key, valueOf(key));
    const removed = inserted.filter((_, i) => i % 2 === 0);
    for (const key of removed) keys.remove(key);
    const model = inserted.filter((_, i) => i % 2 === 1).sort();
    expect(keys.size).toBe(model.length);
    expect(all(keys)).toEqual(model);
    expect(values(keys)).toEqual(model.map(valueOf));
    // Every key is found where it is, whichever chunk holds it (chunk starts removed included).
    expect(model.filter((key, i) => keys.lowerBound(key) !== i)).toEqual([]);
    for (const probe of ['svc0.', 'svc3.e1', 'svc6.e999', 'a', 'z']) {
      const want = model.findIndex((k) => k >= probe);
      expect(keys.lowerBound(probe)).toBe(want === -1 ? model.length : want);
    }
    expect(keys.at(-1)).toBeUndefined();
    expect(keys.at(model.length)).toBeUndefined();
    expect(keys.valueAt(model.length)).toBeUndefined();
    // Emptied chunks go: removing every key leaves an empty index that takes new keys.
    for (const key of inserted) keys.remove(key);
    expect({ size: keys.size, first: keys.at(0), bound: keys.lowerBound('svc0.') }).toEqual({ size: 0, first: undefined, bound: 0 });
    keys.insert('s.a', valueOf('s.a'));
    expect({ keys: all(keys), values: values(keys) }).toEqual({ keys: ['s.a'], values: [valueOf('s.a')] });
  });

  it('keeps 2,000 keys that arrive in order (names with a counter) in order, each at its index', () => {
    const fqn = (i: number) => `svc.c${String(i).padStart(5, '0')}`;
    const keys = keysOf(Array.from({ length: 2000 }, (_, i) => fqn(i)));
    expect(keys.size).toBe(2000);
    for (const i of [0, 511, 512, 513, 1024, 1999]) expect(keys.at(i)).toBe(fqn(i));
    expect(keys.lowerBound(fqn(1500))).toBe(1500);
  });
});
