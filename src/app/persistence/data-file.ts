/**
 * `--data <file>`: the state survives restarts, and a write is answered only once it is on disk.
 *
 * Two files: the snapshot `<file>` (the export format of src/app/state/state.ts, plus `journalSeq`, the
 * last journal record it includes) and the journal `<file>.journal`, one JSON line per group of
 * writes (src/app/persistence/changes.ts), appended and fsync'd before the responses of those writes
 * are sent (the dispatcher's `durable` stage, src/http/dispatcher.ts). Writes that finish while an fsync is under way
 * share the next one, so throughput holds under concurrent requests.
 *
 * When the journal has grown, it is compacted: the state is exported (synchronously, so it matches
 * the journal position exactly), the journal is renamed to `<file>.journal.old` and a new one
 * started, and the snapshot is written in the background to a temporary file, fsync'd and renamed
 * over `<file>`; then the old journal is removed. A crash at any point leaves a snapshot and the
 * journals that follow it: start-up replays `.journal.old` then `.journal`, skipping the records the
 * snapshot already holds. A crash mid-append leaves a last line without its newline: it was never
 * acknowledged, and is ignored. Start-up then writes a fresh snapshot and empties the journals, and
 * removes the temporary files a crash left behind.
 */
import { closeSync, existsSync, fdatasync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CatalogContext } from '../../core/context.ts';
import type { StateJson, StoredEntityJson } from '../state/state.ts';
import { exportState, importState } from '../state/state.ts';
import type { ChangeRecord } from './changes.ts';
import { applyRecord, ChangeCapture } from './changes.ts';

export const journalPath = (path: string): string => `${path}.journal`;
export const oldJournalPath = (path: string): string => `${path}.journal.old`;

const temporaryPath = (path: string): string => `${path}.${process.pid}.${Date.now()}.tmp`;

/** Makes a rename or a new file in `dir` durable. Not every platform can open a directory: there, renames are as durable as it makes them. */
function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes a temporary file beside `path`, fsyncs it and renames it over `path`: a crash leaves the old file or the new one, whole. */
export function writeFileAtomic(path: string, content: string): void {
  const temp = temporaryPath(path);
  writeFileSync(temp, content, { flush: true });
  renameSync(temp, path);
  fsyncDir(dirname(path));
}

async function writeFileAtomicInBackground(path: string, content: string): Promise<void> {
  const temp = temporaryPath(path);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(content);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  fsyncDir(dirname(path));
}

/** Removes `<file>.<anything>.tmp` beside the data file: the temporary files of writes a crash interrupted. */
function removeTemporaryFiles(path: string): string[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const removed: string[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) {
      unlinkSync(join(dir, name));
      removed.push(name);
    }
  }
  return removed;
}

/** The complete records of a journal file with their line numbers; an unterminated last line (a torn append) is left out. */
function readJournal(file: string): { record: ChangeRecord; line: number }[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop(); // after the last newline: empty, or the torn tail of an append a crash interrupted
  const records: { record: ChangeRecord; line: number }[] = [];
  lines.forEach((text, index) => {
    if (text === '') return;
    let record: ChangeRecord;
    try {
      record = JSON.parse(text) as ChangeRecord;
    } catch (error) {
      throw new Error(`cannot read the data file journal ${file}, line ${index + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof record?.seq !== 'number') throw new Error(`cannot read the data file journal ${file}, line ${index + 1}: not a journal record (no seq)`);
    records.push({ record, line: index + 1 });
  });
  return records;
}

export interface DataFileLoad {
  /** The last journal record the loaded state includes. */
  lastSeq: number;
  /** Whether a journal holds anything (start-up then writes a fresh snapshot). */
  journalFound: boolean;
}

/** Loads the snapshot and replays the journal into the context; false when there is no data file yet (the caller loads fixtures). */
export function loadDataFile(ctx: CatalogContext, path: string): DataFileLoad | false {
  removeTemporaryFiles(path);
  // A journal without its snapshot (the snapshot was deleted to start afresh) follows nothing: the persister removes it.
  if (!existsSync(path)) return false;
  let state: StateJson & { journalSeq?: number };
  try {
    state = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the data file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let lastSeq = typeof state?.journalSeq === 'number' ? state.journalSeq : 0;
  const journals = [oldJournalPath(path), journalPath(path)].filter((file) => existsSync(file) && statSync(file).size > 0);
  if (journals.length && Array.isArray(state?.entities)) {
    const entities = new Map<string, StoredEntityJson>(state.entities.map((item) => [item?.entity?.id, item]));
    for (const file of journals) {
      for (const { record, line } of readJournal(file)) {
        if (record.seq <= lastSeq) continue;
        try {
          applyRecord(entities, state, record);
        } catch (error) {
          throw new Error(`cannot read the data file journal ${file}, line ${line}: ${error instanceof Error ? error.message : String(error)}`);
        }
        lastSeq = record.seq;
      }
    }
    state.entities = [...entities.values()];
  }
  delete state.journalSeq;
  importState(ctx, state);
  return { lastSeq, journalFound: journals.length > 0 };
}

export interface Persister {
  /** Marks the state changed (Admin API import and reset); it is journaled soon after. */
  schedule(): void;
  /** Calls `done` once every change made so far is fsync'd (with the error if the journal could not be written). */
  whenDurable(done: (error?: Error) => void): void;
  /** Journals pending changes now, synchronously (on shutdown). */
  flush(): void;
}

export interface PersisterOptions {
  /** Compact when the journal holds this many records (default 1,000, or CATALOG_KIT_COMPACT_RECORDS)... */
  compactRecords?: number;
  /** ...or this many bytes (default 8 MB). */
  compactBytes?: number;
  /** Where a failed background compaction is reported (default stderr). */
  log?: (line: string) => void;
}

/** Starts journaling the context's state; `loaded` is what loadDataFile returned (false: the state came from fixtures). */
export function createPersister(ctx: CatalogContext, path: string, loaded: DataFileLoad | false, options: PersisterOptions = {}): Persister {
  // CATALOG_KIT_COMPACT_RECORDS (docs/cli.md, `--data`): src/app/persistence/durability.test.ts uses it to
  // kill the server mid-compaction by compacting every few records.
  const compactRecords = options.compactRecords ?? (Number(process.env.CATALOG_KIT_COMPACT_RECORDS) || 1000);
  const compactBytes = options.compactBytes ?? 8 * 1024 * 1024;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const journal = journalPath(path);
  const oldJournal = oldJournalPath(path);
  const dir = dirname(path);
  let lastSeq = loaded ? loaded.lastSeq : 0;

  // The journal always follows the snapshot it was written against, and nothing is appended after
  // a torn tail: a start with journals (or without a snapshot) begins with a fresh snapshot.
  if (!loaded || loaded.journalFound) {
    writeFileAtomic(path, JSON.stringify({ ...exportState(ctx), journalSeq: lastSeq }));
    for (const file of [journal, oldJournal]) if (existsSync(file)) unlinkSync(file);
  }
  let fd = openSync(journal, 'a');
  fsyncDir(dir);

  const capture = new ChangeCapture(ctx);
  let records = 0;
  let bytes = statSync(journal).size;
  let waiters: ((error?: Error) => void)[] = [];
  let changed = false;
  let scheduled = false;
  let syncing = false;
  /** True while a snapshot is written in the background, and for good after one failed (the journal then keeps growing: nothing is lost). */
  let compacting = false;

  const kick = () => {
    if (scheduled || syncing) return;
    scheduled = true;
    setImmediate(commit);
  };
  // Every change of the store is journaled soon after, also one no answer waits for: the job of an
  // asynchronous delete (src/features/entities/async-delete-routes.ts) runs after its 202, and when a commit
  // was already under way its change stayed in memory until the next write or the shutdown.
  ctx.store.subscribe(() => {
    changed = true;
    kick();
  });

  const compact = () => {
    compacting = true;
    const text = JSON.stringify({ ...exportState(ctx), journalSeq: lastSeq });
    closeSync(fd);
    renameSync(journal, oldJournal);
    fd = openSync(journal, 'a');
    fsyncDir(dir);
    records = 0;
    bytes = 0;
    writeFileAtomicInBackground(path, text)
      .then(() => {
        unlinkSync(oldJournal);
        compacting = false;
      })
      .catch((error: unknown) =>
        log(`catalog-kit: could not compact the data file ${path} (the journal keeps every change): ${error instanceof Error ? error.message : String(error)}`),
      );
  };

  /** Appends the changes made so far as one record; returns whether there was one. */
  const append = (mayCompact: boolean): boolean => {
    changed = false;
    const record = capture.capture(lastSeq + 1);
    if (!record) return false;
    lastSeq = record.seq;
    const line = `${JSON.stringify(record)}\n`;
    // The snapshot taken here includes this record; the record goes to the new journal, where
    // replay skips it if that snapshot made it to disk.
    if (mayCompact && !compacting && (records + 1 >= compactRecords || bytes + line.length >= compactBytes)) compact();
    writeSync(fd, line);
    records++;
    bytes += Buffer.byteLength(line);
    return true;
  };

  function commit(): void {
    scheduled = false;
    const batch = waiters;
    waiters = [];
    let appended: boolean;
    try {
      appended = append(true);
    } catch (error) {
      for (const done of batch) done(error as Error);
      return;
    }
    if (!appended) {
      for (const done of batch) done();
      return;
    }
    syncing = true;
    fdatasync(fd, (error) => {
      syncing = false;
      for (const done of batch) done(error ?? undefined);
      if (waiters.length || changed) kick();
    });
  }

  return {
    schedule() {
      changed = true;
      kick();
    },
    whenDurable(done) {
      waiters.push(done);
      kick();
    },
    flush() {
      // No compaction here: an fdatasync of the current journal may still be under way.
      append(false);
      fsyncSync(fd);
      const batch = waiters;
      waiters = [];
      for (const done of batch) done();
    },
  };
}
