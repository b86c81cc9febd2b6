/**
 * sendJson answers exactly as express's own `res.json` does, header for header, for the cases the
 * API produces: a plain answer, HEAD, a matching and a stale conditional GET, an error status, and
 * the cases it hands back to express (204, a Content-Type already set).
 */
import express from 'express';
import type { Response } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sendJson } from './send-json.ts';

const BODY = { id: '497f6eca-6276-4993-bfeb-53cbbbba6f08', name: 'café ☕', tags: [], version: 0.1 };

/** Two apps answering the same: one with express's res.json, one with sendJson. */
function apps() {
  const make = (send: (res: Response, status: number, body: unknown) => void) => {
    const app = express();
    app.disable('x-powered-by');
    app.all('/plain', (_req, res) => send(res, 200, BODY));
    app.all('/error', (_req, res) => send(res, 404, { code: 404, message: 'container instance for x not found' }));
    app.all('/empty', (_req, res) => send(res, 204, undefined));
    app.all('/typed', (_req, res) => send(res.type('application/vnd.custom+json'), 200, BODY));
    return app;
  };
  const original = express.response.json as (this: Response, body: unknown) => Response;
  return {
    express: make((res, status, body) => void res.status(status).json(body)),
    ours: make((res, status, body) => void sendJson(res.status(status), body, original)),
  };
}

const HEADERS = ['content-type', 'content-length', 'etag'];
const pick = (res: request.Response) => ({ status: res.status, text: res.text, ...Object.fromEntries(HEADERS.map((h) => [h, res.headers[h]])) });

describe('sendJson answers as express res.json', () => {
  const { express: reference, ours } = apps();
  it.each([
    ['a plain GET', 'GET', '/plain', {}],
    ['HEAD', 'HEAD', '/plain', {}],
    ['an error status', 'GET', '/error', {}],
    ['204 (handed to express)', 'GET', '/empty', {}],
    ['a Content-Type already set (handed to express)', 'GET', '/typed', {}],
    ['a stale If-None-Match', 'GET', '/plain', { 'If-None-Match': 'W/"1-stale"' }],
  ])('%s', async (_name, method, path, headers) => {
    const send = (app: express.Express) =>
      request(app)
        [method.toLowerCase() as 'get'](path)
        .set(headers as Record<string, string>);
    const [want, got] = [pick(await send(reference)), pick(await send(ours))];
    expect(got).toEqual(want);
  });

  it('a matching If-None-Match is 304 with no body, as express answers it', async () => {
    const etag = (await request(reference).get('/plain')).headers.etag as string;
    const [want, got] = [await request(reference).get('/plain').set('If-None-Match', etag), await request(ours).get('/plain').set('If-None-Match', etag)];
    expect(got.status).toBe(304);
    expect(pick(got)).toEqual(pick(want));
  });
});
