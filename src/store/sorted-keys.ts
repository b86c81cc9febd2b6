/**
 * Keys of one kind kept in FQN order (ties broken by id), so that a list page starts with a
 * binary search instead of a scan (paging costs O(page), not O(collection)). Ordering
 * by FQN also keeps each service's (database's, collection's...) entities contiguous, which turns
 * the `service=`/`database=` list filters into range reads.
 */
import { flatString } from './compact.ts';

export interface KeyEntry {
  readonly key: string;
  readonly id: string;
}

export function sortKey(fqn: string, id: string): string {
  return `${fqn}\u0000${id}`;
}

/**
 * Only the key strings are kept (flat, see compact.ts): an entry object per entity and a key built
 * of joined pieces cost ~120 bytes per entity more (docs/performance.md). The id is cut from the key
 * when an entry is read, which only list pages do, a page at a time.
 *
 * The keys are held in sorted chunks of at most `CHUNK` keys, not one array: inserting into one
 * sorted array moves every key after the new one (at 50,000 containers a create spent more time in
 * that move than in the rest of the store), while a chunk moves at most `CHUNK`. `starts[c]` is the
 * index of chunk c's first key, so `at(i)` and `lowerBound` stay binary searches over indices.
 */
const CHUNK = 512;

export class SortedKeys {
  /** Sorted, each non-empty, and every key of a chunk sorts before every key of the next. */
  private readonly chunks: string[][] = [];
  /** `starts[c]`: how many keys the chunks before c hold. */
  private readonly starts: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  at(index: number): KeyEntry | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const c = this.chunkOfIndex(index);
    const key = this.chunks[c]![index - this.starts[c]!]!;
    return { key, id: key.slice(key.lastIndexOf('\u0000') + 1) };
  }

  insert(fqn: string, id: string): void {
    const key = flatString(sortKey(fqn, id));
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.starts.push(0);
      this.count = 1;
      return;
    }
    // The last chunk whose first key is <= key (or the first chunk): the key belongs in it.
    const c = Math.max(0, this.chunkOfKey(key));
    const chunk = this.chunks[c]!;
    chunk.splice(lowerBoundIn(chunk, key), 0, key);
    this.count++;
    for (let next = c + 1; next < this.starts.length; next++) this.starts[next]!++;
    if (chunk.length > CHUNK) {
      this.chunks.splice(c + 1, 0, chunk.splice(CHUNK / 2));
      this.starts.splice(c + 1, 0, this.starts[c]! + chunk.length);
    }
  }

  remove(fqn: string, id: string): void {
    const key = sortKey(fqn, id);
    const c = this.chunkOfKey(key);
    if (c < 0) return;
    const chunk = this.chunks[c]!;
    const index = lowerBoundIn(chunk, key);
    if (chunk[index] !== key) return;
    chunk.splice(index, 1);
    this.count--;
    for (let next = c + 1; next < this.starts.length; next++) this.starts[next]!--;
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      this.starts.splice(c, 1);
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
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.chunks[mid]![0]! <= key) lo = mid + 1;
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
