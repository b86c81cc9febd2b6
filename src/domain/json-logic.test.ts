import { describe, expect, it } from 'vitest';
import { RuleError, evaluate, ruleHolds } from './json-logic.ts';

const table = { name: 'orders', description: '', owners: [{ name: 'ann' }], columns: [{ name: 'id', dataType: 'BIGINT' }, { name: 'amount', dataType: 'DECIMAL' }], tags: [] };

describe('json-logic: data access', () => {
  it('var reads dotted paths, array lengths and defaults; missing lists absent or empty names', () => {
    expect(evaluate({ var: 'owners.0.name' }, table)).toBe('ann');
    expect(evaluate({ var: 'columns.length' }, table)).toBe(2);
    expect(evaluate({ var: ['nope', 'dflt'] }, table)).toBe('dflt');
    expect(evaluate({ missing: ['name', 'description', 'domain'] }, table)).toEqual(['description', 'domain']);
  });
});

describe('json-logic: logic and comparison', () => {
  it('truthiness is JSON Logic\'s: empty arrays and strings are false', () => {
    expect(ruleHolds('{"!!": {"var": "tags"}}', table)).toBe(false);
    expect(ruleHolds('{"!!": {"var": "owners"}}', table)).toBe(true);
    expect(ruleHolds('{"!": {"var": "description"}}', table)).toBe(true);
  });
  it('and / or / if / comparisons / between', () => {
    expect(evaluate({ and: [true, 3] }, {})).toBe(3);
    expect(evaluate({ or: [0, '', 'x'] }, {})).toBe('x');
    expect(evaluate({ if: [false, 'a', true, 'b', 'c'] }, {})).toBe('b');
    expect(evaluate({ '==': ['2', 2] }, {})).toBe(true);
    expect(evaluate({ '===': ['2', 2] }, {})).toBe(false);
    expect(evaluate({ '<': [1, 2, 3] }, {})).toBe(true);
    expect(evaluate({ '<=': [1, 4, 3] }, {})).toBe(false);
    expect(evaluate({ '>=': [{ var: 'columns.length' }, 2] }, table)).toBe(true);
  });
  it('collections, strings and arithmetic', () => {
    expect(evaluate({ in: ['amount', { var: 'name' }] }, { name: 'total_amount' })).toBe(true);
    expect(evaluate({ some: [{ var: 'columns' }, { '==': [{ var: 'dataType' }, 'DECIMAL'] }] }, table)).toBe(true);
    expect(evaluate({ all: [{ var: 'columns' }, { '==': [{ var: 'dataType' }, 'DECIMAL'] }] }, table)).toBe(false);
    expect(evaluate({ none: [{ var: 'columns' }, { '==': [{ var: 'name' }, 'ssn'] }] }, table)).toBe(true);
    expect(evaluate({ cat: ['a', 1, null] }, {})).toBe('a1');
    expect(evaluate({ '+': [1, 2, 3] }, {})).toBe(6);
    expect(evaluate({ '-': [10, 4] }, {})).toBe(6);
    expect(evaluate({ '/': [9, 3] }, {})).toBe(3);
  });
});

describe('json-logic: malformed rules', () => {
  it('throws RuleError for bad JSON, unknown operators, several operators and non-numbers', () => {
    expect(() => ruleHolds('{oops', {})).toThrow(RuleError);
    expect(() => evaluate({ regex: ['a'] }, {})).toThrow('Unknown operator regex');
    expect(() => evaluate({ '==': [1, 1], '!': true } as never, {})).toThrow(RuleError);
    expect(() => evaluate({ '<': ['a', 1] }, {})).toThrow(RuleError);
  });
});
