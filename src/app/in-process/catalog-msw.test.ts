/**
 * The catalog in process, as a component test uses it: MSW's `setupServer` (msw/node) answers the
 * global `fetch` from one handler, and the whole life of an entity goes through it — create, read,
 * a duplicate refused with 409, soft delete, restore, hard delete — with the server's errors,
 * versions and ETags; `reset()` brings back the start state. (catalog-isolation.test.ts runs beside
 * this file, with a catalog of its own.)
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessCatalog } from './catalog.ts';
import { createCatalog } from './catalog.ts';
import { catalogHandler } from './msw.ts';

let catalog: InProcessCatalog;
let server: ReturnType<typeof setupServer>;
let headers: Record<string, string>;

beforeAll(async () => {
  catalog = await createCatalog({ fixtures: 'none' });
  server = setupServer(catalogHandler(catalog));
  server.listen({ onUnhandledRequest: 'error' });
  headers = { authorization: `Bearer ${await catalog.token()}`, 'content-type': 'application/json' };
});
afterAll(() => {
  server.close();
  catalog.close();
});

const api = (path: string) => `${catalog.baseUrl}${path}`;
const send = (method: string, path: string, body?: unknown) => fetch(api(path), { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('an entity through fetch, under msw/node', () => {
  it('is created, read, refused twice, soft deleted, restored and hard deleted; reset() brings back the start', async () => {
    const service = await send('POST', '/v1/services/databaseServices', { name: 'warehouse', serviceType: 'Postgres', connection: { config: { type: 'Postgres' } } });
    expect(service.status).toBe(201);
    const created = (await service.json()) as { id: string; version: number; fullyQualifiedName: string; href: string };
    expect([created.version, created.fullyQualifiedName, service.headers.get('location')]).toEqual([0.1, 'warehouse', created.href]);
    expect(created.href).toBe(api(`/v1/services/databaseServices/${created.id}`));

    const read = await send('GET', `/v1/services/databaseServices/${created.id}`);
    expect([read.status, ((await read.json()) as { id: string }).id]).toEqual([200, created.id]);
    const tag = read.headers.get('etag');
    expect(tag).toMatch(/^W\//);
    expect((await fetch(api(`/v1/services/databaseServices/${created.id}`), { headers: { ...headers, 'if-none-match': tag! } })).status).toBe(304);

    const again = await send('POST', '/v1/services/databaseServices', { name: 'warehouse', serviceType: 'Postgres', connection: { config: { type: 'Postgres' } } });
    expect([again.status, await again.json()]).toEqual([409, { code: 409, errorType: 'ENTITY_ALREADY_EXISTS', message: 'Entity already exists' }]);

    const deleted = await send('DELETE', `/v1/services/databaseServices/${created.id}`);
    expect([deleted.status, ((await deleted.json()) as { deleted: boolean }).deleted]).toEqual([200, true]);
    expect((await send('GET', `/v1/services/databaseServices/${created.id}`)).status).toBe(404);

    const restored = await send('PUT', '/v1/services/databaseServices/restore', { id: created.id });
    expect([restored.status, ((await restored.json()) as { deleted: boolean }).deleted]).toEqual([200, false]);

    expect((await send('DELETE', `/v1/services/databaseServices/${created.id}?hardDelete=true`)).status).toBe(204);
    expect((await send('GET', `/v1/services/databaseServices/${created.id}?include=all`)).status).toBe(404);

    await send('POST', '/v1/services/databaseServices', { name: 'kept-until-reset', serviceType: 'Postgres', connection: { config: { type: 'Postgres' } } });
    expect(((await (await send('GET', '/v1/services/databaseServices')).json()) as { paging: { total: number } }).paging.total).toBe(1);
    catalog.reset();
    expect(((await (await send('GET', '/v1/services/databaseServices')).json()) as { paging: { total: number } }).paging.total).toBe(0);
  });

  it('a bad call gets the error body the server gives, never an exception', async () => {
    const bad = await send('POST', '/v1/services/databaseServices', { name: false, serviceType: 3 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 400, errorType: 'BAD_REQUEST' });
    const noToken = await fetch(api('/v1/tables'));
    expect([noToken.status, noToken.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    const notJson = await fetch(api('/v1/services/databaseServices'), { method: 'POST', headers, body: '{"name":' });
    expect([notJson.status, ((await notJson.json()) as { message: string }).message]).toEqual([400, expect.stringMatching(/^Malformed JSON body/)]);
  });
});
