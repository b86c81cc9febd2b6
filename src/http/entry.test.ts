/**
 * The app as the server's handler calls its pipeline and error renderer directly; mounted in
 * another express app, it goes through express's router. Either way a request gets express's
 * request and response, and every way out of the pipeline is an answer.
 */
import express from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { enterDirectly, requestClasses } from './entry.ts';
import { ApiError } from './errors.ts';

const pipeline: RequestHandler = (req, res, next) => {
  switch (req.path) {
    case '/answer':
      // express's own request and response helpers are there.
      return void res
        .status(201)
        .set('X-Base', `[${req.baseUrl}]`)
        .json({ url: req.originalUrl, query: req.query, local: typeof res.locals });
    case '/refuse':
      return next(new ApiError(409, 'taken'));
    case '/throw':
      throw new Error('a bug');
    case '/begun':
      res.write('partial');
      return next(new Error('after the headers'));
    default:
      return next();
  }
};
const renderError: ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent) return next(error);
  const status = error instanceof ApiError ? error.status : 500;
  res.status(status).json({ code: status, message: error instanceof Error ? error.message : String(error) });
};

function app() {
  const catalog = express();
  catalog.use(pipeline);
  catalog.use(renderError);
  enterDirectly(catalog, pipeline, renderError);
  return catalog;
}

describe('a request to the app as the server handler', () => {
  const served = app();
  it.each([
    ['an answer', '/answer?a=1', 201, { url: '/answer?a=1', query: { a: '1' }, local: 'object' }],
    ['a refusal passed to next', '/refuse', 409, { code: 409, message: 'taken' }],
    ['a throw', '/throw', 500, { code: 500, message: 'a bug' }],
    ['nothing answered (next())', '/nothing', 404, { code: 404, message: 'HTTP 404 Not Found: no handler for GET /nothing' }],
  ])('%s', async (_name, path, status, body) => {
    const res = await request(served).get(path);
    expect([res.status, res.body]).toEqual([status, body]);
  });

  it('an error after the answer began closes the connection (the answer cannot become an error body)', async () => {
    await expect(request(served).get('/begun')).rejects.toThrow();
  });

  it('a renderer that fails still leaves a 500 in the error shape', async () => {
    const broken = express();
    enterDirectly(
      broken,
      (_req, _res, next) => next(new ApiError(409, 'taken')),
      () => {
        throw new Error('the renderer has a bug');
      },
    );
    const res = await request(broken).get('/anything');
    expect([res.status, res.headers['content-type'], res.body]).toEqual([
      500,
      'application/json; charset=utf-8',
      { code: 500, message: 'Internal server error: the error could not be rendered' },
    ]);
  });
});

describe('the app mounted in another express app', () => {
  it('goes through express as usual: the mount path is the base URL, the parent gets what is not answered', async () => {
    const parent = express();
    parent.use('/mock', app());
    const answered = await request(parent).get('/mock/answer');
    expect([answered.status, answered.headers['x-base'], answered.body.url]).toEqual([201, '[/mock]', '/mock/answer']);
    const refused = await request(parent).get('/mock/refuse');
    expect([refused.status, refused.body]).toEqual([409, { code: 409, message: 'taken' }]);
  });
});

describe('a server made with requestClasses', () => {
  it('answers with express helpers, and changes no prototype per request (the app.listen way changes two)', async () => {
    const served = app();
    const server = createServer({ ...requestClasses(served) }, served);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const plain = served.listen(0, '127.0.0.1');
    await new Promise((resolve) => plain.once('listening', resolve));
    const plainOrigin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    try {
      const spy = vi.spyOn(Object, 'setPrototypeOf');
      // The client (fetch) changes prototypes of its own: only the server's request and response count.
      const changes = () => spy.mock.calls.filter(([object]) => object instanceof IncomingMessage || object instanceof ServerResponse).length;
      const res = await fetch(`${origin}/answer?a=1`);
      expect([res.status, await res.json()]).toEqual([201, { url: '/answer?a=1', query: { a: '1' }, local: 'object' }]);
      expect(changes()).toBe(0);
      const viaListen = await fetch(`${plainOrigin}/answer?a=1`);
      expect(viaListen.status).toBe(201);
      expect(changes()).toBe(2);
      spy.mockRestore();
    } finally {
      server.close();
      plain.close();
    }
  });
});
