/** The journal of the last requests (the Admin API, `GET /__admin/journal`): a fixed-size ring, newest last. */
export interface JournalEntry {
  /** Epoch milliseconds when the request arrived. */
  time: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

export class Journal {
  /** A ring: `next` is where the next entry goes; adding is O(1) on every request. */
  private entries: JournalEntry[] = [];
  private next = 0;

  constructor(readonly capacity = 500) {}

  add(entry: JournalEntry): void {
    if (this.entries.length < this.capacity) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The last `limit` entries, newest first (what a UI developer looks for). */
  recent(limit = this.capacity): JournalEntry[] {
    const inOrder = this.entries.length < this.capacity ? this.entries : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return inOrder.slice(-limit).reverse();
  }

  clear(): void {
    this.entries = [];
    this.next = 0;
  }
}
