/**
 * The store's change listener, which keeps the search index current (src/core/entity-store.ts
 * `subscribe`; docs/behaviour.md "Search"): every write that replaces, adds or removes a stored
 * entity is told, whichever code path makes it (given a write, want the changes it reports).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoreChange } from '../../core/entity-store.ts';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';

let c: TestApp;
let changes: string[] = [];
const seen = (change: StoreChange): string => (change.op === 'clear' ? 'clear' : `${change.op} ${change.stored.type} ${change.stored.entity.name}`);

beforeAll(async () => {
  c = await startApp({ at: T0 });
  await c.get('/api/v1/users/loggedInUser'); // the admin user exists before the listener starts
  c.ctx.store.subscribe((change) => changes.push(seen(change)));
}, SLOW_START);

describe('EntityStore.subscribe: every change to the stored entities is told', () => {
  it('create, patch, follow, soft delete, restore, hard delete', async () => {
    changes = [];
    const service = await c.post('/api/v1/services/storageServices', { name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    expect(changes).toEqual(['put storageService lake']);

    changes = [];
    const container = await c.post('/api/v1/containers', { name: 'raw', service: 'lake' });
    expect(changes).toEqual(['put container raw']);

    changes = [];
    expect((await c.patch(`/api/v1/containers/${container.body.id}`, [{ op: 'add', path: '/description', value: 'x' }])).status).toBe(200);
    expect(changes).toEqual(['put container raw']);

    changes = [];
    const admin = (await c.get('/api/v1/users/loggedInUser')).body as { id: string };
    const followed = await c.put(`/api/v1/containers/${container.body.id}/followers`).set('Content-Type', 'application/json').send(JSON.stringify(admin.id));
    expect(followed.status).toBe(200);
    expect(changes).toEqual(['put container raw']);

    changes = [];
    expect((await c.delete(`/api/v1/services/storageServices/${service.body.id}?recursive=true`)).status).toBe(200);
    expect([...changes].sort()).toEqual(['put container raw', 'put storageService lake']);

    changes = [];
    expect((await c.put('/api/v1/services/storageServices/restore', { id: service.body.id })).status).toBe(200);
    expect([...changes].sort()).toEqual(['put container raw', 'put storageService lake']);

    changes = [];
    expect((await c.delete(`/api/v1/services/storageServices/${service.body.id}?recursive=true&hardDelete=true`)).status).toBeLessThan(300);
    expect(changes).toEqual(['remove container raw', 'remove storageService lake']);
  });

  it('a reset clears the store, then tells what it loads; unsubscribing stops it', async () => {
    changes = [];
    expect((await c.post('/__admin/reset')).status).toBe(200);
    expect(changes[0]).toBe('clear');

    await c.get('/api/v1/users/loggedInUser'); // the token's user, created anew after the reset
    const mine: string[] = [];
    const stop = c.ctx.store.subscribe((change) => mine.push(seen(change)));
    await c.post('/api/v1/services/storageServices', { name: 'again', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    stop();
    await c.post('/api/v1/services/storageServices', { name: 'after', serviceType: 'S3', connection: { config: { type: 'S3' } } });
    expect(mine).toEqual(['put storageService again']);
  });
});
