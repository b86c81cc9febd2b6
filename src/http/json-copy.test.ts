/**
 * jsonCopy gives what writing a value as JSON and reading it back gives, and shares nothing with
 * the value it copied.
 */
import { describe, expect, it } from 'vitest';
import { jsonCopy } from './json-copy.ts';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const proto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;

describe('jsonCopy equals JSON.parse(JSON.stringify(value))', () => {
  it.each([
    { given: 'an entity-like object', value: { id: 'x', version: 0.1, deleted: false, tags: [], owner: null, columns: [{ name: 'c', children: [{ name: 'd' }] }] } },
    { given: 'members that are undefined, functions or symbols', value: { a: undefined, b: () => 1, c: Symbol('s'), d: 'kept' } },
    { given: 'the same in an array (null there)', value: [undefined, () => 1, Symbol('s'), 'kept'] },
    { given: 'numbers JSON cannot write, and -0', value: { nan: NaN, inf: Infinity, negInf: -Infinity, negZero: -0, list: [-0, NaN] } },
    {
      given: 'a Date, a class instance, a toJSON',
      value: { when: new Date(0), point: new Point(1, 2), custom: { toJSON: () => ({ shown: true }) }, gone: { toJSON: () => undefined } },
    },
    { given: 'keys in the order JSON keeps them', value: { b: 1, 2: 'two', a: 2, 1: 'one' } },
    { given: 'an object without a prototype', value: Object.assign(Object.create(null) as object, { a: 1 }) },
    { given: 'a member named __proto__', value: proto },
    { given: 'an array with a hole', value: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }) },
  ])('$given', ({ value }) => {
    const want = JSON.parse(JSON.stringify(value)) as unknown;
    const got = jsonCopy(value);
    expect(got).toStrictEqual(want);
    expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    expect(Object.keys(got as object)).toEqual(Object.keys(want as object));
  });

  it('a member named __proto__ stays a member, not the prototype', () => {
    const got = jsonCopy(proto) as Record<string, unknown>;
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.hasOwn(got, '__proto__')).toBe(true);
    expect(got.polluted).toBeUndefined();
  });

  it('a BigInt is refused as JSON.stringify refuses it', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
  });

  it('shares nothing: changing the copy leaves the value as it was', () => {
    const value = Object.freeze({ columns: Object.freeze([Object.freeze({ name: 'c', tags: Object.freeze([]) })]) });
    const got = jsonCopy(value) as { columns: { name: string; tags: string[] }[] };
    got.columns[0]!.name = 'changed';
    got.columns[0]!.tags.push('t');
    got.columns.push({ name: 'new', tags: [] });
    expect(value).toEqual({ columns: [{ name: 'c', tags: [] }] });
  });
});
