/**
 * Semantics rules (src/features/data-contracts/json-logic.ts): JSON Logic as json-logic-js evaluates it, with what
 * the module adds for OpenMetadata's rules (`length`, numeric comparisons), the malformed rules
 * it turns into a RuleError, and its budgets: a rule over its length, depth or evaluation steps is
 * a RuleError, and the work done stops at the budget.
 */
import fc from 'fast-check';
import jsonLogic from 'json-logic-js';
import { describe, expect, it } from 'vitest';
import { checkRuleLimits, MAX_RULE_LENGTH, MAX_RULE_STEPS, RuleBudget, RuleError, evaluate, ruleHolds } from './json-logic.ts';

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

/** `depth` nested `map`s over a literal array of `width` items: width^depth items to make. */
function nestedMaps(depth: number, width: number): unknown {
  const items = Array.from({ length: width }, (_, i) => i);
  let rule: unknown = { var: '' };
  for (let d = 0; d < depth; d++) rule = { map: [items, rule] };
  return rule;
}

/** A rule `depth` levels deep (each `!` is two: its object and its array). */
function deep(depth: number): unknown {
  let rule: unknown = true;
  for (let d = 0; d < depth; d++) rule = { '!': [rule] };
  return rule;
}

describe('json-logic: budgets (docs/behaviour.md "Limits of one request")', () => {
  it.each<{ given: string; rule: unknown; want: RegExp }>([
    { given: 'nested maps that would make 40^6 items', rule: nestedMaps(6, 40), want: /^The rule needs more than 100000 evaluation steps \(the limit\)$/ },
    {
      given: 'a reduce that doubles a text at each of 60 items',
      rule: { reduce: [Array.from({ length: 60 }, (_, i) => i), { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'ab'] },
      want: /^The rule needs more than 100000 evaluation steps/,
    },
    {
      given: 'maps flattened by a reduce, an array 20 times longer at each level',
      rule: [1, 2, 3, 4, 5].reduce<unknown>(
        (inner) => ({ reduce: [{ map: [inner, Array.from({ length: 20 }, (_, i) => i)] }, { merge: [{ var: 'accumulator' }, { var: 'current' }] }, []] }),
        [1, 2, 3],
      ),
      want: /^The rule needs more than 100000 evaluation steps/,
    },
    { given: 'a rule nested 100,000 levels deep (refused before any step)', rule: deep(100_000), want: /^The rule is nested deeper than 32 levels \(the limit\)$/ },
  ])('$given: a RuleError, the work stopped at the budget', ({ rule, want }) => {
    const budget = new RuleBudget(MAX_RULE_STEPS);
    let thrown: unknown;
    try {
      evaluate(rule as never, table, budget);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RuleError);
    expect((thrown as Error).message).toMatch(want);
    // What was done: at most the budget; the charge that crossed it (of operands already made) may take `spent` past it, never twice over.
    expect(budget.spent).toBeLessThanOrEqual(2 * MAX_RULE_STEPS);
  });

  it('a rule within its budget is answered whatever budget it had, and costs what its items cost', () => {
    const rule = { all: [{ var: 'columns' }, { '!!': { var: 'name' } }] };
    const budget = new RuleBudget(MAX_RULE_STEPS);
    expect(evaluate(rule as never, table, budget)).toBe(true);
    expect(budget.spent).toBeGreaterThan(2);
    expect(budget.spent).toBeLessThan(50);
    expect(() => evaluate(rule as never, table, new RuleBudget(3))).toThrow(RuleError);
  });

  it.each<{ given: string; text: string; want: RegExp | undefined }>([
    { given: 'a short rule', text: '{"!!": {"var": "owners"}}', want: undefined },
    { given: 'text that is not JSON (validation reports it)', text: '{oops', want: undefined },
    { given: 'an unknown operator (validation reports it)', text: '{"regex": ["a"]}', want: undefined },
    { given: `a rule of ${MAX_RULE_LENGTH + 1} characters`, text: `"${'x'.repeat(MAX_RULE_LENGTH - 1)}"`, want: /^The rule is longer than 10000 characters \(the limit\)$/ },
    { given: 'a rule 40 levels deep', text: JSON.stringify(deep(20)), want: /^The rule is nested deeper than 32 levels/ },
  ])('checkRuleLimits: $given', ({ text, want }) => {
    if (want === undefined) expect(() => checkRuleLimits(text)).not.toThrow();
    else expect(() => checkRuleLimits(text)).toThrow(want);
  });

  it('ruleHolds refuses a rule text over the limit without parsing it', () => {
    expect(() => ruleHolds(' '.repeat(MAX_RULE_LENGTH + 1), table)).toThrow(/longer than 10000 characters/);
  });
});

/** Rules from JSON Logic's grammar, over the operators json-logic-js and this module share unchanged. */
const rule: fc.Arbitrary<unknown> = fc.letrec<{ rule: unknown }>((tie) => ({
  rule: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'x', '', '2', true, false, null)),
    fc.constantFrom('a', 'n', 's', 'list', 'objs', 'objs.0.n', 'list.1', 'nope', '').map((path) => ({ var: path })),
    fc
      .tuple(
        fc.constantFrom('==', '===', '!=', '!==', '+', '-', '*', '%', 'cat', 'in', 'merge', 'min', 'max', 'substr', 'if', 'and', 'or'),
        fc.array(tie('rule'), { maxLength: 3 }),
      )
      .map(([op, args]) => ({ [op]: args })),
    // `missing` of keys (json-logic-js would also evaluate a key that is an object as a rule).
    fc.array(fc.constantFrom('a', 's', 'nope', 'objs.0.n', 'objs.5'), { maxLength: 3 }).map((keys) => ({ missing: keys })),
    fc.tuple(fc.constantFrom('!', '!!'), tie('rule')).map(([op, arg]) => ({ [op]: [arg] })),
    fc
      .tuple(fc.constantFrom('map', 'filter', 'all', 'some', 'none'), fc.constantFrom({ var: 'list' }, { var: 'objs' }, [1, 2]), tie('rule'))
      .map(([op, items, body]) => ({ [op]: [items, body] })),
    fc.tuple(fc.constantFrom({ var: 'list' }, [1, 2, 3]), tie('rule')).map(([items, body]) => ({ reduce: [items, { '+': [{ var: 'accumulator' }, body] }, 0] })),
  ),
})).rule;

describe('json-logic: evaluation walked here answers as json-logic-js answers', () => {
  const data = { a: 1, n: -2, s: 'hello', list: [1, 2, 3], objs: [{ n: 1 }, { n: 2 }] };

  it('for random rules of the shared operators (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(rule, (given) => {
        let reference: { value: unknown } | { error: true };
        try {
          reference = { value: jsonLogic.apply(given as never, data) };
        } catch {
          reference = { error: true };
        }
        if ('error' in reference) expect(() => evaluate(given as never, data)).toThrow(RuleError);
        else expect(evaluate(given as never, data)).toEqual(reference.value);
      }),
      { seed: 30_2026, numRuns: 3000 },
    );
  });
});
