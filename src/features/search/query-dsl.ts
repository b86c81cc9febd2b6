/**
 * `query_filter` and `post_filter` (docs/behaviour.md "Search"): the part of Elasticsearch's query
 * DSL OpenMetadata's web UI builds (its quick filters and advanced search): `bool` (`must`,
 * `filter`, `should`, `must_not`, `minimum_should_match`), `term`, `terms`, `match`,
 * `match_phrase`, `prefix`, `wildcard`, `regexp`, `exists`, `range`, `match_all`, `match_none`,
 * `query_string` and `nested`, each compiled once into a test on a document.
 *
 * Text that is not JSON, or JSON that is not such a query, is refused with a 400 naming the
 * parameter, as OpenMetadata's `QueryFilterShape.requireQueryDsl` refuses a malformed filter.
 */
import { CatalogError } from '../../core/errors.ts';
import { fieldValues, words } from './documents.ts';
import { asText, compileQuery, equalsTest, existsTest, patternTest, prefixTest, wildcardTest } from './matching.ts';
import type { KeyTest, Predicate } from './matching.ts';
import { compileRegexp, PatternError } from './patterns.ts';
import { MAX_QUERY_CLAUSES, MAX_QUERY_DEPTH, parseQueryString } from './query-string.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

class DslCompiler {
  /** How deep the query being compiled is, and how many leaf queries it has so far (docs/behaviour.md "Limits of one request"). */
  private depth = 0;
  private leaves = 0;

  constructor(
    private readonly param: string,
    private readonly keyTest?: KeyTest,
  ) {}

  private equals(field: string, value: unknown): Predicate {
    return this.keyTest?.(field, value) ?? equalsTest(field, value);
  }

  fail(problem: string): never {
    throw CatalogError.badRequest(`${this.param} is not a valid query: ${problem}`, [{ path: this.param, message: problem }]);
  }

  /** The one field of a leaf query (`{"term": {"entityType": "table"}}`) and its value. */
  private single(name: string, body: unknown): [string, unknown] {
    if (!isObject(body)) this.fail(`[${name}] expects an object`);
    const entries = Object.entries(body).filter(([key]) => key !== 'boost' && key !== '_name');
    if (entries.length !== 1) this.fail(`[${name}] expects exactly one field`);
    return entries[0]!;
  }

  /** A leaf's value given bare or as `{value}` / `{query}`. */
  private valueOf(name: string, raw: unknown, key: string): unknown {
    if (isObject(raw)) {
      if (!(key in raw)) this.fail(`[${name}] expects [${key}]`);
      return raw[key];
    }
    return raw;
  }

  private text(name: string, value: unknown): string {
    const text = asText(value);
    if (text === undefined) this.fail(`[${name}] expects a string, a number or a boolean`);
    return text;
  }

  private clauses(value: unknown): Predicate[] {
    if (value === undefined) return [];
    if (isObject(value)) return [this.compile(value)];
    if (Array.isArray(value) && value.every(isObject)) return value.map((v) => this.compile(v));
    return this.fail('a malformed boolean clause');
  }

  /** A query as a test on documents; a 400 past MAX_QUERY_DEPTH levels or MAX_QUERY_CLAUSES leaf queries. */
  compile(query: unknown): Predicate {
    if (++this.depth > MAX_QUERY_DEPTH) this.fail(`nested deeper than ${MAX_QUERY_DEPTH} levels`);
    try {
      return this.compileOne(query);
    } finally {
      this.depth--;
    }
  }

  /** A leaf query counts against MAX_QUERY_CLAUSES. */
  private leaf(): void {
    if (++this.leaves > MAX_QUERY_CLAUSES) this.fail(`more than ${MAX_QUERY_CLAUSES} queries`);
  }

  /** A pattern a leaf query names, compiled; a pattern that does not compile or is over a limit is a 400 naming the query. */
  private pattern<T>(name: string, value: string, compile: () => T): T {
    try {
      return compile();
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      if (error.reason === 'limit') return this.fail(`[${name}] ${error.message}`);
      throw CatalogError.badRequest(`${this.param} is not a valid query: [${name}] cannot read ${JSON.stringify(value)}`, [{ path: this.param, message: error.message }]);
    }
  }

  private compileOne(query: unknown): Predicate {
    if (!isObject(query)) this.fail('expected query DSL, got a query that is not an object');
    const keys = Object.keys(query);
    if (keys.length !== 1) this.fail(keys.length === 0 ? 'an empty query' : `one query per object, got [${keys.join(', ')}]`);
    const name = keys[0]!;
    const body = query[name];
    if (name !== 'bool' && name !== 'nested') this.leaf();
    switch (name) {
      case 'bool':
        return this.bool(body);
      case 'match_all':
        return () => true;
      case 'match_none':
        return () => false;
      case 'term': {
        const [field, raw] = this.single(name, body);
        const value = this.valueOf(name, raw, 'value');
        this.text(name, value);
        return this.equals(field, value);
      }
      case 'terms': {
        const [field, raw] = this.single(name, body);
        if (!Array.isArray(raw)) this.fail('[terms] expects an array of values');
        for (const v of raw) this.text(name, v);
        const tests = raw.map((v) => this.equals(field, v));
        return (r) => tests.some((t) => t(r));
      }
      case 'match':
      case 'match_phrase':
        return this.match(name, body);
      case 'prefix': {
        const [field, raw] = this.single(name, body);
        const value = this.text(name, this.valueOf(name, raw, 'value'));
        return prefixTest(field, value);
      }
      case 'wildcard': {
        const [field, raw] = this.single(name, body);
        const value = this.text(name, isObject(raw) && 'wildcard' in raw ? raw.wildcard : this.valueOf(name, raw, 'value'));
        return this.pattern(name, value, () => wildcardTest(field, value));
      }
      case 'regexp': {
        const [field, raw] = this.single(name, body);
        const value = this.text(name, this.valueOf(name, raw, 'value'));
        return patternTest(
          field,
          this.pattern(name, value, () => compileRegexp(value)),
        );
      }
      case 'exists': {
        if (!isObject(body) || typeof body.field !== 'string') this.fail('[exists] expects {"field": <name>}');
        return existsTest(body.field);
      }
      case 'range':
        return this.range(body);
      case 'query_string': {
        if (!isObject(body) || typeof body.query !== 'string') this.fail('[query_string] expects {"query": <string>}');
        return compileQuery(parseQueryString(body.query, this.param), this.keyTest);
      }
      case 'nested': {
        if (!isObject(body) || !isObject(body.query)) this.fail('[nested] expects {"path", "query"}');
        return this.compile(body.query);
      }
      default:
        return this.fail(`unknown query [${name}]`);
    }
  }

  private bool(body: unknown): Predicate {
    if (!isObject(body)) this.fail('[bool] expects an object');
    for (const key of Object.keys(body)) {
      if (!['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative'].includes(key)) this.fail(`[bool] does not take [${key}]`);
    }
    const must = [...this.clauses(body.must), ...this.clauses(body.filter)];
    const should = this.clauses(body.should);
    const mustNot = this.clauses(body.must_not);
    let minimum = must.length === 0 && should.length > 0 ? 1 : 0;
    if (body.minimum_should_match !== undefined) {
      const raw = body.minimum_should_match;
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+%?$/.test(raw) ? parseMinimum(raw, should.length) : NaN;
      if (!Number.isInteger(n)) this.fail('[bool] minimum_should_match must be a number or a percentage');
      minimum = n < 0 ? Math.max(0, should.length + n) : n;
    }
    return (r) => {
      for (const p of must) if (!p(r)) return false;
      for (const p of mustNot) if (p(r)) return false;
      if (minimum === 0) return true;
      let matched = 0;
      for (const p of should) if (p(r) && ++matched >= minimum) return true;
      return false;
    };
  }

  private match(name: string, body: unknown): Predicate {
    const [field, raw] = this.single(name, body);
    const text = this.text(name, this.valueOf(name, raw, 'query'));
    const wanted = words(text);
    if (name === 'match_phrase') {
      const phrase = text.toLowerCase();
      return (r) => fieldValues(r.stored, field).some((v) => asText(v)?.toLowerCase().includes(phrase) ?? false);
    }
    const all = isObject(raw) && typeof raw.operator === 'string' && raw.operator.toLowerCase() === 'and';
    if (wanted.length === 0) return () => false;
    return (r) => {
      const present = new Set(fieldValues(r.stored, field).flatMap((v) => words(asText(v) ?? '')));
      return all ? wanted.every((w) => present.has(w)) : wanted.some((w) => present.has(w));
    };
  }

  private range(body: unknown): Predicate {
    const [field, raw] = this.single('range', body);
    if (!isObject(raw)) this.fail('[range] expects {"<field>": {"gte"|"gt"|"lte"|"lt": …}}');
    const bounds: [string, number | string][] = [];
    for (const [op, bound] of Object.entries(raw)) {
      if (op === 'format' || op === 'boost' || op === 'time_zone' || op === 'relation') continue;
      if (!['gte', 'gt', 'lte', 'lt'].includes(op)) this.fail(`[range] does not take [${op}]`);
      if (typeof bound !== 'number' && typeof bound !== 'string') this.fail('[range] bounds must be numbers or strings');
      bounds.push([op, bound]);
    }
    const within = (value: unknown): boolean =>
      bounds.every(([op, bound]) => {
        const numeric = typeof bound === 'number' || (bound !== '' && !Number.isNaN(Number(bound)));
        const a = numeric ? Number(value) : asText(value);
        const b = numeric ? Number(bound) : bound;
        if (a === undefined || (typeof a === 'number' && Number.isNaN(a))) return false;
        return op === 'gte' ? a >= b : op === 'gt' ? a > b : op === 'lte' ? a <= b : a < b;
      });
    return (r) => fieldValues(r.stored, field).some(within);
  }
}

function parseMinimum(raw: string, shoulds: number): number {
  if (!raw.endsWith('%')) return Number(raw);
  const percent = Number(raw.slice(0, -1));
  return Math.trunc((shoulds * percent) / 100);
}

/**
 * Compiles a filter parameter: `undefined` for none (absent, empty, or `{}`). Accepts the query
 * alone or wrapped in `{"query": …}`, as OpenMetadata does.
 */
export function compileFilter(param: string, text: string | undefined, keyTest?: KeyTest): Predicate | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    new DslCompiler(param).fail('expected query DSL, got text that is not JSON');
  }
  return compileQueryJson(param, parsed, keyTest);
}

/** A query given as parsed JSON (the aggregate endpoints take one in `q` / `query`). */
function compileQueryJson(param: string, parsed: unknown, keyTest?: KeyTest): Predicate | undefined {
  const compiler = new DslCompiler(param, keyTest);
  if (!isObject(parsed)) return compiler.fail('expected query DSL, got JSON that is not an object');
  const query = 'query' in parsed ? parsed.query : parsed;
  if (isObject(query) && Object.keys(query).length === 0) return undefined;
  return compiler.compile(query);
}
