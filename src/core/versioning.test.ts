import { describe, expect, it } from 'vitest';
import type { Entity } from './entity.ts';
import { changesNothing, columnsChangeIsMajor, describeChange, isEmptyChange, isMajorChange, nextMajor, nextMinor } from './versioning.ts';

const base = (extra: Record<string, unknown> = {}): Entity => ({
  id: '5e0c7a1b-0000-4000-8000-000000000001',
  name: 'e',
  fullyQualifiedName: 's.e',
  version: 0.2,
  updatedAt: 1,
  updatedBy: 'admin',
  deleted: false,
  ...extra,
});

describe('version arithmetic (docs/behaviour.md "Versions")', () => {
  it('adds 0.1 for a minor change without floating-point drift', () => {
    let v = 0.1;
    for (let i = 0; i < 9; i++) v = nextMinor(v);
    expect(v).toBe(1.0);
  });
  it('adds 1.0 for a major change: 0.2 becomes 1.2, not 1.0', () => {
    expect(nextMajor(0.2)).toBe(1.2);
    expect(nextMajor(1.3)).toBe(2.3);
  });
});

describe('change descriptions', () => {
  it('lists added, updated and deleted fields and ignores system fields, followers and votes', () => {
    const change = describeChange(
      base({ description: 'a', sourceUrl: 'x', followers: [] }),
      base({ description: 'b', prefix: '/p', version: 0.3, updatedAt: 2, followers: [{ id: 'u', type: 'user' }] }),
    );
    expect(change.fieldsUpdated).toEqual([{ name: 'description', oldValue: 'a', newValue: 'b' }]);
    expect(change.fieldsAdded).toEqual([{ name: 'prefix', newValue: '/p' }]);
    expect(change.fieldsDeleted).toEqual([{ name: 'sourceUrl', oldValue: 'x' }]);
    expect(change.previousVersion).toBe(0.2);
  });
  it('sees no change when only key order differs', () => {
    const change = describeChange(base({ dataModel: { a: 1, b: 2 } }), base({ dataModel: { b: 2, a: 1 } }));
    expect(isEmptyChange(change)).toBe(true);
  });
});

describe('changesNothing: a write that would change nothing at all', () => {
  it.each<{ given: string; after: Record<string, unknown>; want: boolean }>([
    { given: 'the same fields', after: {}, want: true },
    { given: 'only new stamps (version, updatedAt, updatedBy)', after: { version: 0.9, updatedAt: 9, updatedBy: 'bob' }, want: true },
    { given: 'an equal value that is another object, keys in another order', after: { dataModel: { b: 2, a: 1 } }, want: true },
    { given: 'a follower, which changes without a version', after: { followers: [{ id: 'u', type: 'user' }] }, want: false },
    { given: 'a field added', after: { prefix: '/p' }, want: false },
    { given: 'a field removed', after: { dataModel: undefined }, want: false },
    { given: 'a description changed', after: { description: 'b' }, want: false },
  ])('$given → $want', ({ after, want }) => {
    const before = base({ description: 'a', dataModel: { a: 1, b: 2 }, followers: [] });
    expect(changesNothing(before, { ...before, ...after } as Entity)).toBe(want);
  });
});

describe('major changes', () => {
  const cols = [
    { name: 'a', dataType: 'INT' },
    { name: 'b', dataType: 'STRING', dataLength: 10 },
  ];
  it('is major when a column is removed, retyped or shortened', () => {
    expect(columnsChangeIsMajor(cols, [cols[0]])).toBe(true);
    expect(columnsChangeIsMajor(cols, [{ name: 'a', dataType: 'BIGINT' }, cols[1]])).toBe(true);
    expect(columnsChangeIsMajor(cols, [cols[0], { ...cols[1], dataLength: 5 }])).toBe(true);
  });
  it('is minor when a column is added or described', () => {
    expect(columnsChangeIsMajor(cols, [...cols, { name: 'c', dataType: 'INT' }])).toBe(false);
    expect(columnsChangeIsMajor(cols, [{ ...cols[0], description: 'x' }, cols[1]])).toBe(false);
  });
  it('is major when an ML model algorithm changes', () => {
    expect(isMajorChange(base({ algorithm: 'xgb' }), base({ algorithm: 'lgbm' }), ['algorithm'])).toBe(true);
    expect(isMajorChange(base({ algorithm: 'xgb' }), base({ algorithm: 'xgb', description: 'd' }), ['algorithm'])).toBe(false);
  });
});
