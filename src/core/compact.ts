/**
 * How a stored entity is kept in memory (the bench target: heap per stored entity ≤ 1.5x its
 * JSON, docs/performance.md). The entity a handler builds is a patchwork: strings joined with `+`
 * or templates (an FQN, a sort key) stay as V8 "cons strings" — a tree of the pieces, ~32 bytes per
 * join on top of the text — and objects grown one property at a time keep a separate property
 * array. Stored entities are JSON data (they are rendered as JSON, versions are JSON snapshots), so
 * the store keeps a copy rebuilt by `JSON.parse(JSON.stringify())`: flat strings, objects with
 * their properties in-line, keys shared. Empty arrays (owners, tags, followers, voters... most
 * entities have six) are one shared frozen array: no code changes a stored entity's arrays in place
 * (writes build a new entity), and a frozen one would fail loudly if some did. So are equal entity
 * references, within one store (`SharedReferences`). What a new version takes unchanged from the
 * one it replaces is shared with it. It costs a little per write, nothing per read.
 */
import type { Entity } from './entity.ts';

const EMPTY: readonly unknown[] = Object.freeze([]);

/**
 * Equal entity references (`service`, `owners[]`, `domains[]`: `{id, type, name,
 * fullyQualifiedName, deleted…}`, ≈ 200 bytes each) as one frozen object per store, so 100,000
 * containers of one service hold one `service` (bench: heap per stored entity, 1.77x → 1.3x its
 * JSON). Cleared when full: references to deleted entities cannot pile up.
 */
export class SharedReferences {
  readonly #byJson = new Map<string, object>();

  constructor(private readonly max = 4_096) {}

  /** The shared object equal to `reference` (frozen), which becomes it when there is none yet. */
  share(reference: object): object {
    const json = JSON.stringify(reference);
    const known = this.#byJson.get(json);
    if (known) return known;
    if (this.#byJson.size >= this.max) this.#byJson.clear();
    this.#byJson.set(json, Object.freeze(reference));
    return reference;
  }
}

/** An object of plain values with an `id` and a `type`: an entity reference. */
function isFlatReference(value: object): boolean {
  const record = value as Record<string, unknown>;
  if (typeof record.id !== 'string' || typeof record.type !== 'string') return false;
  for (const key in record) if (record[key] !== null && typeof record[key] === 'object') return false;
  return true;
}

/** Shares what can be shared inside a freshly parsed copy, in place (a walk: cheaper than a reviver). */
function share(value: unknown, references: SharedReferences | undefined): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length === 0) return EMPTY;
    for (let i = 0; i < value.length; i++) value[i] = share(value[i], references);
    return value;
  }
  if (references && isFlatReference(value)) return references.share(value);
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const child = record[key];
    if (child !== null && typeof child === 'object') record[key] = share(child, references);
  }
  return value;
}

/**
 * The compact copy of `entity`, its references shared through `references`. `previous`: the
 * version it replaces, if any; what the new version took from it unchanged is shared with it
 * (`shareUnchanged`).
 */
export function compactEntity(entity: Entity, references: SharedReferences, previous?: Entity): Entity {
  const json = JSON.stringify(entity);
  const copy = compactJson(json, references);
  shareRepeated(entity, copy);
  if (previous) shareUnchanged(entity, previous, copy);
  return copy;
}

/**
 * Fields of the entity that held one object hold one object in the copy too: a write's description
 * of its change is both `changeDescription` and `incrementalChangeDescription` (src/core/lifecycle.ts),
 * and the text has it twice (≈ 200 of a container's ≈ 800 bytes, in every version kept).
 */
function shareRepeated(entity: Entity, copy: Entity): void {
  const seen: string[] = [];
  for (const key in entity) {
    const value = entity[key];
    if (value === null || typeof value !== 'object') continue;
    let earlier: string | undefined;
    for (let i = 0; i < seen.length && earlier === undefined; i++) if (entity[seen[i]!] === value) earlier = seen[i];
    if (earlier === undefined) seen.push(key);
    else copy[key] = copy[earlier];
  }
}

/**
 * Fields the new version took unchanged from the version it replaces — the very object (a write
 * builds the new version by spreading the old one), or an equal string (the id, the name, the FQN) —
 * are that version's own values in the copy: the copy, parsed from text, would hold copies of them,
 * and every version the history keeps would too. Stored versions are never changed in place, so
 * sharing is safe (as the event log shares them).
 */
function shareUnchanged(entity: Entity, previous: Entity, copy: Entity): void {
  for (const key in entity) {
    const value = entity[key];
    if (value !== previous[key] || value === null) continue;
    if (typeof value === 'string' || typeof value === 'object') copy[key] = previous[key];
  }
}

/**
 * The compact copy of the entity `json` is the JSON of (an earlier version read from a state export
 * or the `--data` file: src/app/state/state.ts). Throws a SyntaxError when it is not JSON.
 */
export function compactJson(json: string, references?: SharedReferences): Entity {
  // The entity itself is never shared or frozen: only what it holds.
  const copy = JSON.parse(json) as Record<string, unknown>;
  for (const key in copy) {
    const child = copy[key];
    if (child !== null && typeof child === 'object') copy[key] = share(child, references);
  }
  return copy as Entity;
}
