import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';
import { exportState } from '../admin/state.ts';
import { writeFileAtomic } from './data-file.ts';

describe('--data persistence: the state survives a restart', () => {
  it('an API write is saved and loaded by the next server instead of the fixtures', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
    const first = await createApp({ fixtures: 'none', dataFile: file });
    const token = await signToken({ user: 'admin', role: 'Admin' });
    const created = await request(first.app)
      .post('/api/v1/services/databaseServices')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'kept', serviceType: 'Mysql', connection: { config: { type: 'Mysql' } } });
    expect(created.status).toBe(201);
    first.dev.persister!.flush();
    expect(existsSync(file)).toBe(true);

    const second = await createApp({ fixtures: 'default', dataFile: file });
    const kept = second.ctx.store.getByFqn('databaseService', 'kept');
    expect(kept?.entity).toMatchObject({ id: created.body.id, version: 0.1 });
    // The file won over the fixtures: only the service and the admin user of the token.
    expect([...second.ctx.store.all()].map((s) => s.type).sort()).toEqual(['databaseService', 'user']);
  });

  it('side data (profiles, sample data, test case and contract results) is saved and loaded exactly', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
    const now = () => 1_718_000_000_000;
    const first = await createApp({ fixtures: 'default', dataFile: file, now });
    const token = await signToken({ user: 'admin', role: 'Admin' });
    const fqn = 'acme_snowflake.ecommerce_dw.sales.fact_orders.fact_orders_row_count';
    const run = await request(first.app)
      .put(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ timestamp: 1_717_999_999_000, testCaseStatus: 'Aborted', result: 'Warehouse unavailable.' });
    expect(run.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    first.dev.persister!.flush();

    const second = await createApp({ fixtures: 'none', dataFile: file, now });
    expect(exportState(second.ctx)).toEqual(exportState(first.ctx));
    const runs = await request(second.app).get(`/api/v1/dataQuality/testCases/testCaseResults/${fqn}`).set('Authorization', `Bearer ${token}`);
    expect(runs.body.data.map((r: { testCaseStatus: string }) => r.testCaseStatus)).toEqual(['Aborted', 'Success', 'Success', 'Success', 'Success', 'Success']);
    expect(Object.keys(exportState(second.ctx).sideData!.tables)).toHaveLength(4);
  });

  it('a corrupt data file stops the start with a message naming it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-data-')), 'state.json');
    writeFileSync(file, '{"format": "catalog-kit-state/1", "entities": [');
    await expect(createApp({ dataFile: file })).rejects.toThrow(/cannot read the data file .*state\.json/);
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
