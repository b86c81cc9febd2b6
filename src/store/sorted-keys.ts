/**
 * Keys of one kind kept in FQN order (ties broken by id), so that a list page starts with a
 * binary search instead of a scan (DESIGN.md: paging costs O(page), not O(collection)). Ordering
 * by FQN also keeps each service's (database's, collection's...) entities contiguous, which turns
 * the `service=`/`database=` list filters into range reads.
 */
export interface KeyEntry {
  readonly key: string;
  readonly id: string;
}

export function sortKey(fqn: string, id: string): string {
  return `${fqn}\u0000${id}`;
}

export class SortedKeys {
  private readonly entries: KeyEntry[] = [];

  get size(): number {
    return this.entries.length;
  }

  at(index: number): KeyEntry | undefined {
    return this.entries[index];
  }

  insert(fqn: string, id: string): void {
    const key = sortKey(fqn, id);
    this.entries.splice(this.lowerBound(key), 0, { key, id });
  }

  remove(fqn: string, id: string): void {
    const key = sortKey(fqn, id);
    const index = this.lowerBound(key);
    if (this.entries[index]?.key === key) this.entries.splice(index, 1);
  }

  /** Index of the first entry whose key is >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
