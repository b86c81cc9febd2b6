/**
 * A write whose answer fails response validation leaves nothing behind (src/http/operation-routes.ts
 * `atomic`, src/core/entity-store.ts `atomically`): the client gets the 500, and the store — its
 * entities, their history, the side data — and the `--data` journal are as they were before the
 * request. Each case breaks one stored entity behind the API's back (a value its schema refuses), so
 * that the next write that answers it fails validation after its changes were made.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../test/kit.ts';
import { createTable, expectError, SLOW_START, startApp, storeDump, v1 } from '../../test/kit.ts';
import type { CatalogContext } from '../core/context.ts';
import { declaredSideData } from '../core/side-data.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
}, SLOW_START);

/** The whole state: entities with their history and place, and the side data. */
const stateOf = (ctx: CatalogContext) => `${storeDump(ctx)}\n${JSON.stringify(ctx.store.exportSideData())}`;

/** Gives a stored entity a field its schema does not have: every answer that shows it fails validation. */
function poison(ctx: CatalogContext, id: string, patch: Body): void {
  const stored = ctx.store.get(id)!;
  stored.entity = { ...stored.entity, ...patch };
}

/**
 * Gives a table a profiler configuration its schema refuses: a PATCH checks the patched entity
 * itself (400), but its answer shows every field, the configuration kept beside it included.
 */
function poisonProfilerConfig(ctx: CatalogContext, tableId: string, poisoned = true): void {
  const area = declaredSideData().find((a) => a.key.endsWith('.profilerConfig'))!;
  ctx.store.setSide(area, tableId, poisoned ? { notInTheSchema: true } : undefined);
}

async function lake(target: TestApp): Promise<{ service: Body; parent: Body; child: Body }> {
  const service = await target.create('services/storageServices', { name: target.unique('lake'), serviceType: 'S3', connection: { config: { type: 'S3' } } });
  const parent = await target.create('containers', { name: 'raw', service: service.fullyQualifiedName });
  const child = await target.create('containers', { name: 'day', service: service.fullyQualifiedName, parent: { id: parent.id, type: 'container' } });
  return { service, parent, child };
}

const FAILED = /the response failed validation/;

describe('a write answered with what fails response validation changes nothing', () => {
  it('PATCH', async () => {
    const t = await createTable(app);
    poisonProfilerConfig(app.ctx, t.id);
    const before = stateOf(app.ctx);
    const res = await app.patch(v1('tables', `/${t.id}`), [{ op: 'add', path: '/description', value: 'new' }]);
    expectError(res, 500, 'INTERNAL_ERROR', FAILED);
    expect(stateOf(app.ctx)).toBe(before);
  });

  it.each([
    ['PUT (upsert)', (ids: { service: string }) => app.put(v1('containers'), { name: 'raw', service: ids.service, description: 'new' })],
    ['recursive soft delete', (ids: { parent: string }) => app.delete(v1('containers', `/${ids.parent}?recursive=true`))],
    ['follow', (ids: { parent: string; user: string }) => app.put(v1('containers', `/${ids.parent}/followers`), JSON.stringify(ids.user)).set('Content-Type', 'application/json')],
  ])('%s', async (_name, send) => {
    const { service, parent } = await lake(app);
    const me = (await app.get(v1('users', '/loggedInUser')).expect(200)).body as Body;
    poison(app.ctx, String(parent.id), { notInTheSchema: true });
    const before = stateOf(app.ctx);
    const res = await send({ parent: String(parent.id), service: String(service.fullyQualifiedName), user: String(me.id) });
    expectError(res, 500, 'INTERNAL_ERROR', FAILED);
    expect(stateOf(app.ctx)).toBe(before);
  });

  it('POST: the entity is not created when its answer fails (a parent whose reference is invalid)', async () => {
    const { service } = await lake(app);
    poison(app.ctx, String(service.id), { name: 42 });
    const before = stateOf(app.ctx);
    expectError(await app.post(v1('containers'), { name: 'new_one', service: service.fullyQualifiedName }), 500, 'INTERNAL_ERROR', FAILED);
    expect(stateOf(app.ctx)).toBe(before);
    await app.get(v1('containers', `/name/${encodeURIComponent(`${String(service.fullyQualifiedName)}.new_one`)}`)).expect(404);
  });

  it('a refused write after partial changes (a 4xx thrown midway) is undone too', async () => {
    const { parent } = await lake(app);
    const before = stateOf(app.ctx);
    // One valid operation, then one that fails: the patch is refused as a whole.
    const res = await app.patch(v1('containers', `/${String(parent.id)}`), [
      { op: 'add', path: '/description', value: 'kept?' },
      { op: 'remove', path: '/nothing/here' },
    ]);
    expectError(res, 400);
    expect(stateOf(app.ctx)).toBe(before);
  });

  it('with --data, the undone write never reaches the journal, and a restart does not bring it back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-kit-atomic-'));
    const dataFile = path.join(dir, 'state.json');
    const first = await startApp({ dataFile });
    const { id } = await createTable(first);
    poisonProfilerConfig(first.ctx, id);
    expectError(await first.patch(v1('tables', `/${id}`), [{ op: 'add', path: '/description', value: 'never saved' }]), 500);
    // A write that succeeds afterwards is journaled; the undone one must not ride along with it.
    await first.create('services/storageServices', { name: 'after', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    const journal = readFileSync(`${dataFile}.journal`, 'utf8');
    expect(journal).not.toContain('never saved');
    expect(journal).toContain('"after"');
    // The poison itself was journaled with that write: taken away, and that journaled too, before the restart.
    poisonProfilerConfig(first.ctx, id, false);
    await first.create('services/storageServices', { name: 'last', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    await first.close();
    const second = await startApp({ dataFile });
    const read = await second.get(v1('tables', `/${id}`)).expect(200);
    expect(read.body.description).toBeUndefined();
    expect(read.body.version).toBe(0.1);
  });
});
