/**
 * A body as the server reads it (express's raw reader, then parseBody) answers as body-parser's
 * JSON and text parsers do, which clients of express servers know: the same parsed body, or the
 * same error status and message, for every body below (a body nested deeper than the limit is
 * refused where body-parser would take it). A client that leaves mid-body changes nothing and
 * stops nothing.
 */
import express from 'express';
import type { RequestHandler } from 'express';
import { request as httpRequest } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, parseBody } from './request-body.ts';
import { toApiError } from './render-error.ts';

/** The server's reading: express.raw (size limit, encodings), then parseBody (src/http/dispatcher.ts). */
function ourReading(limit: string): RequestHandler[] {
  const parse: RequestHandler = (req, _res, next) => {
    try {
      const raw = req.body as Buffer | undefined;
      req.body = raw === undefined ? undefined : parseBody(raw, req.headers['content-type']);
      next();
    } catch (error) {
      next(error);
    }
  };
  return [express.raw({ type: () => true, limit }), parse];
}

/** body-parser's JSON and text parsers, with the options the server used to give them. */
function bodyParser(limit: string): RequestHandler[] {
  return [express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] }), express.text({ limit, type: ['text/plain', 'application/yaml'] })];
}

interface Answer {
  status: number;
  body: unknown;
}

/** An app that answers with what its parser made of the body (or the error it rendered). */
function echo(parse: RequestHandler[], seen: unknown[]) {
  const app = express();
  app.post('/echo', ...parse, (req, res) => {
    seen.push(req.body);
    res.json({ parsed: req.body === undefined ? '(none)' : req.body });
  });
  app.use(((error, _req, res, _next) => {
    const apiError = toApiError(error);
    res.status(apiError.status).json({ message: apiError.message });
  }) as express.ErrorRequestHandler);
  return app;
}

const LIMIT = '1kb';
const servers: Server[] = [];
const seenDirect: unknown[] = [];
let direct = '';
let reference = '';

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  direct = await listen(echo(ourReading(LIMIT), seenDirect));
  reference = await listen(echo(bodyParser(LIMIT), []));
});
afterAll(() => servers.forEach((server) => server.close()));

/** Sends `pieces` one write each (a body that arrives in several reads), with the headers given. */
function send(origin: string, headers: Record<string, string>, pieces: Buffer[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/echo`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    const writeNext = (i: number): void => {
      if (i === pieces.length) return void req.end();
      req.write(pieces[i]);
      setTimeout(() => writeNext(i + 1), 5);
    };
    writeNext(0);
  });
}

const json = (type: string) => ({ 'content-type': type });
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const euro = Buffer.from('{"name":"€ café"}');

describe('a body is read as body-parser reads it', () => {
  it.each<[string, Record<string, string>, Buffer[], number]>([
    ['an object', json('application/json'), [Buffer.from('{"name":"orders","n":12345}')], 200],
    ['charset=utf-8', json('application/json; charset=utf-8'), [Buffer.from('{"a":[1,2,{"b":null}]}')], 200],
    ['charset=utf-8 without a space', json('application/json;charset=utf-8'), [Buffer.from('{"a":true}')], 200],
    ['charset=UTF-8', json('application/json; charset=UTF-8'), [Buffer.from('{"a":"É"}')], 200],
    ['an array', json('application/json'), [Buffer.from('[{"op":"add"}]')], 200],
    ['a bare string (not strict)', json('application/json'), [Buffer.from('"text"')], 200],
    ['a bare number', json('application/json'), [Buffer.from('12')], 200],
    ['a leading byte-order mark', json('application/json'), [Buffer.from('\ufeff{"a":1}')], 200],
    ['a body in three reads', json('application/json'), [Buffer.from('{"na'), Buffer.from('me":"sp'), Buffer.from('lit"}')], 200],
    ['a character split across reads', json('application/json'), [euro.subarray(0, 10), euro.subarray(10)], 200],
    ['malformed JSON', json('application/json'), [Buffer.from('{"name":')], 400],
    ['whitespace only', json('application/json'), [Buffer.from('   ')], 400],
    ['a trailing comma', json('application/json'), [Buffer.from('{"a":1,}')], 400],
    [`nesting of exactly ${MAX_BODY_DEPTH}`, json('application/json'), [Buffer.from(deep(MAX_BODY_DEPTH))], 200],
    ['over the size limit', json('application/json'), [Buffer.from(`{"d":"${'x'.repeat(1100)}"}`)], 413],
    ['exactly the size limit', json('application/json'), [Buffer.from(`{"d":"${'x'.repeat(1024 - 8)}"}`)], 200],
    ['a +json media type', json('application/json-patch+json'), [Buffer.from('[{"op":"remove","path":"/a"}]')], 200],
    ['Content-Type in capitals', json('Application/JSON'), [Buffer.from('{"a":1}')], 200],
    ['charset=latin1 (refused)', json('application/json; charset=latin1'), [Buffer.from('{"a":1}')], 415],
    ['text/plain', json('text/plain'), [Buffer.from('name: orders')], 200],
    ['an unknown media type (not parsed)', json('application/xml'), [Buffer.from('<a/>')], 200],
  ])('%s', async (_name, headers, pieces, status) => {
    const length = String(pieces.reduce((n, p) => n + p.length, 0));
    const withLength = { ...headers, 'content-length': length };
    const [ours, theirs] = await Promise.all([send(direct, withLength, pieces), send(reference, withLength, pieces)]);
    expect(ours).toEqual(theirs);
    // And the answer is the one wanted, not merely the same wrong one on both sides.
    expect(ours.status).toBe(status);
  });
});

describe('beyond body-parser', () => {
  it(`a body nested deeper than ${MAX_BODY_DEPTH} levels is refused with a 400 that says so`, async () => {
    const body = Buffer.from(deep(MAX_BODY_DEPTH + 1));
    const answer = await send(direct, { 'content-type': 'application/json', 'content-length': String(body.length) }, [body]);
    expect(answer).toEqual({ status: 400, body: { message: `Request body is nested deeper than ${MAX_BODY_DEPTH} levels` } });
  });
});

describe('a client that leaves mid-body', () => {
  it('is dropped without reaching the handler, and the server goes on answering', async () => {
    const seen = seenDirect.length;
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${direct}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100' } });
      req.on('error', () => resolve());
      req.write('{"name":"half');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 20);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seenDirect.length).toBe(seen);
    const after = await send(direct, { 'content-type': 'application/json', 'content-length': '7' }, [Buffer.from('{"a":1}')]);
    expect(after).toEqual({ status: 200, body: { parsed: { a: 1 } } });
  });
});
