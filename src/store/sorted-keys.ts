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
 */
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  at(index: number): KeyEntry | undefined {
    const key = this.keys[index];
    return key === undefined ? undefined : { key, id: key.slice(key.lastIndexOf('\u0000') + 1) };
  }

  insert(fqn: string, id: string): void {
    const key = flatString(sortKey(fqn, id));
    this.keys.splice(this.lowerBound(key), 0, key);
  }

  remove(fqn: string, id: string): void {
    const key = sortKey(fqn, id);
    const index = this.lowerBound(key);
    if (this.keys[index] === key) this.keys.splice(index, 1);
  }

  /** Index of the first entry whose key is >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
