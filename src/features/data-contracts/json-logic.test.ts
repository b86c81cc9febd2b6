/**
 * Semantics rules (src/features/data-contracts/json-logic.ts): JSON Logic as json-logic-js evaluates it, with what
 * the module adds for OpenMetadata's rules (`length`, numeric comparisons) and the malformed rules
 * it turns into a RuleError.
 */
import { describe, expect, it } from 'vitest';
import { RuleError, evaluate, ruleHolds } from './json-logic.ts';

const table = {
  name: 'orders',
  description: '',
  owners: [{ name: 'ann' }],
  columns: [
    { name: 'id', dataType: 'BIGINT' },
    { name: 'amount', dataType: 'DECIMAL' },
  ],
  tags: [],
};

type Case = { given: unknown; data?: unknown; want: unknown };
const run = ({ given, data }: Case) => evaluate(given as never, data ?? table);

describe('json-logic: evaluation', () => {
  it.each<Case>([
    // data access
    { given: { var: 'owners.0.name' }, want: 'ann' },
    { given: { var: 'columns.length' }, want: 2 },
    { given: { var: ['nope', 'dflt'] }, want: 'dflt' },
    { given: { missing: ['name', 'description', 'domain'] }, want: ['description', 'domain'] },
    // logic
    { given: { and: [true, 3] }, want: 3 },
    { given: { or: [0, '', 'x'] }, want: 'x' },
    { given: { if: [false, 'a', true, 'b', 'c'] }, want: 'b' },
    { given: { '!!': { var: 'tags' } }, want: false },
    // comparison
    { given: { '==': ['2', 2] }, want: true },
    { given: { '===': ['2', 2] }, want: false },
    { given: { '<': [1, 2, 3] }, want: true },
    { given: { '<=': [1, 4, 3] }, want: false },
    { given: { '>=': [{ var: 'columns.length' }, 2] }, want: true },
    // numbers, as OpenMetadata's json-logic-java compares them (JavaScript's "10" > "9" is false)
    { given: { '>': ['10', '9'] }, want: true },
    // collections and strings
    { given: { in: ['amount', { var: 'name' }] }, data: { name: 'total_amount' }, want: true },
    { given: { some: [{ var: 'columns' }, { '==': [{ var: 'dataType' }, 'DECIMAL'] }] }, want: true },
    { given: { all: [{ var: 'columns' }, { '==': [{ var: 'dataType' }, 'DECIMAL'] }] }, want: false },
    { given: { none: [{ var: 'columns' }, { '==': [{ var: 'name' }, 'ssn'] }] }, want: true },
    { given: { cat: ['a', 1, null] }, want: 'a1' },
    // arithmetic
    { given: { '+': [1, 2, 3] }, want: 6 },
    { given: { '-': [10, 4] }, want: 6 },
    { given: { '/': [9, 3] }, want: 3 },
    // OpenMetadata's `length`: its arguments, one array argument counting its items
    { given: { length: { var: 'columns' } }, want: 2 },
    { given: { length: { var: 'tags' } }, want: 0 },
    { given: { length: [1, 2, 3] }, want: 3 },
    { given: { length: { var: 'domain' } }, want: 1 },
    { given: { '>=': [{ length: { var: 'owners' } }, 1] }, want: true },
  ])('$given gives $want', (c) => {
    expect(run(c)).toEqual(c.want);
  });
});

describe('json-logic: a rule holds when its result is truthy (JSON Logic truthiness)', () => {
  it.each([
    { given: '{"!!": {"var": "tags"}}', want: false },
    { given: '{"!!": {"var": "owners"}}', want: true },
    { given: '{"!": {"var": "description"}}', want: true },
    { given: '{"var": "columns"}', want: true },
    { given: '0', want: false },
  ])('$given holds: $want', ({ given, want }) => {
    expect(ruleHolds(given, table)).toBe(want);
  });
});

describe('json-logic: a malformed rule is a RuleError with its reason', () => {
  it.each([
    { given: '{oops', want: /^The rule is not JSON: / },
    { given: '{"regex": ["a"]}', want: /^Unknown operator regex$/ },
    { given: '{"if": [true, {"nope": 1}, 2]}', want: /^Unknown operator nope$/ },
    { given: '{"log": "x"}', want: /^Unknown operator log$/ },
    { given: '{"==": [1, 1], "!": true}', want: /^A rule object has exactly one operator, got 2$/ },
    { given: '{"and": [true, {}]}', want: /^A rule object has exactly one operator, got 0$/ },
    { given: '{"<": ["a", 1]}', want: /^Operator < needs numbers, got "a"$/ },
    { given: '{">": [1]}', want: /^Operator > needs two operands$/ },
    { given: '{"missing_some": [1]}', want: /^The rule cannot be evaluated: / },
  ])('$given: $want', ({ given, want }) => {
    let thrown: unknown;
    try {
      ruleHolds(given, table);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RuleError);
    expect((thrown as Error).message).toMatch(want);
  });
});
