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
 */
import jsonLogic from 'json-logic-js';
import type { AdditionalOperation, RulesLogic } from 'json-logic-js';

export class RuleError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

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

/** Throws a RuleError for an object of the rule that is not one operator with its arguments. */
function checkShape(rule: Json): void {
  if (Array.isArray(rule)) return rule.forEach(checkShape);
  if (rule === null || typeof rule !== 'object') return;
  const keys = Object.keys(rule);
  if (keys.length !== 1) throw new RuleError(`A rule object has exactly one operator, got ${keys.length}`);
  checkShape(rule[keys[0]!]!);
}

const UNRECOGNIZED = /^Unrecognized operation (\S+)/;

/** Evaluates a parsed rule over the data; throws a RuleError for a malformed rule. */
export function evaluate(rule: Json, data: unknown): unknown {
  checkShape(rule);
  try {
    return jsonLogic.apply(rule as RulesLogic<AdditionalOperation>, data);
  } catch (error) {
    if (error instanceof RuleError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const unknown = UNRECOGNIZED.exec(message);
    throw new RuleError(unknown ? `Unknown operator ${unknown[1]}` : `The rule cannot be evaluated: ${message}`, { cause: error });
  }
}

/** Parses a rule's JSON text and evaluates it; true when the result is truthy. */
export function ruleHolds(text: string, data: unknown): boolean {
  let rule: Json;
  try {
    rule = JSON.parse(text) as Json;
  } catch (error) {
    throw new RuleError(`The rule is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return jsonLogic.truthy(evaluate(rule, data));
}
