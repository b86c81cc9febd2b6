/**
 * The rule language of data-contract semantics rules (data-contract.yaml `SemanticsRule.rule`: "JSON
 * Logic over the entity"). A subset of JSON Logic (jsonlogic.com) evaluated over the stored entity:
 *
 *   data access   {"var": "owners"}  {"var": ["description", ""]}  {"var": "columns.length"}
 *                 {"missing": ["description", "owners"]}  (the names whose value is null / "" / absent)
 *   logic         {"!": x}  {"!!": x}  {"and": [..]}  {"or": [..]}  {"if": [c, a, c2, b, else]}
 *   comparison    == != (numbers and strings compared loosely) === !== < <= > >= (`<` and `<=` take
 *                 a third argument: between)
 *   collections   {"in": [x, arrayOrString]}  {"some" | "all" | "none": [array, rule over each item]}
 *   strings       {"cat": [..]}
 *   arithmetic    + - * / (two or more operands; `+` also sums one array operand)
 *
 * Truthiness is JSON Logic's: `false`, `null`, `0`, `""` and `[]` are false. A malformed rule or
 * an unknown operator throws a RuleError, which validation reports as a failed rule with its reason.
 */
export class RuleError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function lookup(data: unknown, path: unknown): unknown {
  if (path === null || path === undefined || path === '') return data;
  let current: unknown = data;
  for (const key of String(path).split('.')) {
    if (current === null || current === undefined) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function looseEqual(a: unknown, b: unknown): boolean {
  if ((typeof a === 'number' && typeof b === 'string') || (typeof a === 'string' && typeof b === 'number')) return Number(a) === Number(b);
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return a === b;
}

function numbers(values: unknown[], op: string): number[] {
  return values.map((v) => {
    const n = Number(v);
    if (Number.isNaN(n)) throw new RuleError(`Operator ${op} needs numbers, got ${JSON.stringify(v)}`);
    return n;
  });
}

export function evaluate(rule: Json | undefined, data: unknown): unknown {
  if (Array.isArray(rule)) return rule.map((r) => evaluate(r, data));
  if (rule === null || typeof rule !== 'object') return rule;
  const keys = Object.keys(rule);
  if (keys.length !== 1) throw new RuleError(`A rule object has exactly one operator, got ${keys.length}`);
  const op = keys[0]!;
  const raw = rule[op];
  const args: Json[] = Array.isArray(raw) ? raw : [raw as Json];
  const arg = (i: number) => evaluate(args[i], data);
  const all = () => args.map((a) => evaluate(a, data));

  switch (op) {
    case 'var': {
      const value = lookup(data, arg(0));
      return value === undefined || value === null ? (args.length > 1 ? arg(1) : null) : value;
    }
    case 'missing':
      return all().flat().filter((key) => {
        const value = lookup(data, key);
        return value === undefined || value === null || value === '';
      });
    case '!':
      return !truthy(arg(0));
    case '!!':
      return truthy(arg(0));
    case 'and': {
      let value: unknown = true;
      for (const a of args) if (!truthy((value = evaluate(a, data)))) return value;
      return value;
    }
    case 'or': {
      let value: unknown = false;
      for (const a of args) if (truthy((value = evaluate(a, data)))) return value;
      return value;
    }
    case 'if': {
      let i = 0;
      for (; i + 1 < args.length; i += 2) if (truthy(arg(i))) return arg(i + 1);
      return i < args.length ? arg(i) : null;
    }
    case '==':
      return looseEqual(arg(0), arg(1));
    case '!=':
      return !looseEqual(arg(0), arg(1));
    case '===':
      return JSON.stringify(arg(0)) === JSON.stringify(arg(1));
    case '!==':
      return JSON.stringify(arg(0)) !== JSON.stringify(arg(1));
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const n = numbers(all(), op);
      const holds = (a: number, b: number) => (op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b);
      if (n.length < 2) throw new RuleError(`Operator ${op} needs two operands`);
      return holds(n[0]!, n[1]!) && (n.length < 3 || holds(n[1]!, n[2]!));
    }
    case 'in': {
      const [needle, haystack] = [arg(0), arg(1)];
      if (typeof haystack === 'string') return haystack.includes(String(needle));
      return Array.isArray(haystack) && haystack.some((item) => looseEqual(item, needle));
    }
    case 'some':
    case 'all':
    case 'none': {
      const items = arg(0);
      if (!Array.isArray(items)) return op !== 'some' && op !== 'all' ? true : false;
      const test = (item: unknown) => truthy(evaluate(args[1], item));
      if (op === 'some') return items.some(test);
      if (op === 'all') return items.length > 0 && items.every(test);
      return !items.some(test);
    }
    case 'cat':
      return all().map((v) => (v === null || v === undefined ? '' : String(v))).join('');
    case '+': {
      const values = all();
      return numbers(values.length === 1 && Array.isArray(values[0]) ? values[0] : values, op).reduce((a, b) => a + b, 0);
    }
    case '-':
    case '*':
    case '/': {
      const n = numbers(all(), op);
      if (op === '-' && n.length === 1) return -n[0]!;
      if (n.length < 2) throw new RuleError(`Operator ${op} needs two operands`);
      return n.slice(1).reduce((a, b) => (op === '-' ? a - b : op === '*' ? a * b : a / b), n[0]!);
    }
    default:
      throw new RuleError(`Unknown operator ${op}`);
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
  return truthy(evaluate(rule, data));
}
