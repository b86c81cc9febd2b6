/**
 * The `q` of a search (docs/behaviour.md "Search"): the part of Lucene's query string syntax
 * OpenMetadata's web UI and its users send (`SearchResource.search`'s parameter description):
 * words, `"phrases"`, `field:value` and `field:(a OR b)`, the wildcards `*` and `?`, `AND`, `OR`,
 * `NOT` (upper case), `&&`, `||`, `!`, `+` and `-`, parentheses, and `\` escapes (the UI escapes
 * Elasticsearch's reserved characters so). Clauses without an operator must all match.
 *
 * Parsing is lenient, as OpenMetadata asks of Elasticsearch (`lenient(true)`): an unbalanced
 * parenthesis or a dangling operator is dropped rather than refused, so every `q` parses but one
 * past the limits of depth and terms (docs/behaviour.md "Limits of one request").
 */
import { CatalogError } from '../../core/errors.ts';
import { MAX_PATTERN_LENGTH } from './patterns.ts';

/** A parsed `q`. Words and values keep their wildcards as `*` and `?`; escaped ones are literal. */
export type QueryNode =
  | { kind: 'all' }
  | { kind: 'and' | 'or'; nodes: QueryNode[] }
  | { kind: 'not'; node: QueryNode }
  /** Free text: scored by the full-text index; a phrase's words must all match. */
  | { kind: 'text'; text: string }
  /** A word with wildcards, matched term by term: `pattern` is a wildcard pattern (src/features/search/patterns.ts), lower-cased. */
  | { kind: 'wildcard'; pattern: string }
  /** `field:value`: `pattern` as for a wildcard (an exact value has none); `exists` for `field:*`. */
  | { kind: 'field'; field: string; value: string; pattern: string | undefined; exists: boolean };

/** Wildcards survive unescaping as these private-use characters; escaped `*` and `?` become plain. */
const STAR = '\uE000';
const QUESTION = '\uE001';

type Token = { t: '(' | ')' | 'AND' | 'OR' | 'NOT' | 'MUST' } | { t: 'word'; value: string; field?: string } | { t: 'phrase'; value: string; field?: string };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = q.length;
  while (i < n) {
    const ch = q[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ t: ch });
      i++;
      continue;
    }
    if (ch === '"') {
      const [value, end] = readPhrase(q, i + 1);
      tokens.push({ t: 'phrase', value });
      i = end;
      continue;
    }
    if ((ch === '+' || ch === '-' || ch === '!') && i + 1 < n && !/[\s)]/.test(q[i + 1]!)) {
      tokens.push({ t: ch === '+' ? 'MUST' : 'NOT' });
      i++;
      continue;
    }
    // A word: up to whitespace, a parenthesis or a quote; `\x` is a literal x; the first unescaped `:` ends a field name.
    let value = '';
    let field: string | undefined;
    while (i < n) {
      const c = q[i]!;
      if (/\s/.test(c) || c === '(' || c === ')' || (c === '"' && value === '')) break;
      if (c === '\\' && i + 1 < n) {
        value += q[i + 1];
        i += 2;
        continue;
      }
      if (c === ':' && field === undefined && value !== '') {
        field = value;
        value = '';
        i++;
        // `field:"a phrase"` and `field:(a OR b)`: the value is the next token.
        if (q[i] === '"' || q[i] === '(') break;
        continue;
      }
      value += c === '*' ? STAR : c === '?' ? QUESTION : c;
      i++;
    }
    if (field !== undefined && value === '' && q[i] === '"') {
      const [phrase, end] = readPhrase(q, i + 1);
      tokens.push({ t: 'phrase', value: phrase, field });
      i = end;
      continue;
    }
    if (field === undefined && (value === 'AND' || value === '&&')) tokens.push({ t: 'AND' });
    else if (field === undefined && (value === 'OR' || value === '||')) tokens.push({ t: 'OR' });
    else if (field === undefined && value === 'NOT') tokens.push({ t: 'NOT' });
    else tokens.push({ t: 'word', value, ...(field !== undefined ? { field } : {}) });
  }
  return tokens;
}

function readPhrase(q: string, start: number): [string, number] {
  let value = '';
  let i = start;
  while (i < q.length && q[i] !== '"') {
    if (q[i] === '\\' && i + 1 < q.length) i++;
    value += q[i];
    i++;
  }
  return [value, i + 1];
}

/**
 * A word with wildcards as a wildcard pattern over one term (src/features/search/patterns.ts): `*` any run
 * of characters, `?` one; the characters that were escaped are escaped again.
 */
function wildcardSource(value: string): string {
  return [...value].map((c) => (c === STAR ? '*' : c === QUESTION ? '?' : c === '*' || c === '?' || c === '\\' ? `\\${c}` : c)).join('');
}

const plain = (value: string): string => value.replaceAll(STAR, '*').replaceAll(QUESTION, '?');
const hasWildcard = (value: string): boolean => value.includes(STAR) || value.includes(QUESTION);
const onlyStars = (value: string): boolean => value !== '' && [...value].every((c) => c === STAR);

function leaf(token: Extract<Token, { t: 'word' | 'phrase' }>, field: string | undefined): QueryNode {
  const value = token.value;
  if (field !== undefined) {
    if (token.t === 'word' && onlyStars(value)) return { kind: 'field', field, value: '*', pattern: undefined, exists: true };
    const wild = token.t === 'word' && hasWildcard(value);
    return { kind: 'field', field, value: plain(value), pattern: wild ? wildcardSource(value.toLowerCase()) : undefined, exists: false };
  }
  if (token.t === 'word' && onlyStars(value)) return { kind: 'all' };
  if (token.t === 'word' && hasWildcard(value)) return { kind: 'wildcard', pattern: wildcardSource(value.toLowerCase()) };
  return { kind: 'text', text: plain(value) };
}

/** The deepest nesting of groups and `NOT`s a query string may have (as a JSON body's, docs/behaviour.md "Limits of one request"). */
export const MAX_QUERY_DEPTH = 64;

/** The most terms and phrases a query string may have (Elasticsearch's `indices.query.bool.max_clause_count` of old). */
export const MAX_QUERY_CLAUSES = 1024;

class Parser {
  private at = 0;
  private depth = 0;
  private clauses = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly param: string,
  ) {}

  /** Runs `parse` one level deeper: a 400 past MAX_QUERY_DEPTH, before the stack could run out. */
  private deeper<T>(parse: () => T): T {
    if (++this.depth > MAX_QUERY_DEPTH)
      throw CatalogError.badRequest(`${this.param} is nested deeper than ${MAX_QUERY_DEPTH} levels (groups and NOTs)`, [{ path: this.param, message: 'nested too deep' }]);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  parse(): QueryNode {
    const nodes: QueryNode[] = [];
    while (this.at < this.tokens.length) {
      const node = this.or(undefined);
      if (node) nodes.push(node);
      else this.at++; // a stray `)` or operator
    }
    return simplify({ kind: 'and', nodes });
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private or(field: string | undefined): QueryNode | undefined {
    const nodes: QueryNode[] = [];
    for (;;) {
      const node = this.and(field);
      if (node) nodes.push(node);
      if (this.peek()?.t !== 'OR') break;
      this.at++;
    }
    return nodes.length === 0 ? undefined : simplify({ kind: 'or', nodes });
  }

  private and(field: string | undefined): QueryNode | undefined {
    const nodes: QueryNode[] = [];
    for (;;) {
      const token = this.peek();
      if (!token || token.t === ')' || token.t === 'OR') break;
      if (token.t === 'AND') {
        this.at++;
        continue;
      }
      const node = this.unary(field);
      if (node) nodes.push(node);
    }
    return nodes.length === 0 ? undefined : simplify({ kind: 'and', nodes });
  }

  private unary(field: string | undefined): QueryNode | undefined {
    const token = this.peek()!;
    if (token.t === 'NOT') {
      this.at++;
      const node = this.peek() && this.peek()!.t !== ')' && this.peek()!.t !== 'OR' ? this.deeper(() => this.unary(field)) : undefined;
      return node ? { kind: 'not', node } : undefined;
    }
    if (token.t === 'MUST') {
      this.at++;
      return this.peek() && this.peek()!.t !== ')' && this.peek()!.t !== 'OR' ? this.deeper(() => this.unary(field)) : undefined;
    }
    return this.primary(field);
  }

  private primary(field: string | undefined): QueryNode | undefined {
    const token = this.tokens[this.at++]!;
    if (token.t === '(') {
      const node = this.deeper(() => this.or(field));
      if (this.peek()?.t === ')') this.at++;
      return node;
    }
    if (token.t === 'word' || token.t === 'phrase') {
      // `field:(a OR b)`: the word is empty and a group follows.
      if (token.field !== undefined && token.value === '' && token.t === 'word' && this.peek()?.t === '(') {
        this.at++;
        const node = this.deeper(() => this.or(token.field));
        if (this.peek()?.t === ')') this.at++;
        return node;
      }
      if (token.t === 'word' && token.value === '' && token.field === undefined) return undefined;
      if (++this.clauses > MAX_QUERY_CLAUSES)
        throw CatalogError.badRequest(`${this.param} has more than ${MAX_QUERY_CLAUSES} terms`, [{ path: this.param, message: 'too many terms' }]);
      const node = leaf(token, token.field ?? field);
      if ((node.kind === 'wildcard' || node.kind === 'field') && node.pattern !== undefined && node.pattern.length > MAX_PATTERN_LENGTH) {
        throw CatalogError.badRequest(`${this.param} has a wildcard term longer than the limit of ${MAX_PATTERN_LENGTH} characters`, [
          { path: this.param, message: 'wildcard too long' },
        ]);
      }
      return node;
    }
    return undefined;
  }
}

/** One-node groups unwrapped; `all` dropped from an AND (and an AND of nothing is `all`); an OR with `all` is `all`. */
function simplify(node: QueryNode): QueryNode {
  if (node.kind !== 'and' && node.kind !== 'or') return node;
  if (node.kind === 'or' && node.nodes.some((n) => n.kind === 'all')) return { kind: 'all' };
  const nodes = node.kind === 'and' ? node.nodes.filter((n) => n.kind !== 'all') : node.nodes;
  if (nodes.length === 0) return { kind: 'all' };
  return nodes.length === 1 ? nodes[0]! : { kind: node.kind, nodes };
}

/**
 * Parses a query string; `param` names it in the 400 of one nested deeper than MAX_QUERY_DEPTH or
 * with more than MAX_QUERY_CLAUSES terms, the only query strings refused.
 */
export function parseQueryString(q: string | undefined, param = 'q'): QueryNode {
  if (q === undefined || q.trim() === '') return { kind: 'all' };
  return new Parser(tokenize(q), param).parse();
}
