/**
 * Answers of reads that ask for no relationship field (`fields=` empty), built once and kept, with
 * their JSON text, for the next read that would build them the same (docs/performance.md "What
 * changed in phase 11"):
 *
 * - an entity's answer (a GET by id or by name, an item of a list page), per stored state and base
 *   URL. It depends on nothing else: `render` looks up no computed field when none is asked for
 *   (src/domain/projection.ts), and a stored state is never changed in place, a write stores a new
 *   object (src/store/entity-store.ts), so an answer kept for a state cannot show anything stale;
 * - a list page (the generic list of a kind), per request URL and base URL, for as long as no
 *   entity of its kind changes: a page shows only entities of its kind, tested by filters that read
 *   the entity alone (src/domain/listing.ts), and the store reports every change of an entity
 *   (`subscribe`).
 *
 * A kept answer is frozen; its text is what `JSON.stringify` writes for it; src/http/send-json.ts
 * sends that text (and the tag of it, computed once), and src/http/operation-validation.ts checks
 * it against the document once per validator.
 *
 * Each store is bounded by the size of the text it keeps: two generations of at most
 * `KEPT_BYTES_PER_GENERATION` each; when the newer is full it becomes the older and the older is
 * dropped, and an answer used again while in the older moves to the newer, so what is read often
 * stays. Entity answers and pages together keep at most 4 × 8 MiB of text, plus their objects.
 */
import type { StoreChange } from '../store/entity-store.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext, Kind } from './context.ts';
import type { Entity } from './entity.ts';
import type { FieldSelection } from './projection.ts';
import { render } from './projection.ts';

export const KEPT_BYTES_PER_GENERATION = 8 * 1024 * 1024;

/** What is kept with an answer: its text, its tag once computed, the validators it has passed. */
export interface KeptText {
  readonly text: string;
  /** The weak ETag of the text (src/http/send-json.ts), once computed. */
  tag: string | undefined;
  /** Validators (src/http/operation-validation.ts) the answer has passed: one or two. */
  readonly passed: unknown[];
}

/** Two generations of kept values, bounded by the length of their text. */
class Generations<K, V> {
  private newer = new Map<K, V>();
  private older = new Map<K, V>();
  private newerBytes = 0;

  constructor(private readonly bytesOf: (value: V) => number) {}

  get(key: K): V | undefined {
    const found = this.newer.get(key);
    if (found !== undefined) return found;
    const old = this.older.get(key);
    if (old !== undefined) {
      this.older.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    const bytes = this.bytesOf(value);
    if (this.newerBytes + bytes > KEPT_BYTES_PER_GENERATION && this.newer.size > 0) {
      this.older = this.newer;
      this.newer = new Map();
      this.newerBytes = 0;
    }
    this.newer.set(key, value);
    this.newerBytes += bytes;
  }
}

interface KeptEntity {
  readonly def: Kind;
  readonly baseUrl: string;
  readonly answer: Entity;
}

interface KeptPage {
  readonly type: string;
  readonly revision: number;
  readonly page: object;
}

interface Kept {
  readonly entities: Generations<Entity, KeptEntity>;
  readonly pages: Generations<string, KeptPage>;
  /** Per kind, a number that changes with every change of one of its entities (`cleared` for a kind unchanged since the store was last cleared). */
  readonly revisions: Map<string, number>;
  cleared: number;
}

const NO_FIELDS: ReadonlySet<string> = new Set();
const byContext = new WeakMap<CatalogContext, Kept>();
/** The text of every kept answer (the answer object is the key: it goes when the answer goes). */
const texts = new WeakMap<object, KeptText>();
const bytesOf = (answer: object): number => texts.get(answer)?.text.length ?? 0;

function keptOf(ctx: CatalogContext): Kept {
  const kept = byContext.get(ctx);
  if (kept) return kept;
  const state: Kept = {
    entities: new Generations((entry) => bytesOf(entry.answer)),
    pages: new Generations((entry) => bytesOf(entry.page)),
    revisions: new Map(),
    cleared: 0,
  };
  ctx.store.subscribe((change: StoreChange) => {
    if (change.op === 'clear') {
      // Every kind starts again, from a number none has had.
      state.cleared = Math.max(state.cleared, ...state.revisions.values()) + 1;
      state.revisions.clear();
    } else {
      state.revisions.set(change.stored.type, (state.revisions.get(change.stored.type) ?? state.cleared) + 1);
    }
  });
  byContext.set(ctx, state);
  return state;
}

function keep<T extends object>(answer: T): T {
  Object.freeze(answer);
  texts.set(answer, { text: jsonOf(answer) ?? 'null', tag: undefined, passed: [] });
  return answer;
}

/** `render`'s answer, the kept one when no relationship field is asked for. */
export function renderAnswer(ctx: CatalogContext, def: Kind, stored: StoredEntity, fields: FieldSelection, baseUrl: string): Entity {
  return fields !== 'all' && fields.size === 0 ? plainAnswer(ctx, def, stored, baseUrl) : render(ctx, def, stored, fields, baseUrl);
}

/** What `render(ctx, def, stored, new Set(), baseUrl)` gives, built once per state and base URL. */
export function plainAnswer(ctx: CatalogContext, def: Kind, stored: StoredEntity, baseUrl: string): Entity {
  const kept = keptOf(ctx);
  const state = stored.entity;
  const found = kept.entities.get(state);
  if (found !== undefined && found.baseUrl === baseUrl && found.def === def) return found.answer;
  const answer = keep(render(ctx, def, stored, NO_FIELDS, baseUrl));
  kept.entities.set(state, { def, baseUrl, answer });
  return answer;
}

/**
 * The list page `build` makes of entities of kind `type` (their answers kept ones), built once per
 * `key` (the request's URL and base URL) and kept until an entity of that kind changes. `build`'s
 * errors (a broken cursor) are thrown, and nothing is kept.
 */
export function keptPage<T extends object>(ctx: CatalogContext, type: string, key: string, build: () => T): T {
  const kept = keptOf(ctx);
  const revision = kept.revisions.get(type) ?? kept.cleared;
  const found = kept.pages.get(key);
  if (found !== undefined && found.type === type && found.revision === revision) return found.page as T;
  const page = keep(build());
  kept.pages.set(key, { type, revision, page });
  return page;
}

/** Whether `value` is a kept answer: frozen, and the same every time it is sent. */
export function isKeptAnswer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && texts.has(value);
}

/** What is kept with a kept answer; undefined for anything else. */
export function keptText(value: unknown): KeptText | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}

/**
 * `JSON.stringify(body)`, with the kept texts of the kept answers a plain object holds in an array
 * (a page's `data`) written in. A kept answer's own text is `keptText(body).text`: src/http/send-json.ts
 * reads that first, so this does not look it up again.
 */
export function jsonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body);
  if (Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype || !holdsKeptAnswers(body as Record<string, unknown>)) return JSON.stringify(body);
  let out = '{';
  const record = body as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    const text = Array.isArray(value) ? arrayJson(value) : JSON.stringify(value);
    // `JSON.stringify` leaves out a property whose value has no JSON (undefined, a function).
    if (text === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}

function holdsKeptAnswers(record: Record<string, unknown>): boolean {
  for (const key in record) {
    const value = record[key];
    if (Array.isArray(value) && value.length > 0 && isKeptAnswer(value[0])) return true;
  }
  return false;
}

function arrayJson(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const text = keptText(item)?.text ?? JSON.stringify(item) ?? 'null';
    out += i === 0 ? text : `,${text}`;
  }
  return `${out}]`;
}
