import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';

describe('CORS: a UI on another port calls the API with a bearer token', () => {
  it('a preflight is answered 204 without a token, allowing the Authorization header', async () => {
    const { app } = await createApp();
    const res = await request(app)
      .options('/api/v1/tables')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
  });

  it('an actual request gets the allowed origin and the exposed change header', async () => {
    const { app } = await createApp();
    const token = await signToken({ user: 'admin', role: 'Admin' });
    const res = await request(app).get('/api/v1/tables').set('Origin', 'http://localhost:3000').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-expose-headers']).toContain('X-OpenMetadata-Change');
  });

  it('with configured origins, another origin gets no CORS headers', async () => {
    const { app } = await createApp({ corsOrigins: ['http://localhost:5173'] });
    const res = await request(app).options('/api/v1/tables').set('Origin', 'http://evil.example').set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const ok = await request(app).options('/api/v1/tables').set('Origin', 'http://localhost:5173').set('Access-Control-Request-Method', 'GET');
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});
