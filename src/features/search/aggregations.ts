/**
 * The terms aggregations of a search (docs/behaviour.md "Search"): those OpenMetadata's default
 * search settings configure (`json/data/settings/searchSettings.json`: the global aggregations and
 * the tables' database and schema), which the explore page reads for its tab counts
 * (`entityType`) and filters. Each document's keys are worked out when it is indexed and kept as
 * numbers, so counting the matches of a query is a pass over small integer arrays.
 */
import type { components } from '../../../openapi/generated/schema.d.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { fieldValues } from './documents.ts';
import type { Predicate } from './matching.ts';
import { asText } from './matching.ts';

type TermsAggregation = components['schemas']['SearchTermsAggregation'];

/** An aggregation: the name it is answered under and where its keys come from. */
interface AggregationSpec {
  readonly name: string;
  keys(stored: StoredEntity): unknown[];
}

const field = (name: string): AggregationSpec => ({ name, keys: (stored) => fieldValues(stored, name) });

/** Tag FQNs of the labels from one source (the `classificationTags` / `glossaryTags` scripts). */
const tagsFrom =
  (source: string) =>
  (stored: StoredEntity): unknown[] =>
    (fieldValues(stored, 'tags') as { tagFQN?: unknown; source?: unknown }[]).filter((t) => t.source === source).map((t) => t.tagFQN);

const SPECS: readonly AggregationSpec[] = [
  field('serviceType'),
  field('service.displayName.keyword'),
  field('entityType'),
  field('entityType.keyword'),
  field('tier.tagFQN'),
  field('owners.displayName.keyword'),
  field('domains.displayName.keyword'),
  field('tags.tagFQN'),
  { name: 'classificationTags', keys: tagsFrom('Classification') },
  { name: 'glossaryTags', keys: tagsFrom('Glossary') },
  field('certification.tagLabel.tagFQN'),
  field('database.name.keyword'),
  field('databaseSchema.name.keyword'),
  field('database.displayName'),
  field('databaseSchema.displayName'),
  field('database.displayName.keyword'),
  field('databaseSchema.displayName.keyword'),
];

/** The distinct keys of a document for one aggregation, as text. */
export function keysOf(values: unknown[]): string[] {
  const out = new Set<string>();
  for (const value of values) {
    const text = asText(value);
    if (text !== undefined) out.add(text);
  }
  return [...out];
}

/** Terms aggregation buckets as Elasticsearch orders them by default: most documents first, then by key. */
export function bucketsOf(counts: Map<string, number>, order: 'count' | 'key', size: number): TermsAggregation {
  const entries = [...counts].filter(([, n]) => n > 0);
  entries.sort(order === 'count' ? (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) : (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const kept = entries.slice(0, size);
  const other = entries.slice(size).reduce((sum, [, n]) => sum + n, 0);
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: kept.map(([key, doc_count]) => ({ key, doc_count })) };
}

/** The configured aggregations: each document's keys as numbers, and counts over a set of documents. */
export class ConfiguredAggregations {
  /** Per aggregation: key → number, and number → key. */
  private readonly numbers = SPECS.map(() => new Map<string, number>());
  private readonly keys = SPECS.map((): string[] => []);

  /** Pairs of aggregation number and key number for one document. */
  encode(stored: StoredEntity): number[] {
    const out: number[] = [];
    SPECS.forEach((spec, i) => {
      const numbers = this.numbers[i]!;
      for (const key of keysOf(spec.keys(stored))) {
        let n = numbers.get(key);
        if (n === undefined) {
          n = this.keys[i]!.push(key) - 1;
          numbers.set(key, n);
        }
        out.push(i, n);
      }
    });
    return out;
  }

  /** The number of the configured aggregation answered under `name`, if one is. */
  numberOf(name: string): number | undefined {
    const i = SPECS.findIndex((spec) => spec.name === name);
    return i === -1 ? undefined : i;
  }

  /** The keys a document has for one aggregation, by number. */
  keysIn(encoded: readonly number[], aggregation: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < encoded.length; i += 2) if (encoded[i] === aggregation) out.push(this.keys[aggregation]![encoded[i + 1]!]!);
    return out;
  }

  /**
   * `term` on a configured aggregation's field, on the keys worked out at indexing: a document
   * matches when one of its keys equals `value`, ignoring case (a whole value, as on Elasticsearch's
   * keyword fields, not a word of one). Undefined when `field` is not configured.
   */
  keyTest(field: string, value: unknown): Predicate | undefined {
    const aggregation = this.numberOf(field);
    if (aggregation === undefined) return undefined;
    const wanted = asText(value)?.toLowerCase();
    const numbers = new Set<number>();
    this.keys[aggregation]!.forEach((key, n) => {
      if (key.toLowerCase() === wanted) numbers.add(n);
    });
    if (numbers.size === 0) return () => false;
    return (record) => {
      const encoded = record.agg;
      for (let i = 0; i < encoded.length; i += 2) if (encoded[i] === aggregation && numbers.has(encoded[i + 1]!)) return true;
      return false;
    };
  }

  /** Fresh counters, one array per aggregation. */
  counters(): number[][] {
    return this.keys.map((keys) => new Array<number>(keys.length).fill(0));
  }

  static add(counters: number[][], encoded: readonly number[]): void {
    for (let i = 0; i < encoded.length; i += 2) {
      const row = counters[encoded[i]!]!;
      const n = encoded[i + 1]!;
      // A key numbered after the counters were made (a write during the count) is left out.
      if (n < row.length) row[n]!++;
    }
  }

  /** The `aggregations` of a response, `sterms#<name>` as Elasticsearch's typed keys name them. */
  answer(counters: number[][]): Record<string, TermsAggregation> {
    const out: Record<string, TermsAggregation> = {};
    SPECS.forEach((spec, i) => {
      const counts = new Map<string, number>();
      const row = counters[i]!;
      const keys = this.keys[i]!;
      for (let n = 0; n < row.length; n++) if (row[n]) counts.set(keys[n]!, row[n]!);
      out[`sterms#${spec.name}`] = bucketsOf(counts, 'count', MAX_BUCKETS);
    });
    return out;
  }
}

/** OpenMetadata's `maxAggregateSize` default. */
const MAX_BUCKETS = 10_000;
