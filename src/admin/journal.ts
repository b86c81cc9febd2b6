/** The journal of the last requests (issue 6 "Admin API"): a fixed-size ring, newest last. */
export interface JournalEntry {
  /** Epoch milliseconds when the request arrived. */
  time: number;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

export class Journal {
  private entries: JournalEntry[] = [];

  constructor(readonly capacity = 500) {}

  add(entry: JournalEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The last `limit` entries, newest first (what a UI developer looks for). */
  recent(limit = this.capacity): JournalEntry[] {
    return this.entries.slice(-limit).reverse();
  }

  clear(): void {
    this.entries = [];
  }
}
