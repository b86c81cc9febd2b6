import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import supertest from 'supertest';
import { tokenFor } from '../../test/kit.ts';
import type { CatalogApp, CatalogHandler } from './app.ts';
import { createApp, createHandler } from './app.ts';

// The server listens with `listener`, which hands /api to the API without express; the express
// app (`app`, for users' own servers and supertest) runs the same handler as its first stage.
// `createHandler`'s listener (what `catalog-kit serve` listens with) builds that express app on
// the first request outside /api. All must answer alike: CORS, the request log's journal, the
// body limit, the Admin API, 404.
describe('the front door and the express app serve the API alike', () => {
  let catalog: CatalogApp;
  let handler: CatalogHandler;
  let servers: Record<'listener' | 'express' | 'handler', Server>;
  let token: string;

  beforeAll(async () => {
    catalog = await createApp({ fixtures: 'default', log: () => {}, bodyLimit: '1kb' });
    handler = await createHandler({ fixtures: 'default', log: () => {}, bodyLimit: '1kb' });
    servers = { listener: createServer(catalog.listener), express: createServer(catalog.app), handler: createServer(handler.listener) };
    token = await tokenFor('Admin');
  });
  afterAll(() => {
    catalog.webhooks.stop();
    handler.webhooks.stop();
  });

  const transports = ['listener', 'express', 'handler'] as const;

  it.each(transports)('%s: a cross-origin GET is answered with the CORS headers and journaled', async (transport) => {
    await supertest(servers[transport]).post('/__admin/reset').expect(200);
    const res = await supertest(servers[transport]).get('/api/v1/tables?limit=1').set('Authorization', `Bearer ${token}`).set('Origin', 'http://localhost:5173');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('ETag');
    expect(res.body.data).toHaveLength(1);
    const journal = await supertest(servers[transport]).get('/__admin/journal').expect(200);
    expect(journal.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'GET', path: '/api/v1/tables', status: 200 })]));
  });

  it.each(transports)('%s: a preflight is answered 204 without a token', async (transport) => {
    const res = await supertest(servers[transport])
      .options('/api/v1/tables')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it.each(transports)('%s: a body over the limit is a 413 in the error shape, and HEAD has no body', async (transport) => {
    const big = await supertest(servers[transport])
      .post('/api/v1/tables')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(2048) }));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 413, message: 'Request body is larger than the limit' });
    const head = await supertest(servers[transport]).head('/api/v1/tables?limit=1').set('Authorization', `Bearer ${token}`);
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  });

  it.each(transports)('%s: a path outside the API and the docs is a 404 in the error shape', async (transport) => {
    const res = await supertest(servers[transport]).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, message: 'HTTP 404 Not Found: no handler for GET /nowhere' });
  });

  it.each(transports)('%s: the document is served, naming this server', async (transport) => {
    const document = await supertest(servers[transport]).get('/openapi.json');
    expect(document.body.servers).toEqual([expect.objectContaining({ url: expect.stringMatching(/\/api$/) })]);
  });

  it('handler: a body sent before any request outside /api is read, and the express app is built once', async () => {
    const fresh = await createHandler({ fixtures: 'none', log: () => {} });
    const server = createServer(fresh.listener);
    try {
      const created = await supertest(server)
        .post('/api/v1/services/storageServices')
        .set('Authorization', `Bearer ${token}`)
        .send({ name: 'first', serviceType: 'S3', connection: { config: { type: 'S3' } } });
      expect([created.status, created.body.name]).toEqual([201, 'first']);
      const [one, two] = await Promise.all([fresh.expressApp(), fresh.expressApp()]);
      expect(one).toBe(two);
    } finally {
      fresh.webhooks.stop();
    }
  });
});
