/**
 * The catalog in process (`catalog-kit/fetch`): the same stateful, validated catalog as
 * `catalog-kit serve` — the same dispatcher, so the same validation, errors, versions, ETags,
 * events, search and lineage — answering a `fetch` function instead of a port, for tests in
 * Vitest, Storybook and Playwright (docs/in-tests.md). Nothing in it reads a file: the demo catalog
 * is imported as data.
 */
import type { Role } from '../../auth/tokens.ts';
import { signToken } from '../../auth/tokens.ts';
import type { ProfileName } from '../../config/profiles.ts';
import { compiledValidators } from '../../openapi/compiled.ts';
import { createApi, createCatalogOf } from '../api.ts';
import type { Fixture } from '../fixtures/apply-fixtures.ts';
import { applyFixtures } from '../fixtures/apply-fixtures.ts';
import { DEMO_CATALOG } from '../fixtures/demo-catalog.ts';
import type { StateJson } from '../state/state.ts';
import { exportState, importState } from '../state/state.ts';
import type { FetchFunction } from './fetch.ts';
import { dispatchingFetch } from './fetch.ts';

export type { StateJson };

export interface CatalogOptions {
  /**
   * The start state, and what `reset()` goes back to: `'default'` (the demo catalog of `catalog-kit
   * serve`), `'none'` (an empty catalog), or fixtures: the contents of the files of a fixtures
   * directory, in order (docs/fixtures.md). Default `'default'`.
   */
  fixtures?: 'default' | 'none' | readonly unknown[];
  /** `contract` (default) or `openmetadata`: where the two differ, as `serve --profile`. */
  profile?: ProfileName;
  /** The URL the API answers at; default `http://catalog-kit.test/api`. It must end in `/api`. */
  baseUrl?: string;
  /** A time source (epoch milliseconds) for the catalog's timestamps; default the system clock. */
  clock?: () => number;
  /** The HMAC secret tokens are signed with; default the development key of `catalog-kit token`. */
  secret?: string;
  /** The largest request body, in bytes (default 1 MiB, as `serve`). */
  bodyLimit?: number;
}

export interface TokenOptions {
  /** The user the token names (created on its first request); default `admin`. */
  user?: string;
  /** `Admin` (default), `DataSteward` or `DataConsumer`. */
  role?: Role;
  roles?: Role[];
  /** Lifetime, as `catalog-kit token --expires`: `30m`, `1h` (default), `7d`. */
  expires?: string;
}

export interface InProcessCatalog {
  /** The URL the catalog answers at. */
  readonly baseUrl: string;
  /** A WHATWG `fetch` answered by the catalog: hand it to a client, or call it. */
  readonly fetch: FetchFunction;
  /** A token the catalog accepts. */
  token(options?: TokenOptions): Promise<string>;
  /** Back to the start state (the fixtures it was created with). */
  reset(): void;
  /** The whole state, as `GET /__admin/state` gives it. */
  exportState(): StateJson;
  /** Replaces the whole state with an export (`PUT /__admin/state`); returns how many entities it holds. */
  importState(state: unknown): number;
  /** Stops what runs in the background (webhook deliveries). */
  close(): void;
}

const DEFAULT_BASE_URL = 'http://catalog-kit.test/api';
const DEFAULT_BODY_LIMIT = 1024 * 1024;

function startFixtures(option: CatalogOptions['fixtures']): { fixtures: readonly Fixture[]; check: boolean } {
  if (option === undefined || option === 'default') return { fixtures: DEMO_CATALOG, check: false };
  if (option === 'none') return { fixtures: [], check: true };
  if (!Array.isArray(option)) throw new TypeError(`fixtures must be 'default', 'none' or an array of fixtures, got ${typeof option}`);
  return { fixtures: option.map((content, i) => ({ name: `fixtures[${i}]`, content })), check: true };
}

export async function createCatalog(options: CatalogOptions = {}): Promise<InProcessCatalog> {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const { pathname } = new URL(baseUrl);
  if (!pathname.endsWith('/api')) throw new TypeError(`baseUrl must end in /api, got ${baseUrl}`);
  const { fixtures, check } = startFixtures(options.fixtures);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const catalog = createCatalogOf(compiledValidators(), {
    profile: options.profile,
    now: options.clock,
    auth: { secret: options.secret },
    documentBytes: bodyLimit,
    log: () => {},
  });
  applyFixtures(catalog.ctx, fixtures, { checkBodies: check });
  const start = catalog.ctx.store.snapshot();
  const api = createApi(catalog, { profile: options.profile, auth: { secret: options.secret }, jsonValues: true });
  return {
    baseUrl,
    fetch: dispatchingFetch(api.dispatch, pathname, bodyLimit),
    token: (token = {}) => signToken({ ...token, secret: options.secret }),
    reset: () => catalog.ctx.store.restore(start),
    exportState: () => exportState(catalog.ctx),
    importState: (state) => importState(catalog.ctx, state),
    close: () => api.webhooks.stop(),
  };
}
