import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';
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
