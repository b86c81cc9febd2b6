/**
 * The search index of a catalog (docs/behaviour.md "Search"): derived state, kept beside the store
 * and never persisted. It is built from the store on the first search, then kept current by the
 * store's change listener (src/core/entity-store.ts `subscribe`) at the cost of the changed entity
 * only; a reset or an import (the store cleared) drops it, and the next search builds it again.
 *
 * Which documents match is decided by tests on each document of the kinds searched, compiled once
 * per query: free text and wildcards on the document's terms (src/features/search/documents.ts `termsOf`),
 * `field:value` terms and the query DSL filters on its fields. How the matches of free text rank is
 * MiniSearch's BM25 score (words and word prefixes), one MiniSearch index per kind (as
 * OpenMetadata keeps one search index per kind), with OpenMetadata's field boosts from its default
 * search settings (name and display name 10, FQN 5, description and column names 2). A kind's
 * MiniSearch index is built when a query first needs a score from it. Scoring costs time in
 * proportion to the documents a word matches, so a word that matches more than `SCORED_LIMIT`
 * documents of the kinds searched does not add to the score, and free text of only such words
 * ranks its matches as equals (score 1, then by FQN), as a `constant_score` query would.
 * Only the page of hits is sorted (a bounded selection, not a sort of every match) and only its
 * documents are built.
 */
import MiniSearch from 'minisearch';
import type { components } from '../../../openapi/generated/schema.d.ts';
import type { CatalogContext } from '../../core/context.ts';
import { CatalogError } from '../../core/errors.ts';
import type { StoreChange, StoredEntity } from '../../core/entity-store.ts';
import { bucketsOf, ConfiguredAggregations, keysOf } from './aggregations.ts';
import type { TextFields } from './documents.ts';
import { fieldValues, sourceOf, termsOf, textOf, words } from './documents.ts';
import { IndexNames, indexNameOf } from './indexes.ts';
import type { KeyTest, Predicate, SearchRecord } from './matching.ts';
import { asText, compileQuery, wildcardTest, wordNeedles } from './matching.ts';
import type { TextMatcher } from './patterns.ts';
import { compileRegexp, PatternError } from './patterns.ts';
import { compileFilter } from './query-dsl.ts';
import type { QueryNode } from './query-string.ts';
import { parseQueryString } from './query-string.ts';

type SearchResponse = components['schemas']['SearchResponse'];
type SearchHit = components['schemas']['SearchHit'];
type SearchBucket = components['schemas']['SearchBucket'];

/** Elasticsearch's `index.max_result_window` and OpenMetadata's `MAX_RESULT_HITS`: hits beyond it are not paged to, counts stop there. */
const MAX_RESULT_WINDOW = 10_000;

/** A word of free text adds to the score only when it matches at most this many documents of the kinds searched. */
const SCORED_LIMIT = 5_000;

const TEXT_FIELDS = ['name', 'displayName', 'fullyQualifiedName', 'description', 'columnNames'] as const;
const BOOSTS = { name: 10, displayName: 10, fullyQualifiedName: 5, description: 2, columnNames: 2 };
const SHARDS = { total: 1, successful: 1, skipped: 0, failed: 0 };

export interface QueryRequest {
  q?: string | undefined;
  index: string;
  from: number;
  size: number;
  /** Only soft-deleted entities (`true`) or only live ones. */
  deleted: boolean;
  sortField: string;
  sortOrder: 'asc' | 'desc';
  trackTotalHits: boolean;
  queryFilter?: string | undefined;
  postFilter?: string | undefined;
  fetchSource: boolean;
  includeFields?: readonly string[] | undefined;
  excludeFields?: readonly string[] | undefined;
  /** The sort values of the last hit seen (its `sort`: the key, then the FQN): only hits after it. */
  searchAfter?: readonly string[] | undefined;
}

export interface AggregateRequest {
  index: string;
  field: string;
  /** Regular expression the keys must match as a whole; empty keeps every key. */
  value: string;
  /** The parameter `value` came in, for its 400 (`value` or `fieldValue`). */
  valueParam: string;
  /** A query string or query DSL as JSON. */
  q?: string | undefined;
  /** The parameter `q` came in (`q` or `query`). */
  qParam: string;
  queryText?: string | undefined;
  size: number;
  /** Undefined: deleted and live alike. */
  deleted: boolean | undefined;
  sourceFields?: readonly string[] | undefined;
  topHitsSize: number;
}

export interface FieldQueryRequest {
  index: string;
  fieldName: string;
  fieldValue: string;
  deleted: boolean;
  from: number;
  size: number;
}

interface Match {
  record: SearchRecord;
  score: number;
  key: number | string | undefined;
}

/** The kinds' documents, and each kind's full-text index once a query has needed it. */
interface Kind {
  records: Map<string, SearchRecord>;
  text: MiniSearch<TextFields> | undefined;
}

export class SearchIndex {
  /** By kind; undefined until the first search, and again after the store is cleared. */
  private kinds: Map<string, Kind> | undefined;
  private aggregations = new ConfiguredAggregations();
  private readonly names: IndexNames;

  constructor(private readonly ctx: CatalogContext) {
    this.names = new IndexNames(ctx.kinds.all);
    ctx.store.subscribe((change) => this.apply(change));
  }

  private apply(change: StoreChange): void {
    if (change.op === 'clear') {
      this.kinds = undefined;
      this.aggregations = new ConfiguredAggregations();
      return;
    }
    if (!this.kinds) return;
    const { stored } = change;
    const kind = kindOf(this.kinds, stored.type);
    const id = stored.entity.id;
    const old = kind.records.get(id);
    if (change.op === 'remove') {
      if (!old) return;
      kind.records.delete(id);
      kind.text?.discard(id);
      return;
    }
    const text = textOf(stored);
    const terms = termsOf(text);
    if (kind.text && old?.terms !== terms) {
      if (old) kind.text.discard(id);
      kind.text.add(text);
    }
    kind.records.set(id, { stored, terms, agg: this.aggregations.encode(stored) });
  }

  /** `term` on a configured aggregation's field, on its indexed keys (src/features/search/aggregations.ts). */
  private readonly keyTest: KeyTest = (field, value) => this.aggregations.keyTest(field, value);

  private built(): Map<string, Kind> {
    if (this.kinds) return this.kinds;
    const kinds = new Map<string, Kind>();
    for (const stored of this.ctx.store.all()) {
      kindOf(kinds, stored.type).records.set(stored.entity.id, { stored, terms: termsOf(textOf(stored)), agg: this.aggregations.encode(stored) });
    }
    return (this.kinds = kinds);
  }

  /** Visits the documents of `types` that pass `test`, in the deleted state asked for. */
  private select(types: ReadonlySet<string>, deleted: boolean | undefined, test: Predicate, visit: (record: SearchRecord) => void): void {
    const kinds = this.built();
    for (const type of types) {
      for (const record of kinds.get(type)?.records.values() ?? []) {
        if (deleted !== undefined && (record.stored.entity.deleted === true) !== deleted) continue;
        if (test(record)) visit(record);
      }
    }
  }

  /**
   * The summed MiniSearch scores, in the kinds of `types`, of the words that score (the query's
   * free-text words, not under a NOT, that match at most `SCORED_LIMIT` of the documents searched);
   * undefined when no word does. Builds a kind's MiniSearch index on first use.
   */
  private scores(types: ReadonlySet<string>, scoredWords: readonly string[]): Map<string, number> | undefined {
    if (scoredWords.length === 0) return undefined;
    const kinds = this.built();
    const sums = new Map<string, number>();
    for (const type of types) {
      const kind = kinds.get(type);
      if (!kind || kind.records.size === 0) continue;
      kind.text ??= fullTextOf(kind.records);
      for (const word of scoredWords) for (const result of kind.text.search(word)) sums.set(String(result.id), (sums.get(String(result.id)) ?? 0) + result.score);
    }
    return sums;
  }

  /** `GET /v1/search/stats`: the documents of each kind's index (soft-deleted ones counted), in kind order. */
  stats(): { totalDocuments: number; indexes: { name: string; alias: string; documents: number }[]; orphanIndexes: string[] } {
    const kinds = this.built();
    const indexes = this.ctx.kinds.all.map((kind) => ({ name: indexNameOf(kind.type), alias: kind.type, documents: kinds.get(kind.type)?.records.size ?? 0 }));
    return { totalDocuments: indexes.reduce((sum, i) => sum + i.documents, 0), indexes, orphanIndexes: [] };
  }

  /** `GET /v1/search/query`. */
  query(request: QueryRequest): SearchResponse {
    const started = performance.now();
    const window = request.from + request.size;
    if (window > MAX_RESULT_WINDOW) {
      throw CatalogError.badRequest(`Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${window}]`);
    }
    this.built(); // before the counters: building numbers the aggregation keys
    const node = parseQueryString(request.q);
    const keyTest = this.keyTest;
    const test = compileQuery(node, keyTest);
    const queryFilter = compileFilter('query_filter', request.queryFilter, keyTest);
    const postFilter = compileFilter('post_filter', request.postFilter, keyTest);
    const types = this.names.typesOf(request.index);
    const byScore = request.sortField === '_score';
    // The words free text scores with, and how many documents each matches (counted in the same pass).
    const needles = byScore ? [...new Set(positiveTexts(node).flatMap((n) => wordNeedles(n.text)))] : [];
    const counts = needles.map(() => 0);
    const counters = this.aggregations.counters();
    const compare = comparator(byScore, request.sortOrder);
    const top = new TopMatches(window, compare);
    const sortKey = byScore ? undefined : sortKeyOf(request.sortField);
    const after = request.searchAfter && request.searchAfter.length > 0 ? afterCursor(request.searchAfter, byScore, compare) : undefined;
    if (after && request.from > 0) throw CatalogError.badRequest('[from] parameter must be set to 0 when [search_after] is used');
    // Without words to score, the matches go straight to the page; with them, once the scores are known.
    const matches: SearchRecord[] = [];
    let total = 0;
    this.select(types, request.deleted, needles.length ? countingWords(test, needles, counts) : test, (record) => {
      if (queryFilter && !queryFilter(record)) return;
      ConfiguredAggregations.add(counters, record.agg);
      if (postFilter && !postFilter(record)) return;
      total++;
      if (needles.length) matches.push(record);
      else {
        const key = sortKey?.(record.stored);
        if (!after || after(record, 1, key)) top.offer(record, 1, key);
      }
    });
    const scoredWords = needles.filter((_, i) => counts[i]! <= SCORED_LIMIT).map((needle) => needle.slice(1));
    const scores = total > 0 ? this.scores(types, scoredWords) : undefined;
    let maxScore = total > 0 ? 1 : 0;
    for (const record of matches) {
      const score = scores?.get(record.stored.entity.id) || 1;
      if (score > maxScore) maxScore = score;
      const key = sortKey?.(record.stored);
      if (!after || after(record, score, key)) top.offer(record, score, key);
    }
    const page = top.sorted().slice(request.from);
    const counted = !request.trackTotalHits && total > MAX_RESULT_WINDOW ? { value: MAX_RESULT_WINDOW, relation: 'gte' as const } : { value: total, relation: 'eq' as const };
    return {
      took: elapsed(started),
      timed_out: false,
      _shards: SHARDS,
      hits: {
        total: counted,
        max_score: byScore && total > 0 ? maxScore : null,
        hits: page.map((m) => {
          const hit: SearchHit = { _index: indexNameOf(m.record.stored.type), _id: m.record.stored.entity.id, _score: byScore ? m.score : null };
          if (request.fetchSource) hit._source = project(sourceOf(m.record.stored), request.includeFields, request.excludeFields);
          if (!byScore) hit.sort = [m.key ?? null, m.record.stored.entity.fullyQualifiedName];
          return hit;
        }),
      },
      aggregations: this.aggregations.answer(counters),
    };
  }

  /** `GET` and `POST /v1/search/aggregate`: the keys of one field among the matching documents. */
  aggregate(request: AggregateRequest): SearchResponse {
    const started = performance.now();
    this.built();
    let node = parseQueryString(request.q?.trim().startsWith('{') ? undefined : request.q, request.qParam);
    let filter: Predicate | undefined;
    if (request.q?.trim().startsWith('{')) filter = compileFilter(request.qParam, request.q, this.keyTest);
    if (request.queryText !== undefined && request.queryText.trim() !== '') node = { kind: 'and', nodes: [node, { kind: 'text', text: request.queryText }] };
    const include = request.value === '' ? undefined : keyPattern(request.value, request.valueParam);
    const types = this.names.typesOf(request.index);
    const counts = new Map<string, number>();
    const members = new Map<string, SearchRecord[]>();
    // A configured aggregation's keys were worked out when the documents were indexed.
    const configured = this.aggregations.numberOf(request.field);
    const included = new Map<string, boolean>();
    const keep = (key: string): boolean => {
      let kept = included.get(key);
      if (kept === undefined) included.set(key, (kept = !include || include.matches(key)));
      return kept;
    };
    let total = 0;
    this.select(types, request.deleted, compileQuery(node, this.keyTest), (record) => {
      if (filter && !filter(record)) return;
      total++;
      const keys = configured === undefined ? keysOf(fieldValues(record.stored, request.field)) : this.aggregations.keysIn(record.agg, configured);
      for (const key of keys) {
        if (!keep(key)) continue;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (request.sourceFields) {
          let list = members.get(key);
          if (!list) members.set(key, (list = []));
          if (list.length < request.topHitsSize) list.push(record);
        }
      }
    });
    const aggregation = bucketsOf(counts, 'key', request.size);
    if (request.sourceFields) {
      const fields = request.sourceFields;
      aggregation.buckets = aggregation.buckets.map((bucket): SearchBucket => {
        const docs = members.get(bucket.key) ?? [];
        return {
          ...bucket,
          'top_hits#top': {
            hits: {
              total: { value: bucket.doc_count, relation: 'eq' },
              max_score: docs.length ? 1 : null,
              hits: docs.map((r) => ({ _index: indexNameOf(r.stored.type), _id: r.stored.entity.id, _score: 1, _source: project(sourceOf(r.stored), fields, undefined) })),
            },
          },
        };
      });
    }
    return {
      took: elapsed(started),
      timed_out: false,
      _shards: SHARDS,
      hits: { total: { value: total, relation: 'eq' }, max_score: null, hits: [] },
      aggregations: { [`sterms#${request.field}`]: aggregation },
    };
  }

  /** `GET /v1/search/fieldQuery`: documents whose field matches a wildcard value, by name. */
  fieldQuery(request: FieldQueryRequest): SearchResponse {
    const started = performance.now();
    const window = request.from + request.size;
    if (window > MAX_RESULT_WINDOW) {
      throw CatalogError.badRequest(`Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${window}]`);
    }
    const test = patternOf(request.fieldValue, 'fieldValue', () => wildcardTest(request.fieldName, request.fieldValue));
    const matches: Match[] = [];
    this.select(this.names.typesOf(request.index), request.deleted, test, (record) => {
      matches.push({ record, score: 1, key: record.stored.entity.name.toLowerCase() });
    });
    matches.sort(comparator(false, 'asc'));
    return {
      took: elapsed(started),
      timed_out: false,
      _shards: SHARDS,
      hits: {
        total: { value: matches.length, relation: 'eq' },
        max_score: matches.length ? 1 : null,
        hits: matches
          .slice(request.from, window)
          .map((m) => ({ _index: indexNameOf(m.record.stored.type), _id: m.record.stored.entity.id, _score: 1, _source: sourceOf(m.record.stored) })),
      },
    };
  }
}

/** The aggregate's `value`: a regular expression over a whole key (src/features/search/patterns.ts); a 400 naming `param` when it does not compile or is over a limit. */
function keyPattern(value: string, param: string): TextMatcher {
  return patternOf(value, param, () => compileRegexp(value), 'is not a regular expression');
}

/** A pattern from a request, compiled; its PatternError a 400 naming the parameter. */
function patternOf<T>(value: string, param: string, compile: () => T, what = 'is not a wildcard pattern'): T {
  try {
    return compile();
  } catch (error) {
    if (!(error instanceof PatternError)) throw error;
    const message = error.reason === 'limit' ? `${param} ${error.message}` : `${param} ${what}: ${value}`;
    throw CatalogError.badRequest(message, [{ path: param, message: error.message }]);
  }
}

function kindOf(kinds: Map<string, Kind>, type: string): Kind {
  let kind = kinds.get(type);
  if (!kind) kinds.set(type, (kind = { records: new Map(), text: undefined }));
  return kind;
}

/**
 * A test that also counts, per word, the documents it visits whose terms hold the word (up to one
 * past `SCORED_LIMIT`: a word counted that far will not be scored, so it is not tested further).
 */
function countingWords(test: Predicate, needles: readonly string[], counts: number[]): Predicate {
  return (record) => {
    for (let i = 0; i < needles.length; i++) if (counts[i]! <= SCORED_LIMIT && record.terms.includes(needles[i]!)) counts[i]!++;
    return test(record);
  };
}

function fullTextOf(records: Map<string, SearchRecord>): MiniSearch<TextFields> {
  const index = new MiniSearch<TextFields>({
    fields: [...TEXT_FIELDS],
    idField: 'id',
    extractField: (doc, field) => (field === 'columnNames' ? doc.columnNames.join(' ') : String(doc[field as keyof TextFields] ?? '')),
    tokenize: (text) => words(text),
    processTerm: (term) => term,
    searchOptions: { boost: BOOSTS, prefix: true, combineWith: 'AND' },
  });
  index.addAll([...records.values()].map((r) => textOf(r.stored)));
  return index;
}

const elapsed = (started: number): number => Math.max(0, Math.round(performance.now() - started));

/** The free-text nodes that add to a document's score (not those under a NOT). */
function positiveTexts(node: QueryNode): Extract<QueryNode, { kind: 'text' }>[] {
  if (node.kind === 'text') return [node];
  if (node.kind === 'and' || node.kind === 'or') return node.nodes.flatMap(positiveTexts);
  return [];
}

/** How the value a document is sorted by is read: its first value of the field (text ignoring case). */
function sortKeyOf(field: string): (stored: StoredEntity) => number | string | undefined {
  const slow = (stored: StoredEntity): number | string | undefined => {
    for (const value of fieldValues(stored, field)) {
      if (typeof value === 'number') return value;
      const text = asText(value);
      if (text !== undefined) return text.toLowerCase();
    }
    return undefined;
  };
  // The common case: a plain top-level field (`name.keyword`, `updatedAt`), read directly.
  const top = field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field;
  if (top.includes('.') || top === 'displayName') return slow;
  return (stored) => {
    const value = stored.entity[top];
    if (typeof value === 'number') return value;
    if (typeof value === 'string') return value.toLowerCase();
    return slow(stored);
  };
}

/**
 * `search_after`: a test passing the matches that sort after the hit whose sort values are given
 * (the key or score, then the FQN, as `sort` shows them); a match with that very FQN is not after it.
 */
function afterCursor(
  values: readonly string[],
  byScore: boolean,
  compare: (a: Match, b: Match) => number,
): (record: SearchRecord, score: number, key: number | string | undefined) => boolean {
  const [first, fqn] = values;
  const number = first !== undefined && first.trim() !== '' && !Number.isNaN(Number(first)) ? Number(first) : undefined;
  const cursorOf = (key: number | string | undefined): Match => ({
    // A number sorts against numbers, text against text (keys are lower-cased text).
    key: typeof key === 'number' ? number : first === undefined || first === 'null' ? undefined : first.toLowerCase(),
    score: number ?? 0,
    record: { stored: { entity: { fullyQualifiedName: fqn ?? '\uffff', id: '\uffff' } } } as unknown as SearchRecord,
  });
  return (record, score, key) => {
    const match: Match = { record, score, key };
    const cursor = cursorOf(byScore ? score : key);
    // Without an FQN, every match with the same key is at or before the cursor.
    if (fqn === undefined) {
      const keyOnly = compare(match, {
        ...cursor,
        record: { stored: { entity: { fullyQualifiedName: record.stored.entity.fullyQualifiedName, id: '\uffff' } } } as unknown as SearchRecord,
      });
      return keyOnly > 0;
    }
    return compare(match, cursor) > 0;
  };
}

/** By score or by key in the order asked; a document without the key last either way; then by FQN. */
function comparator(byScore: boolean, order: 'asc' | 'desc'): (a: Match, b: Match) => number {
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => {
    if (byScore) {
      if (a.score !== b.score) return sign * (a.score - b.score);
    } else if (a.key !== b.key) {
      if (a.key === undefined) return 1;
      if (b.key === undefined) return -1;
      return sign * (a.key < b.key ? -1 : 1);
    }
    const fa = a.record.stored.entity.fullyQualifiedName;
    const fb = b.record.stored.entity.fullyQualifiedName;
    return fa < fb ? -1 : fa > fb ? 1 : a.record.stored.entity.id < b.record.stored.entity.id ? -1 : 1;
  };
}

/**
 * The best `limit` matches, without sorting all of them: a binary heap of at most `limit` with the
 * worst kept on top, which a better match replaces (O(n log limit)); a match is allocated only
 * when it is kept.
 */
class TopMatches {
  private readonly heap: Match[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: Match, b: Match) => number,
  ) {}

  offer(record: SearchRecord, score: number, key: number | string | undefined): void {
    const heap = this.heap;
    if (this.limit === 0) return;
    if (heap.length < this.limit) {
      heap.push({ record, score, key });
      this.up(heap.length - 1);
      return;
    }
    const worst = heap[0]!;
    const probe = PROBE;
    probe.record = record;
    probe.score = score;
    probe.key = key;
    if (this.compare(probe, worst) >= 0) return;
    heap[0] = { record, score, key };
    this.down(0);
  }

  /** Worse first: `compare(a, b) > 0` means `a` ranks after `b`. */
  private worse(i: number, j: number): boolean {
    return this.compare(this.heap[i]!, this.heap[j]!) > 0;
  }

  private swap(i: number, j: number): void {
    const heap = this.heap;
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < n && this.worse(left, worst)) worst = left;
      if (right < n && this.worse(right, worst)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  sorted(): Match[] {
    return [...this.heap].sort(this.compare);
  }
}

/** Reused to compare a candidate with the worst kept without allocating it. */
const PROBE: Match = { record: undefined as unknown as SearchRecord, score: 0, key: undefined };

/**
 * `_source` with only the fields of `include` (dotted paths, a `*` segment for everything below)
 * and without those of `exclude`, as Elasticsearch's source filtering does.
 */
function project(source: Record<string, unknown>, include: readonly string[] | undefined, exclude: readonly string[] | undefined): Record<string, unknown> {
  let out = source;
  const included = (include ?? []).filter((f) => f !== '');
  if (included.length) out = pick(out, included.map(pathOf)) as Record<string, unknown>;
  const excluded = (exclude ?? []).filter((f) => f !== '');
  if (excluded.length) out = drop(out, excluded.map(pathOf)) as Record<string, unknown>;
  return out;
}

const pathOf = (field: string): string[] => {
  const segments = field.split('.');
  while (segments.length > 1 && segments[segments.length - 1] === '*') segments.pop();
  return segments;
};

function pick(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, paths));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const matching = paths.filter((p) => p[0] === key || p[0] === '*');
    if (matching.length === 0) continue;
    if (matching.some((p) => p.length === 1)) out[key] = inner;
    else if (typeof inner === 'object' && inner !== null)
      out[key] = pick(
        inner,
        matching.map((p) => p.slice(1)),
      );
  }
  return out;
}

function drop(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((v) => drop(v, paths));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const matching = paths.filter((p) => p[0] === key || p[0] === '*');
    if (matching.some((p) => p.length === 1)) continue;
    out[key] = matching.length
      ? drop(
          inner,
          matching.map((p) => p.slice(1)),
        )
      : inner;
  }
  return out;
}
