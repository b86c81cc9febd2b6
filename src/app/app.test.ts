import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import supertest from 'supertest';
import { tokenFor } from '../../test/kit.ts';
import type { CatalogApp } from './app.ts';
import { createApp } from './app.ts';

// The server listens with `listener`, which hands /api to the API without express; the express
// app (`app`, for users' own servers and supertest) runs the same handler as its first stage.
// Both must answer an API request alike: CORS, the request log's journal, the body limit.
describe('the front door and the express app serve the API alike', () => {
  let catalog: CatalogApp;
  let servers: Record<'listener' | 'express', Server>;
  let token: string;

  beforeAll(async () => {
    catalog = await createApp({ fixtures: 'default', log: () => {}, bodyLimit: '1kb' });
    servers = { listener: createServer(catalog.listener), express: createServer(catalog.app) };
    token = await tokenFor('Admin');
  });
  afterAll(() => catalog.webhooks.stop());

  const transports = ['listener', 'express'] as const;

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
});
