/**
 * The search document of a stored entity (docs/behaviour.md "Search"): what OpenMetadata's search
 * index stores for it (`SearchIndex.buildSearchIndexDoc` and the `…Index` classes under
 * `search/indexes/`): the entity's fields plus `entityType`, `fqnParts`, `tier` (its `Tier.*`
 * label, which `tags` leaves out), `totalVotes`, `followers` as ids, `columnNames`, and
 * `displayName` filled in from `name` on the entity and the references it carries.
 *
 * Nothing here is stored: field values are read from the stored entity when a query asks for them,
 * and `_source` is built only for the hits of a page, so the index keeps no copy of the entities.
 */
import type { EntityReference, TagLabel } from '../../core/entity.ts';
import { splitFqn } from '../../core/fqn.ts';
import type { StoredEntity } from '../../core/entity-store.ts';

/** Entity fields a search document never carries (secrets, change records, the request-relative href). */
const NOT_INDEXED = new Set(['connection', 'changeDescription', 'incrementalChangeDescription', 'href']);

/** Field name suffixes of OpenMetadata's index mappings (sub-fields of one value): ignored, the value is the same. */
const SUB_FIELDS = new Set(['keyword', 'actualCase', 'ngram', 'compound', 'raw']);

const TIER_PREFIX = 'Tier.';

const isTier = (tag: TagLabel): boolean => typeof tag.tagFQN === 'string' && tag.tagFQN.startsWith(TIER_PREFIX);

const labelsOf = (stored: StoredEntity): TagLabel[] => (Array.isArray(stored.entity.tags) ? (stored.entity.tags as TagLabel[]) : []);

/** Fields the search document computes rather than copies (read by queries and by `_source` alike). */
const DERIVED: Readonly<Record<string, (stored: StoredEntity) => unknown>> = {
  entityType: (stored) => stored.type,
  displayName: (stored) => (typeof stored.entity.displayName === 'string' && stored.entity.displayName !== '' ? stored.entity.displayName : stored.entity.name),
  fqnParts: (stored) => splitFqn(stored.entity.fullyQualifiedName),
  tier: (stored) => labelsOf(stored).find(isTier),
  tags: (stored) => (Array.isArray(stored.entity.tags) ? labelsOf(stored).filter((t) => !isTier(t)) : undefined),
  totalVotes: (stored) => {
    const votes = stored.entity.votes as { upVotes?: number; downVotes?: number } | undefined;
    return votes ? (votes.upVotes ?? 0) - (votes.downVotes ?? 0) : 0;
  },
  followers: (stored) => (Array.isArray(stored.entity.followers) ? (stored.entity.followers as EntityReference[]).map((f) => f.id) : undefined),
  columnNames: (stored) =>
    Array.isArray(stored.entity.columns) ? (stored.entity.columns as { name?: unknown }[]).map((c) => c.name).filter((n) => typeof n === 'string') : undefined,
};

/** A top-level field of the document. */
function topField(stored: StoredEntity, name: string): unknown {
  if (Object.hasOwn(DERIVED, name)) return DERIVED[name]!(stored);
  return NOT_INDEXED.has(name) || !Object.hasOwn(stored.entity, name) ? undefined : stored.entity[name];
}

const paths = new Map<string, readonly string[]>();

/** `owners.displayName.keyword` → `['owners', 'displayName']` (remembered: queries ask for the same few fields). */
function fieldPath(field: string): readonly string[] {
  let segments = paths.get(field);
  if (!segments) {
    const split = field.split('.');
    if (split.length > 1 && SUB_FIELDS.has(split[split.length - 1]!)) split.pop();
    segments = split;
    if (paths.size > 1000) paths.clear();
    paths.set(field, segments);
  }
  return segments;
}

function collect(value: unknown, segments: readonly string[], at: number, out: unknown[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, segments, at, out);
    return;
  }
  if (at === segments.length) {
    out.push(value);
    return;
  }
  if (typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  const key = segments[at]!;
  // References carry a display name in the search document even when the entity has none.
  if (key === 'displayName' && (record.displayName === undefined || record.displayName === '')) return collect(record.name, segments, at + 1, out);
  // Own fields only: a path through `constructor` or `__proto__` names nothing.
  const next = Object.hasOwn(record, key) ? record[key] : undefined;
  collect(next, segments, at + 1, out);
}

/** Every value at a dotted field path of the document, arrays flattened (as Elasticsearch reads a field). */
export function fieldValues(stored: StoredEntity, field: string): unknown[] {
  const segments = fieldPath(field);
  const out: unknown[] = [];
  collect(topField(stored, segments[0]!), segments, 1, out);
  return out;
}

/** A reference (`{id, type, …}`) gets `displayName`, from its `name` when it has none. */
function withDisplayNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withDisplayNames);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.id !== 'string' || typeof record.type !== 'string' || typeof record.name !== 'string') return value;
  return typeof record.displayName === 'string' && record.displayName !== '' ? value : { ...record, displayName: record.name };
}

/** The whole document (`_source`). */
export function sourceOf(stored: StoredEntity): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored.entity)) if (!NOT_INDEXED.has(key)) out[key] = withDisplayNames(value);
  for (const [key, derive] of Object.entries(DERIVED)) {
    const value = derive(stored);
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** The words of a text, lower-cased: runs of letters and digits (`fact_orders` → `fact`, `orders`). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** The free-text fields of a document, as the full-text index takes them. */
export interface TextFields {
  id: string;
  name: string;
  displayName: string;
  fullyQualifiedName: string;
  description: string;
  columnNames: string[];
}

export function textOf(stored: StoredEntity): TextFields {
  const { entity } = stored;
  const columns = DERIVED.columnNames!(stored) as string[] | undefined;
  return {
    id: entity.id,
    name: entity.name,
    displayName: typeof entity.displayName === 'string' ? entity.displayName : '',
    fullyQualifiedName: entity.fullyQualifiedName,
    description: typeof entity.description === 'string' ? entity.description : '',
    columnNames: columns ?? [],
  };
}

/** Separates the terms of `termsOf`: it cannot occur in a term (words and values are split on it). */
export const TERM_SEPARATOR = '\u0001';

/**
 * The terms a wildcard of `q` is matched against (Elasticsearch matches wildcards term by term):
 * the whole values of the short text fields and of the column names (`fact_orders`,
 * `acme.sales.fact_orders`), lower-cased, and the words of every text field, description
 * included, each once, between separators (`\u0001fact_orders\u0001fact\u0001orders\u0001`), so
 * that `*ord*` is a substring test and `ord*` a test for `\u0001ord`.
 */
export function termsOf(text: TextFields): string {
  const terms = new Set<string>();
  const whole = (value: string) => {
    const lower = value.toLowerCase().replaceAll(TERM_SEPARATOR, ' ');
    if (lower !== '') terms.add(lower);
  };
  whole(text.name);
  whole(text.displayName);
  whole(text.fullyQualifiedName);
  for (const column of text.columnNames) whole(column);
  for (const value of [text.name, text.displayName, text.fullyQualifiedName, ...text.columnNames, text.description]) for (const word of words(value)) terms.add(word);
  return `${TERM_SEPARATOR}${[...terms].join(TERM_SEPARATOR)}${TERM_SEPARATOR}`;
}
