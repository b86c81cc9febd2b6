/**
 * How a search document matches (docs/behaviour.md "Search"), compiled once per query into tests
 * on documents. OpenMetadata's index maps its keyword fields with a lower-case normaliser and its
 * text fields with analysers, so a value matches a field when it equals one of the field's values
 * or (unless the field is a `.keyword` sub-field) one of their words, ignoring case; `*` and `?`
 * match within one value or word, as Elasticsearch's wildcard query does per term. Free text and
 * free wildcards are matched on the document's terms (src/features/search/documents.ts `termsOf`).
 */
import type { StoredEntity } from '../../core/entity-store.ts';
import { fieldValues, TERM_SEPARATOR, words } from './documents.ts';
import type { TextMatcher } from './patterns.ts';
import { Wildcard } from './patterns.ts';
import type { QueryNode } from './query-string.ts';

/** What the index keeps per entity (src/features/search/search-index.ts). */
export interface SearchRecord {
  readonly stored: StoredEntity;
  /** The terms free text and wildcards are matched on (src/features/search/documents.ts `termsOf`). */
  terms: string;
  /** Aggregation keys: pairs of aggregation number and key number (src/features/search/aggregations.ts). */
  agg: number[];
}

export type Predicate = (record: SearchRecord) => boolean;

/** A faster test of `field` equal to `value` when the index has one (src/features/search/aggregations.ts `keyTest`). */
export type KeyTest = (field: string, value: unknown) => Predicate | undefined;

/** A value as text for matching: strings as they are, numbers and booleans printed; anything else none. */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A character that separates words: a value without one is a single word. */
const SEPARATOR = /[^\p{L}\p{N}]/u;

/**
 * A test of the field's values, lower-cased, or (unless the field is a `.keyword` sub-field) of
 * their words. `maybe` is a cheap necessary condition on a whole value that spares splitting it.
 */
function fieldTest(field: string, test: (text: string) => boolean, maybe: (text: string) => boolean): Predicate {
  const keyword = field.endsWith('.keyword');
  return (record) => {
    for (const value of fieldValues(record.stored, field)) {
      const text = asText(value);
      if (text === undefined) continue;
      const lower = text.toLowerCase();
      if (test(lower)) return true;
      if (keyword || !maybe(lower) || !SEPARATOR.test(lower)) continue;
      for (const word of words(lower)) if (test(word)) return true;
    }
    return false;
  };
}

/** One of the field's values or words equals `value`, ignoring case. */
export function equalsTest(field: string, value: unknown): Predicate {
  const wanted = asText(value)?.toLowerCase();
  if (wanted === undefined) return () => false;
  return fieldTest(
    field,
    (text) => text === wanted,
    (text) => text.includes(wanted),
  );
}

/**
 * One of the field's values or words matches `pattern` as a whole (src/features/search/patterns.ts: linear
 * in the value, whatever the pattern); each contains `needle` when it matches.
 */
export function patternTest(field: string, pattern: TextMatcher, needle = ''): Predicate {
  const lower = needle.toLowerCase();
  return fieldTest(
    field,
    (text) => pattern.matches(text),
    (text) => text.includes(lower),
  );
}

/** A wildcard pattern (src/features/search/patterns.ts `Wildcard`) on the field's values or words, ignoring case. */
export function wildcardTest(field: string, pattern: string): Predicate {
  const wildcard = new Wildcard(pattern.toLowerCase());
  return patternTest(field, wildcard, wildcard.needle);
}

/** The field's values or words start with `prefix`, ignoring case. */
export function prefixTest(field: string, prefix: string): Predicate {
  const lower = prefix.toLowerCase();
  return fieldTest(
    field,
    (text) => text.startsWith(lower),
    (text) => text.includes(lower),
  );
}

export function existsTest(field: string): Predicate {
  return (record) => fieldValues(record.stored, field).length > 0;
}

/**
 * A free wildcard (src/features/search/query-string.ts: a wildcard pattern over one term): `*abc*`,
 * `abc*`, `*abc` and `abc` are substring tests on the separated terms; anything else is matched
 * term by term (src/features/search/patterns.ts `Wildcard`).
 */
function termsTest(pattern: string): Predicate {
  const wildcard = new Wildcard(pattern);
  const simple = wildcard.simple;
  if (simple) {
    const needle = `${simple.leading ? '' : TERM_SEPARATOR}${simple.text}${simple.trailing ? '' : TERM_SEPARATOR}`;
    return (record) => record.terms.includes(needle);
  }
  const { needle } = wildcard;
  return (record) => {
    const terms = record.terms;
    if (!terms.includes(needle)) return false;
    // Terms sit between separators: `\u0001term\u0001term\u0001`.
    for (let start = 1, end = terms.indexOf(TERM_SEPARATOR, start); end !== -1; start = end + 1, end = terms.indexOf(TERM_SEPARATOR, start)) {
      if (wildcard.matchesWithin(terms, start, end)) return true;
    }
    return false;
  };
}

/** The terms free text needs: one per word, each to be the start of one of the document's terms. */
export const wordNeedles = (text: string): string[] => words(text).map((word) => `${TERM_SEPARATOR}${word}`);

/**
 * Free text: every word of it starts one of the document's terms, as the full-text index matches
 * words and word prefixes (src/features/search/search-index.ts). Text without words matches nothing.
 */
function textTest(text: string): Predicate {
  const needles = wordNeedles(text);
  if (needles.length === 0) return () => false;
  if (needles.length === 1) {
    const needle = needles[0]!;
    return (record) => record.terms.includes(needle);
  }
  return (record) => needles.every((needle) => record.terms.includes(needle));
}

/** A parsed `q` as a test on documents; `keyTest` answers `field:value` on the fields it knows. */
export function compileQuery(node: QueryNode, keyTest?: KeyTest): Predicate {
  switch (node.kind) {
    case 'all':
      return () => true;
    case 'and': {
      const parts = node.nodes.map((n) => compileQuery(n, keyTest));
      return (record) => parts.every((p) => p(record));
    }
    case 'or': {
      const parts = node.nodes.map((n) => compileQuery(n, keyTest));
      return (record) => parts.some((p) => p(record));
    }
    case 'not': {
      const inner = compileQuery(node.node, keyTest);
      return (record) => !inner(record);
    }
    case 'text':
      return textTest(node.text);
    case 'wildcard':
      return termsTest(node.pattern);
    case 'field':
      if (node.exists) return existsTest(node.field);
      if (node.pattern === undefined) return keyTest?.(node.field, node.value) ?? equalsTest(node.field, node.value);
      return wildcardTest(node.field, node.pattern);
  }
}
