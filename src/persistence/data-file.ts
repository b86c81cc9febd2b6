/**
 * `--data <file>` (issue 6 "Persistence, optional"): the state survives restarts. The file is
 * written to a temporary file beside it and renamed over it, so a crash mid-write leaves the old
 * file whole (rename is atomic within a directory). Writes are coalesced: many changes in one
 * tick cost one write.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { CatalogContext } from '../domain/context.ts';
import { exportState, importState } from '../admin/state.ts';

export function writeFileAtomic(path: string, content: string): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, content, { flush: true });
  renameSync(temp, path);
}

/** Loads the file into the context; false when there is no file yet (the caller loads fixtures). */
export function loadDataFile(ctx: CatalogContext, path: string): boolean {
  if (!existsSync(path)) return false;
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the data file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  importState(ctx, state);
  return true;
}

export interface Persister {
  /** Marks the state changed; it is written soon after. */
  schedule(): void;
  /** Writes now if a change is pending (on shutdown). */
  flush(): void;
}

export function createPersister(ctx: CatalogContext, path: string): Persister {
  let pending: NodeJS.Immediate | undefined;
  const write = () => {
    pending = undefined;
    writeFileAtomic(path, JSON.stringify(exportState(ctx)));
  };
  return {
    schedule() {
      pending ??= setImmediate(write);
    },
    flush() {
      if (!pending) return;
      clearImmediate(pending);
      write();
    },
  };
}
