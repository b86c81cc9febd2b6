import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startApp } from '../../../test/kit.ts';
import { exportState } from '../state/state.ts';
import { softDelete } from '../../core/lifecycle.ts';
import type { ChangeRecord } from './changes.ts';
import { createPersister, journalPath, loadDataFile, oldJournalPath, writeFileAtomic } from './data-file.ts';

describe('--data persistence: the state survives a restart', () => {
  it('an API write is saved and loaded by the next server instead of the fixtures', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
    const first = await startApp({ fixtures: 'none', dataFile: file });
    const created = await first.post('/api/v1/services/databaseServices', { name: 'kept', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } });
    expect(created.status).toBe(201);
    first.dev.persister!.flush();
    expect(existsSync(file)).toBe(true);

    const second = await startApp({ fixtures: 'default', dataFile: file });
    const kept = second.ctx.store.getByFqn('databaseService', 'kept');
    expect(kept?.entity).toMatchObject({ id: created.body.id, version: 0.1 });
    // The file won over the fixtures: only the service and the admin user of the token.
    expect([...second.ctx.store.all()].map((s) => s.type).sort()).toEqual(['databaseService', 'user']);
  });

  it('side data (profiles, sample data, test case and contract results) is saved and loaded exactly', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
    const now = () => 1_718_000_000_000;
    const first = await startApp({ fixtures: 'default', dataFile: file, now });
    const fqn = 'acme_snowflake.ecommerce_dw.sales.fact_orders.fact_orders_row_count';
    const run = await first.put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`, {
      timestamp: 1_717_999_999_000,
      testCaseStatus: 'Aborted',
      result: 'Warehouse unavailable.',
    });
    expect(run.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    first.dev.persister!.flush();

    const second = await startApp({ fixtures: 'none', dataFile: file, now });
    expect(exportState(second.ctx)).toEqual(exportState(first.ctx));
    const runs = await second.get(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`);
    expect(runs.body.data.map((r: { testCaseStatus: string }) => r.testCaseStatus)).toEqual(['Aborted', 'Success', 'Success', 'Success', 'Success', 'Success']);
    expect(Object.keys(exportState(second.ctx).sideData!.tables)).toHaveLength(4);
  });

  it('a corrupt data file stops the start with a message naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
    writeFileSync(file, '{"format": "catalog-kit-state/1", "entities": [');
    await expect(startApp({ dataFile: file })).rejects.toThrow(/cannot read the data file .*state\.json/);
  });
});

describe('atomic write: temp file then rename', () => {
  it('replaces the content and leaves no temporary file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-data-'));
    const file = join(dir, 'state.json');
    writeFileAtomic(file, 'old');
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

const SERVICE = { serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } };
const newFile = () => join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
const records = (file: string): ChangeRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ChangeRecord);

describe('journal: a write is answered once it is on disk', () => {
  it('the record of an answered create is in the journal when the response arrives, and a restart replays it', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'none', dataFile: file });
    const created = await first.post('/api/v1/services/databaseServices', { name: 'kept', ...SERVICE });
    expect(created.status).toBe(201);
    // No flush: the response itself waited for the record.
    const puts = records(journalPath(file)).flatMap((r) => r.put ?? []);
    expect(puts.map((p) => p.entity.id)).toContain(created.body.id);

    const second = await startApp({ fixtures: 'default', dataFile: file });
    expect(second.ctx.store.getByFqn('databaseService', 'kept')?.entity).toMatchObject({ id: created.body.id, version: 0.1 });
    // The start replayed the journal into a fresh snapshot and emptied the journal.
    expect(JSON.parse(readFileSync(file, 'utf8')).entities.map((e: { entity: { name: string } }) => e.entity.name)).toContain('kept');
    expect(readFileSync(journalPath(file), 'utf8')).toBe('');
  });

  it('updates carry only the versions added to the history, and replay rebuilds it whole', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'none', dataFile: file });
    const created = await first.post('/api/v1/services/databaseServices', { name: 'edited', ...SERVICE });
    for (const description of ['one', 'two']) {
      const patched = await first.patch(`/api/v1/services/databaseServices/${created.body.id}`, [{ op: 'add', path: '/description', value: description }]);
      expect(patched.status).toBe(200);
    }
    const puts = records(journalPath(file))
      .flatMap((r) => r.put ?? [])
      .filter((p) => p.entity.id === created.body.id);
    expect(puts.map((p) => [p.historyBase, p.history.length])).toEqual([
      [0, 0],
      [0, 1],
      [1, 1],
    ]);
    const second = await startApp({ fixtures: 'none', dataFile: file });
    expect(exportState(second.ctx).entities).toEqual(exportState(first.ctx).entities);
  });

  it("a change no answer waits for (an asynchronous delete's job) is journaled too, with no later write", async () => {
    const file = newFile();
    const app = await startApp({ fixtures: 'none', dataFile: file });
    const created = await app.post('/api/v1/services/databaseServices', { name: 'later', ...SERVICE });
    const id = created.body.id as string;
    // What the job does after its 202: a delete outside any request.
    app.ctx.store.atomically(() => softDelete(app.ctx, app.ctx.kinds.of('databaseService'), app.ctx.store.get(id)!, false, 'admin'));
    const deletedOnDisk = () => records(journalPath(file)).some((r) => r.put?.some((p) => p.entity.id === id && p.entity.deleted === true));
    await vi.waitFor(() => expect(deletedOnDisk()).toBe(true), { timeout: 2000, interval: 10 });
  });

  it('a rejected write records nothing', async () => {
    const file = newFile();
    const app = await startApp({ fixtures: 'none', dataFile: file });
    expect((await app.post('/api/v1/services/databaseServices', { name: 'once', ...SERVICE })).status).toBe(201);
    const size = statSync(journalPath(file)).size;
    const again = await app.post('/api/v1/services/databaseServices', { name: 'once', ...SERVICE });
    expect(again.status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(journalPath(file)).size).toBe(size);
  });

  it('an upsert that changes nothing records nothing; one that changes a field records it', async () => {
    const file = newFile();
    const app = await startApp({ fixtures: 'none', dataFile: file });
    const body = { name: 'steady', description: 'the same', ...SERVICE };
    expect((await app.put('/api/v1/services/databaseServices', body)).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const size = statSync(journalPath(file)).size;
    const same = await app.put('/api/v1/services/databaseServices', body);
    expect([same.status, same.headers['x-openmetadata-change'], same.body.version]).toEqual([200, 'entityNoChange', 0.1]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(journalPath(file)).size).toBe(size);
    expect((await app.put('/api/v1/services/databaseServices', { ...body, description: 'changed' })).body.version).toBe(0.2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(journalPath(file)).size).toBeGreaterThan(size);
  });

  it('a torn last line (a crash mid-append) is ignored; a bad line before it names the file and line', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'none', dataFile: file });
    expect((await first.post('/api/v1/services/databaseServices', { name: 'whole', ...SERVICE })).status).toBe(201);
    const journal = journalPath(file);
    const good = readFileSync(journal, 'utf8');
    appendFileSync(journal, '{"seq": 99, "put": [{"type": "databaseService", "ent');

    const second = await startApp({ fixtures: 'none' });
    expect(loadDataFile(second.ctx, file)).toMatchObject({ journalFound: true });
    expect(second.ctx.store.getByFqn('databaseService', 'whole')).toBeDefined();

    writeFileSync(journal, `${good}{"seq": 99, "put": [\n${good}`);
    const lines = good.split('\n').length;
    await expect(startApp({ fixtures: 'none', dataFile: file })).rejects.toThrow(new RegExp(`state\\.json\\.journal, line ${lines}:`));
  });

  it('leftover temporary files are removed at start', async () => {
    const file = newFile();
    writeFileSync(`${file}.12345.1700000000000.tmp`, '{"half": ');
    await startApp({ fixtures: 'none', dataFile: file });
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.json', 'state.json.journal']);
  });
});

describe('compaction: a new snapshot, then a shorter journal', () => {
  it('writes the snapshot in the background and keeps the records appended meanwhile', async () => {
    const file = newFile();
    const catalog = await startApp({ fixtures: 'none' });
    const { ctx } = catalog;
    const persister = createPersister(ctx, file, false, { compactRecords: 3 });
    const durable = () => new Promise<void>((resolve, reject) => persister.whenDurable((error) => (error ? reject(error) : resolve())));
    for (let i = 0; i < 7; i++) {
      expect((await catalog.post('/api/v1/services/databaseServices', { name: `s${i}`, ...SERVICE })).status).toBe(201);
      await durable();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(oldJournalPath(file))).toBe(false);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { journalSeq: number; entities: unknown[] };
    expect(snapshot.journalSeq).toBeGreaterThan(0);
    expect(records(journalPath(file)).length).toBeLessThan(7);
    const second = await startApp({ fixtures: 'none', dataFile: file });
    expect(exportState(second.ctx).entities).toEqual(exportState(ctx).entities);
  });

  it('a crash before the new snapshot lands replays the old journal; after it, the old journal is skipped', async () => {
    const file = newFile();
    const catalog = await startApp({ fixtures: 'none' });
    const { ctx } = catalog;
    const persister = createPersister(ctx, file, false);
    for (const name of ['a', 'b']) {
      await catalog.post('/api/v1/services/databaseServices', { name, ...SERVICE });
      persister.flush();
    }
    const lines = readFileSync(journalPath(file), 'utf8').split('\n').filter(Boolean);
    // The crash came after the rotation, before the snapshot's rename: record 1 in .old, record 2 in the new journal.
    writeFileSync(oldJournalPath(file), `${lines[0]}\n`);
    writeFileSync(journalPath(file), `${lines[1]}\n`);
    const replayed = await startApp({ fixtures: 'none' });
    expect(loadDataFile(replayed.ctx, file)).toEqual({ lastSeq: 2, journalFound: true });
    expect(exportState(replayed.ctx).entities).toEqual(exportState(ctx).entities);

    // The snapshot landed (it holds both records): replaying them again changes nothing.
    writeFileSync(file, JSON.stringify({ ...exportState(ctx), journalSeq: 2 }));
    const skipped = await startApp({ fixtures: 'none' });
    expect(loadDataFile(skipped.ctx, file)).toEqual({ lastSeq: 2, journalFound: true });
    expect(exportState(skipped.ctx).entities).toEqual(exportState(ctx).entities);
  });
});

describe('POST /__admin/reset with --data', () => {
  it('goes back to the state the data file held at start, durably', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'none', dataFile: file });
    await first.post('/api/v1/services/databaseServices', { name: 'before', ...SERVICE });
    first.dev.persister!.flush();

    const second = await startApp({ fixtures: 'default', dataFile: file });
    const start = exportState(second.ctx).entities;
    await second.post('/api/v1/services/databaseServices', { name: 'after', ...SERVICE });
    const reset = await second.post('/__admin/reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ entities: start.length });
    expect(second.ctx.store.getByFqn('databaseService', 'after')).toBeUndefined();
    expect(second.ctx.store.getByFqn('databaseService', 'before')).toBeDefined();

    const third = await startApp({ fixtures: 'default', dataFile: file });
    expect(exportState(third.ctx).entities).toEqual(start);
  });

  it('?to=fixtures loads the start-up fixtures instead, and that is saved too', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'none', dataFile: file });
    await first.post('/api/v1/services/databaseServices', { name: 'mine', ...SERVICE });
    first.dev.persister!.flush();

    const second = await startApp({ fixtures: 'default', dataFile: file });
    const reset = await second.post('/__admin/reset?to=fixtures');
    expect(reset.status).toBe(200);
    expect(second.ctx.store.getByFqn('databaseService', 'mine')).toBeUndefined();
    const fixturesOnly = exportState((await startApp({ fixtures: 'default' })).ctx).entities.length;
    expect(reset.body).toEqual({ entities: fixturesOnly });

    const third = await startApp({ fixtures: 'none', dataFile: file });
    expect(third.ctx.store.getByFqn('databaseService', 'mine')).toBeUndefined();
    expect(exportState(third.ctx).entities.length).toBe(fixturesOnly);
    expect((await second.post('/__admin/reset?to=yesterday')).status).toBe(400);
  });
});

describe('side data in the journal: each write records the values it set or removed', () => {
  const ORDERS = 'acme_snowflake.ecommerce_dw.sales.fact_orders';

  it('a profiler config set through the API survives a restart, and so does its removal', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'default', dataFile: file });
    const id = first.ctx.store.getByFqn('table', ORDERS)!.entity.id;
    const config = `/api/v1/tables/${id}/profilerConfig`;
    const set = await first.put(config, { profileSample: 42, profileSampleType: 'PERCENTAGE' });
    expect(set.status).toBe(200);
    // The answer waited for the record: one value, not the whole side data, and no entity.
    expect(records(journalPath(file)).at(-1)).toMatchObject({
      side: [{ group: 'tables', field: 'profilerConfig', id, value: { profileSample: 42, profileSampleType: 'PERCENTAGE' } }],
    });
    expect(records(journalPath(file)).at(-1)?.put).toBeUndefined();

    const second = await startApp({ fixtures: 'none', dataFile: file });
    const kept = await second.get(config);
    expect(kept.body).toEqual({ profileSample: 42, profileSampleType: 'PERCENTAGE' });
    expect(exportState(second.ctx).sideData).toEqual(exportState(first.ctx).sideData);

    expect((await second.delete(config)).status).toBeLessThan(300);
    expect(records(journalPath(file)).at(-1)).toMatchObject({ side: [{ group: 'tables', field: 'profilerConfig', id }] });
    const third = await startApp({ fixtures: 'none', dataFile: file });
    expect((await third.get(config)).status).toBe(404);
    // The rest of the table's side data is still there.
    expect(exportState(third.ctx).sideData!.tables[id]!.tableProfiles).toHaveLength(5);
  });

  it('a hard-deleted table takes its side data out of the file too', async () => {
    const file = newFile();
    const first = await startApp({ fixtures: 'default', dataFile: file });
    const id = first.ctx.store.getByFqn('table', ORDERS)!.entity.id;
    expect((await first.delete(`/api/v1/tables/${id}?hardDelete=true&recursive=true`)).status).toBeLessThan(300);
    const removed = records(journalPath(file))
      .flatMap((r) => r.side ?? [])
      .filter((c) => c.id === id);
    expect(removed.map((c) => [c.field, 'value' in c])).toEqual(
      expect.arrayContaining([
        ['profilerConfig', false],
        ['tableProfiles', false],
      ]),
    );

    const second = await startApp({ fixtures: 'none', dataFile: file });
    expect(second.ctx.store.get(id)).toBeUndefined();
    expect(exportState(second.ctx).sideData!.tables[id]).toBeUndefined();
    expect(exportState(second.ctx).sideData).toEqual(exportState(first.ctx).sideData);
  });

  it('a journal of an earlier version, with the whole side data in a record, still replays', async () => {
    const file = newFile();
    const { ctx } = await startApp({ fixtures: 'default' });
    const state = exportState(ctx);
    const sideData = structuredClone(state.sideData!);
    const [testCaseId, runs] = Object.entries(sideData.testCaseResults)[0]!;
    sideData.testCaseResults[testCaseId] = runs.slice(0, 2);
    writeFileSync(file, JSON.stringify({ ...state, journalSeq: 0 }));
    writeFileSync(journalPath(file), `${JSON.stringify({ seq: 1, sideData })}\n`);

    const loaded = await startApp({ fixtures: 'none', dataFile: file });
    expect(exportState(loaded.ctx).sideData!.testCaseResults[testCaseId]).toEqual(runs.slice(0, 2));
  });
});
