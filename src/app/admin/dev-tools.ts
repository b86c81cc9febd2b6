/**
 * What makes the mock pleasant for UI developers, set up once per app: the start-up state (a data
 * file, else fixtures) with its reset and its persistence, the request journal, and the latency and
 * error injection settings, which the app (src/app/app.ts) hands to the Admin API and the API's
 * dispatcher. All of it is off or neutral by default, so `createApp()` in tests stays a bare,
 * empty, silent server.
 */
import type { CatalogContext } from '../../core/context.ts';
import { loadFixtures, resolveFixturesDir } from '../fixtures/load-fixtures.ts';
import type { LogFormat } from '../request-log.ts';
import type { Persister } from '../persistence/data-file.ts';
import { createPersister, loadDataFile } from '../persistence/data-file.ts';
import { FaultSettings } from './injection.ts';
import { Journal } from './journal.ts';
import { clearState } from '../state/state.ts';

export interface DevToolsOptions {
  /** `default` (the demo catalog), `none`, or a directory of fixtures. Default `none`. */
  fixtures?: string;
  /** Allowed CORS origins (default: any). */
  corsOrigins?: readonly string[];
  /** Request log format (default `quiet`). */
  requestLog?: LogFormat;
  /** Keep the state in this file across restarts. */
  dataFile?: string;
  /** Random source of latency ranges and error probabilities (tests fix it). */
  random?: () => number;
}

export interface DevTools {
  /** Latency and error rules (`/__admin/latency`, `/__admin/errors`). */
  faults: FaultSettings;
  /** The last API requests (`/__admin/journal`). */
  journal: Journal;
  /** With `--data`: journals every change to the data file. */
  persister: Persister | undefined;
  /** `POST /__admin/reset`: back to the start state (`start`) or to the fixtures. */
  reset(to: 'start' | 'fixtures'): void;
}

/** Loads the start-up state into the context (the data file's, else the fixtures') and sets up what the stages share. */
export function setupDevTools(ctx: CatalogContext, options: DevToolsOptions, log: (line: string) => void): DevTools {
  const fixturesDir = resolveFixturesDir(options.fixtures);
  const loadStartFixtures = () => {
    clearState(ctx);
    if (fixturesDir) loadFixtures(ctx, fixturesDir);
  };
  const loaded = options.dataFile ? loadDataFile(ctx, options.dataFile) : false;
  if (!loaded) loadStartFixtures();
  // Reset goes back to the state the server started from (with --data, the file's, not the
  // fixtures over the user's data), the same entities with the same ids.
  const start = ctx.store.snapshot();
  return {
    faults: new FaultSettings(options.random),
    journal: new Journal(),
    persister: options.dataFile ? createPersister(ctx, options.dataFile, loaded, { log }) : undefined,
    reset: (to) => (to === 'start' ? ctx.store.restore(start) : loadStartFixtures()),
  };
}
