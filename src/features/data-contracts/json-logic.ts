/**
 * The rule language of data-contract semantics rules (openapi/schemas/data-contract.yaml
 * `SemanticsRule.rule`: "JSON Logic over the entity"; docs/behaviour.md "Data contracts"): JSON
 * Logic (jsonlogic.com) evaluated by json-logic-js over the stored entity. Truthiness is JSON
 * Logic's: `false`, `null`, `0`, `""` and `[]` are false.
 *
 * OpenMetadata evaluates these rules with json-logic-java (io.github.jamsesso) plus operations of
 * its own (LogicOps.java, open-metadata/OpenMetadata). What this module changes in json-logic-js,
 * and why:
 *
 * - `length` is added: OpenMetadata's custom operation (the one its rule editor offers). Like
 *   there, it counts its arguments, one array argument counting its items:
 *   `{"length": {"var": "owners"}}` is the number of owners; an absent value is one argument.
 * - `<` `<=` `>` `>=` compare numbers, as json-logic-java does (a numeric string is its number, so
 *   "10" > "9"); json-logic-js uses JavaScript's `<`, which compares strings letter by letter. An
 *   operand that is no number is a RuleError naming it, not a silent false. `<` and `<=` take a
 *   third operand (between).
 * - `log` is removed: it would write rule values to the server's output (and break `--log json`).
 * - A rule object has exactly one operator. json-logic-js takes an object with more keys, or none,
 *   for a literal value, which is truthy: a mistyped rule would silently hold.
 * - Anything json-logic-js throws (an unknown operator, an operation failing on its operands)
 *   becomes a RuleError, which validation reports as a failed rule with its reason
 *   (contract-validation.ts); an unknown operator reads "Unknown operator <name>".
 * - `var` reads the data's own fields only (json-logic-js would read `constructor` off any object).
 *
 * Budgets (docs/behaviour.md "Limits of one request"): a rule is at most MAX_RULE_LENGTH
 * characters of JSON nested at most MAX_RULE_DEPTH levels (refused when a contract is stored), and
 * its evaluation takes at most a number of steps (a failed rule when a contract is validated): one
 * per operation or value evaluated, one per item an operation goes through or makes, and one per
 * 16 characters of text an operation reads or makes. json-logic-js offers no such bound and
 * recurses inside itself, so this module walks the rule itself — the operators that choose what
 * to evaluate (`if`, `and`, `or`, the array operations over their items) and `var` / `missing` —
 * and hands every other operation, its operands evaluated, to json-logic-js, whose semantics it
 * keeps. So a rule of nested `map`s that would make an array of billions of items, or a `reduce`
 * that doubles a text at each item, stops at its budget instead of holding the server.
 */
import jsonLogic from 'json-logic-js';
import type { AdditionalOperation, RulesLogic } from 'json-logic-js';

export class RuleError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The longest rule text a contract may store, in characters. */
export const MAX_RULE_LENGTH = 10_000;

/** The deepest a rule's JSON may nest (objects and arrays). */
export const MAX_RULE_DEPTH = 32;

/** The most evaluation steps one rule may take. */
export const MAX_RULE_STEPS = 100_000;

jsonLogic.add_operation('length', (...args: unknown[]) => (args.length === 1 && Array.isArray(args[0]) ? args[0].length : args.length));

function asNumber(value: unknown, op: string): number {
  const n = Number(value);
  if (Number.isNaN(n)) throw new RuleError(`Operator ${op} needs numbers, got ${JSON.stringify(value)}`);
  return n;
}

const COMPARISONS: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};
for (const [op, holds] of Object.entries(COMPARISONS)) {
  jsonLogic.add_operation(op, (...args: unknown[]) => {
    if (args.length < 2) throw new RuleError(`Operator ${op} needs two operands`);
    const [a, b, c] = args.map((v) => asNumber(v, op));
    return holds(a!, b!) && (c === undefined || holds(b!, c));
  });
}

jsonLogic.rm_operation('log');

/**
 * Evaluation steps left: each operation, value, item and 16 characters costs one (see the module
 * comment). `spend` throws the RuleError of an exhausted budget.
 */
export class RuleBudget {
  private used = 0;
  constructor(
    private readonly limit: number,
    /** Why the budget runs out, for the RuleError: the rule's own limit, or a larger whole's. */
    private readonly exhausted = `The rule needs more than ${limit} evaluation steps (the limit)`,
  ) {}

  spend(steps: number): void {
    this.used += steps;
    if (this.used > this.limit) throw new RuleError(this.exhausted);
  }

  get spent(): number {
    return this.used;
  }
}

/** The steps a value costs to read or make: its items, or its characters by 16; anything else one. */
function weight(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.length;
  if (typeof value === 'string') return 1 + (value.length >> 4);
  return 1;
}

/**
 * Throws a RuleError for a rule nested deeper than MAX_RULE_DEPTH or, unless `depthOnly`, with an
 * object that is not one operator with its arguments (json-logic-js would take it for a literal,
 * which is truthy: a mistyped rule would silently hold). Walks without recursion: the rule may be
 * nested very deep.
 */
function checkShape(rule: Json, depthOnly = false): void {
  const stack: [Json, number][] = [[rule, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_RULE_DEPTH) throw new RuleError(`The rule is nested deeper than ${MAX_RULE_DEPTH} levels (the limit)`);
    const children = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value) && children.length !== 1 && !depthOnly) throw new RuleError(`A rule object has exactly one operator, got ${children.length}`);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

/** The operators that choose which of their operands to evaluate, or evaluate one over items. */
const ARRAY_OPERATIONS = new Set(['filter', 'map', 'reduce', 'all', 'none', 'some']);

/**
 * `var`: a dotted path into the data's own fields (an array's items and a text's characters by
 * number, and their `length`); `fallback` when a step is missing.
 */
function read(data: unknown, path: unknown, fallback: unknown): unknown {
  if (path === undefined || path === null || path === '') return data;
  let value = data;
  for (const key of String(path).split('.')) {
    if (value === null || value === undefined) return fallback;
    const own = typeof value === 'string' ? key === 'length' || /^\d+$/.test(key) : typeof value === 'object' && Object.hasOwn(value, key);
    if (!own) return fallback;
    value = (value as Record<string, unknown>)[key];
    if (value === undefined) return fallback;
  }
  return value;
}

/** `missing`: the keys whose value is absent, null or empty text. */
function missing(data: unknown, args: unknown[]): unknown[] {
  const keys = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  return keys.filter((key) => {
    const value = read(data, key, null);
    return value === null || value === '';
  });
}

/** json-logic-js's `apply`, the recursion walked here so that every step is counted (see the module comment). */
function apply(logic: unknown, data: unknown, budget: RuleBudget): unknown {
  budget.spend(1);
  if (Array.isArray(logic)) {
    budget.spend(logic.length);
    return logic.map((item) => apply(item, data, budget));
  }
  if (logic === null || typeof logic !== 'object') return logic;
  const op = Object.keys(logic)[0]!;
  const given = (logic as Record<string, unknown>)[op];
  const values = Array.isArray(given) ? given : [given];
  const at = (i: number): unknown => apply(values[i], data, budget);

  if (op === 'if' || op === '?:') {
    let i = 0;
    for (; i < values.length - 1; i += 2) if (jsonLogic.truthy(at(i))) return at(i + 1);
    return values.length === i + 1 ? at(i) : null;
  }
  if (op === 'and' || op === 'or') {
    let current: unknown;
    for (let i = 0; i < values.length; i++) {
      current = at(i);
      if (jsonLogic.truthy(current) === (op === 'or')) return current;
    }
    return current;
  }
  if (ARRAY_OPERATIONS.has(op)) {
    const items = at(0);
    const body = values[1];
    if (op === 'reduce') {
      const initial = values[2] !== undefined ? at(2) : null;
      if (!Array.isArray(items)) return initial;
      budget.spend(items.length);
      return items.reduce((accumulator: unknown, current: unknown) => apply(body, { current, accumulator }, budget), initial);
    }
    if (!Array.isArray(items)) return op === 'none' ? true : op === 'all' || op === 'some' ? false : [];
    budget.spend(items.length);
    const holds = (item: unknown): boolean => jsonLogic.truthy(apply(body, item, budget));
    if (op === 'map') return items.map((item) => apply(body, item, budget));
    if (op === 'filter') return items.filter(holds);
    if (op === 'all') return items.length > 0 && items.every(holds);
    if (op === 'some') return items.some(holds);
    return !items.some(holds);
  }

  const args = values.map((_, i) => at(i));
  // Reading the data copies nothing: only what an operation makes of it costs more (below).
  if (op === 'var') return read(data, args[0], args[1] === undefined ? null : args[1]);
  budget.spend(args.reduce((sum: number, arg) => sum + weight(arg), 0));
  let result: unknown;
  if (op === 'missing') result = missing(data, args);
  else if (op === 'missing_some') {
    if (!Array.isArray(args[1])) throw new RuleError('The rule cannot be evaluated: missing_some needs a number and a list of keys');
    const absent = missing(data, [args[1]]);
    result = args[1].length - absent.length >= Number(args[0]) ? [] : absent;
  } else {
    // Every other operation is json-logic-js's own, given the operands already evaluated: `{"var": i}` reads operand i.
    // Through `unknown`: relating the literal to json-logic-js's union of every operation cost the type check seconds.
    const rule: unknown = { [op]: args.map((_, i) => ({ var: i })) };
    result = jsonLogic.apply(rule as RulesLogic<AdditionalOperation>, args);
  }
  budget.spend(weight(result));
  return result;
}

const UNRECOGNIZED = /^Unrecognized operation (\S+)/;

/** Evaluates a parsed rule over the data within `budget` (one rule's by default); throws a RuleError for a malformed rule or a spent budget. */
export function evaluate(rule: Json, data: unknown, budget = new RuleBudget(MAX_RULE_STEPS)): unknown {
  checkShape(rule);
  try {
    return apply(rule, data, budget);
  } catch (error) {
    if (error instanceof RuleError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const unknown = UNRECOGNIZED.exec(message);
    throw new RuleError(unknown ? `Unknown operator ${unknown[1]}` : `The rule cannot be evaluated: ${message}`, { cause: error });
  }
}

/** Parses a rule's JSON text; a RuleError when it is not JSON or is over MAX_RULE_LENGTH or MAX_RULE_DEPTH. */
function parseRule(text: string): Json {
  if (text.length > MAX_RULE_LENGTH) throw new RuleError(`The rule is longer than ${MAX_RULE_LENGTH} characters (the limit)`);
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new RuleError(`The rule is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The limits a stored rule must keep (src/kinds/data-contract.ts refuses a contract whose rule
 * does not): its length, and, when it is JSON, its depth. A rule that is not JSON, or names an
 * unknown operator, is stored and fails when validated, as OpenMetadata's does.
 */
export function checkRuleLimits(text: string): void {
  let rule: Json;
  try {
    rule = parseRule(text);
  } catch (error) {
    if (text.length > MAX_RULE_LENGTH) throw error;
    return;
  }
  checkShape(rule, true);
}

/** Parses a rule's JSON text and evaluates it within `budget`; true when the result is truthy. */
export function ruleHolds(text: string, data: unknown, budget?: RuleBudget): boolean {
  return jsonLogic.truthy(evaluate(parseRule(text), data, budget));
}
