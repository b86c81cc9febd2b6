/**
 * The FQNs of one kind, in order, each with its stored entity, so that a list page starts with a
 * binary search instead of a scan (paging costs O(page), not O(collection)) and reads its entities
 * straight from the index. Ordering by FQN also keeps each service's (database's, collection's...)
 * entities contiguous, which turns the `service=`/`database=` list filters into range reads. An FQN
 * is unique within its kind (the store's FQN index), so it is the whole key: the string kept is the
 * stored entity's own `fullyQualifiedName` (flat, see compact.ts), so the index costs two pointers
 * per entity, nothing more. Holding the entity saves a page two lookups per item in the large id and
 * FQN maps, each a cache miss at 100,000 entities (bench: list page at 100,000 against 1,000).
 *
 * The keys are held in sorted chunks of at most `CHUNK` keys, not one array: inserting into one
 * sorted array moves every key after the new one, while a chunk moves at most `CHUNK`. `starts[c]`
 * is the index of chunk c's first key and `firsts[c]` that key, so `at(i)` and `lowerBound` stay
 * binary searches over indices, and finding a key's chunk reads one small array.
 */
const CHUNK = 512;

export class SortedKeys<V = undefined> {
  /** Sorted, each non-empty, and every key of a chunk sorts before every key of the next. */
  private readonly chunks: string[][] = [];
  /** `values[c][k]`: the value of `chunks[c][k]`. */
  private readonly values: V[][] = [];
  /** `firsts[c]`: `chunks[c][0]`. */
  private readonly firsts: string[] = [];
  /** `starts[c]`: how many keys the chunks before c hold. */
  private readonly starts: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The key at `index`, or undefined outside 0..size-1. */
  at(index: number): string | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const c = this.chunkOfIndex(index);
    return this.chunks[c]![index - this.starts[c]!];
  }

  /** The value of the key at `index`, or undefined outside 0..size-1. */
  valueAt(index: number): V | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const c = this.chunkOfIndex(index);
    return this.values[c]![index - this.starts[c]!];
  }

  insert(key: string, value: V): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.values.push([value]);
      this.firsts.push(key);
      this.starts.push(0);
      this.count = 1;
      return;
    }
    // The last chunk whose first key is <= key (or the first chunk): the key belongs in it.
    const c = Math.max(0, this.chunkOfKey(key));
    const chunk = this.chunks[c]!;
    const at = lowerBoundIn(chunk, key);
    chunk.splice(at, 0, key);
    this.values[c]!.splice(at, 0, value);
    if (at === 0) this.firsts[c] = key;
    this.count++;
    for (let next = c + 1; next < this.starts.length; next++) this.starts[next]!++;
    if (chunk.length > CHUNK) this.split(c, at === CHUNK);
  }

  /**
   * Splits a full chunk in two, each a copy of exactly its size (an array grown one insert at a
   * time carries spare capacity). Keys that arrive in order (names with a counter) fill a chunk and
   * start the next one, rather than leave half-full chunks behind.
   */
  private split(c: number, appended: boolean): void {
    const [chunk, values] = [this.chunks[c]!, this.values[c]!];
    const cut = appended ? CHUNK : CHUNK / 2;
    this.chunks.splice(c, 1, chunk.slice(0, cut), chunk.slice(cut));
    this.values.splice(c, 1, values.slice(0, cut), values.slice(cut));
    this.firsts.splice(c + 1, 0, chunk[cut]!);
    this.starts.splice(c + 1, 0, this.starts[c]! + cut);
  }

  remove(key: string): void {
    const c = this.chunkOfKey(key);
    if (c < 0) return;
    const chunk = this.chunks[c]!;
    const index = lowerBoundIn(chunk, key);
    if (chunk[index] !== key) return;
    chunk.splice(index, 1);
    this.values[c]!.splice(index, 1);
    this.count--;
    for (let next = c + 1; next < this.starts.length; next++) this.starts[next]!--;
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.values.splice(c, 1);
      this.firsts.splice(c, 1);
      this.starts.splice(c, 1);
    } else if (index === 0) {
      this.firsts[c] = chunk[0]!;
    }
  }

  /** Index of the first entry whose key is >= `key`. */
  lowerBound(key: string): number {
    const c = this.chunkOfKey(key);
    if (c < 0) return 0;
    return this.starts[c]! + lowerBoundIn(this.chunks[c]!, key);
  }

  /** The last chunk whose first key is <= `key`; -1 when `key` sorts before every key. */
  private chunkOfKey(key: string): number {
    let lo = 0;
    let hi = this.firsts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.firsts[mid]! <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The chunk holding entry `index` (0 <= index < size). */
  private chunkOfIndex(index: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! <= index) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

/** Index of the first key of a sorted array that is >= `key`. */
function lowerBoundIn(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
