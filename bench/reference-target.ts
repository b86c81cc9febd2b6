/**
 * The reference server inside bench/target.ts: started with `startServer` (request and response
 * validation on, as shipped), the demo catalog loaded when asked, and `grow` for the scale test.
 * It runs the built modules (dist/: `npm run build` first), the JavaScript users run: the
 * sources through tsx would be measured with its transform, which wraps functions in a
 * name-keeping helper (`__name`, ≈ 1.5% of the CPU of a list page; docs/performance.md). Their
 * types come from the sources: the type check runs beside the build, which empties dist/ first.
 */
import type { Server } from 'node:http';
import type { CatalogContext } from '../src/core/context.ts';
import type { CreateRequest } from '../src/core/entity.ts';
import type * as Lifecycle from '../src/core/lifecycle.ts';
import type * as Listing from '../src/core/listing.ts';
import type * as ServerModule from '../src/app/server.ts';
import type * as Fixtures from '../src/app/fixtures/load-fixtures.ts';

const built = (path: string): Promise<unknown> => import(new URL(`../dist/src/${path}`, import.meta.url).href);
const { startServer } = (await built('app/server.js')) as typeof ServerModule;
const { createEntity } = (await built('core/lifecycle.js')) as typeof Lifecycle;
const { cursorKey, encodeCursor } = (await built('core/listing.js')) as typeof Listing;

const SCALE_SERVICE = 'bench';

export async function startReference(fixturesOption: string | undefined, dataFile?: string) {
  const running = await startServer({ port: 0, host: '127.0.0.1', ...(dataFile ? { dataFile } : {}) });
  const fixtures = fixturesOption === undefined ? 'none' : await loadFixturesIfAny(running.ctx, fixturesOption);
  return { server: running.server as Server, fixtures, grow: (to: number, sample: number) => grow(running.ctx, to, sample) };
}

/** Loads the demo catalog with the fixture loader (src/app/fixtures/load-fixtures.ts, built) (reports, rather than fails, if it cannot). */
async function loadFixturesIfAny(ctx: CatalogContext, option: string): Promise<string> {
  try {
    const { loadFixtures, resolveFixturesDir } = (await built('app/fixtures/load-fixtures.js')) as typeof Fixtures;
    const dir = resolveFixturesDir(option);
    if (!dir) return 'none';
    const summary = loadFixtures(ctx, dir);
    return `${option}: ${summary.files} files, ${summary.requests} requests`;
  } catch (error) {
    return `${option}: not loaded (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Adds containers `scale-000000`… until the store holds `to` of them, then reports the heap after
 * a full GC, the mean JSON size of a stored container, and ids/cursors sampled across the whole
 * collection (cursors as the list endpoint hands them out).
 */
function grow(ctx: CatalogContext, to: number, sample: number) {
  const def = ctx.kinds.of('container');
  if (!ctx.store.getByFqn('storageService', SCALE_SERVICE)) {
    createEntity(ctx, ctx.kinds.of('storageService'), { name: SCALE_SERVICE, serviceType: 'S3', connection: { config: { type: 'S3' } } } as CreateRequest, 'admin');
  }
  for (let n = ctx.store.count('container'); n < to; n++) {
    const request = { name: `scale-${String(n).padStart(6, '0')}`, service: SCALE_SERVICE, description: `Container number ${n} of the scale test` };
    createEntity(ctx, def, request as CreateRequest, 'admin');
  }
  globalThis.gc?.();
  globalThis.gc?.();
  const keys = ctx.store.orderedKeys('container');
  const ids: string[] = [];
  const cursors: string[] = [];
  let jsonBytes = 0;
  const count = Math.min(sample, keys.size);
  for (let i = 0; i < count; i++) {
    // Spread across the collection, but a full page before its end.
    const fqn = keys.at(Math.max(0, Math.min(Math.floor(((i + 0.5) * keys.size) / count), keys.size - 11)))!;
    const stored = ctx.store.getByFqn('container', fqn)!;
    ids.push(stored.entity.id);
    jsonBytes += Buffer.byteLength(JSON.stringify(stored.entity));
    cursors.push(encodeCursor(cursorKey(fqn, stored.entity.id)));
  }
  return { count: keys.size, heapUsed: process.memoryUsage().heapUsed, gcExposed: typeof globalThis.gc === 'function', jsonBytes: count ? jsonBytes / count : 0, ids, cursors };
}
