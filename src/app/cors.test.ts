import { describe, expect, it } from 'vitest';
import { startApp } from '../../test/kit.ts';
import { readFileSync } from 'node:fs';
import { ALLOWED_HEADERS } from './cors.ts';

const API_HEADERS = ['Authorization', 'Content-Type', 'Prefer', 'If-Match', 'If-None-Match', 'X-Requested-With'];

function headerList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

describe('CORS: a UI on another port calls the API with a bearer token', () => {
  it('a preflight is answered 204 without a token, allowing the headers the API uses', async () => {
    const catalog = await startApp();
    const res = await catalog
      .request('options', '/api/v1/tables', '')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const allowed = headerList(res.headers['access-control-allow-headers']);
    for (const header of API_HEADERS) expect(allowed).toContain(header.toLowerCase());
    expect(allowed).toEqual(ALLOWED_HEADERS.map((h) => h.toLowerCase()));
    expect(res.headers['access-control-allow-methods']).toContain('PATCH');
  });

  it('docs/ui-work.md "CORS" names every allowed request header', () => {
    const doc = readFileSync(new URL('../../docs/ui-work.md', import.meta.url), 'utf8');
    const start = doc.indexOf('\nCORS (');
    expect(start).toBeGreaterThan(0);
    const paragraph = doc.slice(start, doc.indexOf('\n\n', start));
    for (const header of ALLOWED_HEADERS) expect(paragraph).toContain(`\`${header}\``);
  });

  it('the allowed headers are a fixed list, not whatever the preflight asks for', async () => {
    const catalog = await startApp();
    const res = await catalog
      .request('options', '/api/v1/tables', '')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization, x-evil-header, cookie');
    expect(res.status).toBe(204);
    const allowed = headerList(res.headers['access-control-allow-headers']);
    expect(allowed).toContain('authorization');
    expect(allowed).not.toContain('x-evil-header');
    expect(allowed).not.toContain('cookie');
  });

  it('no credentials mode for any origin, on preflights and actual requests', async () => {
    const catalog = await startApp();
    const preflight = await catalog.request('options', '/api/v1/tables', '').set('Origin', 'http://evil.example').set('Access-Control-Request-Method', 'GET');
    const actual = await catalog.get('/api/v1/tables').set('Origin', 'http://evil.example');
    for (const res of [preflight, actual]) {
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      // Never the caller's origin echoed back: any page may read, but never with its cookies.
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('an actual request gets the allowed origin and the exposed change header', async () => {
    const catalog = await startApp();
    const res = await catalog.get('/api/v1/tables').set('Origin', 'http://localhost:3000');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('X-OpenMetadata-Change');
  });

  it('with configured origins, another origin gets no allowed origin; a listed one gets its origin, still without credentials', async () => {
    const catalog = await startApp({ corsOrigins: ['http://localhost:5173'] });
    const res = await catalog.request('options', '/api/v1/tables', '').set('Origin', 'http://evil.example').set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const actual = await catalog.get('/api/v1/tables').set('Origin', 'http://evil.example');
    expect(actual.headers['access-control-allow-origin']).toBeUndefined();
    const ok = await catalog.request('options', '/api/v1/tables', '').set('Origin', 'http://localhost:5173').set('Access-Control-Request-Method', 'GET');
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect(ok.headers.vary).toMatch(/Origin/);
  });

  it('a request without Origin (not a browser cross-origin call) gets no CORS headers', async () => {
    const catalog = await startApp();
    const res = await catalog.get('/api/v1/tables');
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});
