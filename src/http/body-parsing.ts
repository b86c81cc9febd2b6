/**
 * Request bodies: JSON (`application/json`, `application/*+json`) and text (`text/plain`,
 * `application/yaml`), within a size limit (413) and a nesting limit (400, src/http/body-limits.ts).
 *
 * Almost every body the API receives is `Content-Type: application/json` (or with
 * `charset=utf-8`), with a `Content-Length` within the limit and no `Content-Encoding`. Those are
 * read here directly, as body-parser would read them: the bytes as they arrive, UTF-8 with a
 * leading byte-order mark dropped, `JSON.parse` (any JSON value, not only objects, as `strict:
 * false`), and a parse failure reported with body-parser's own error `type`, so the error
 * renderer says the same thing either way. body-parser's per-request machinery (a media-type
 * parser, a charset lookup, a stream decoder, its listeners) is skipped: with the direct entry
 * (src/http/entry.ts), a create went from 452 to 400 µs of CPU (docs/performance.md "What changed
 * in phase 6"). Every other body (another media type or charset, compressed, chunked, over the
 * limit) goes through body-parser itself, unchanged. src/http/body-parsing.test.ts checks that
 * both paths answer alike.
 */
import bytes from 'bytes';
import express from 'express';
import type { RequestHandler } from 'express';
import { compose, hasBody } from './compose.ts';
import { limitNesting } from './body-limits.ts';

/** The `Content-Type`s read directly (header values are compared as sent; any other spelling goes to body-parser). */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8', 'application/json; charset=UTF-8']);

/** body-parser's error for JSON it cannot parse: the renderer knows it by its `type`. */
class JsonParseError extends SyntaxError {
  readonly status = 400;
  readonly statusCode = 400;
  readonly type = 'entity.parse.failed';
  constructor(
    cause: unknown,
    readonly body: string,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** `limit`: a size in body-parser's syntax (`'1mb'`, `'100kb'`, or a number of bytes). */
export function bodyParsing(limit: string | number): RequestHandler {
  const checkNesting = limitNesting();
  const general = viaBodyParser(limit);
  const maxBytes = typeof limit === 'number' ? limit : bytes.parse(limit);
  if (maxBytes === null) throw new Error(`body limit ${String(limit)} is not a size`);

  return (req, res, next) => {
    // No body: nothing to parse (most requests).
    if (!hasBody(req)) return next();
    const headers = req.headers;
    const type = headers['content-type'];
    // A chunked body has no Content-Length: Number(undefined) is NaN, which no limit admits.
    const size = Number(headers['content-length']);
    if (type === undefined || !PLAIN_JSON.has(type) || headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined || !(size <= maxBytes)) {
      return general(req, res, next);
    }
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      if (error !== undefined) return next(error);
      const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      let text = data.toString('utf8');
      // body-parser decodes with iconv-lite, which drops a UTF-8 byte-order mark.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (cause) {
        return next(new JsonParseError(cause, text));
      }
      req.body = body;
      checkNesting(req, res, next);
    };
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => settle());
    // A client that goes away mid-body: nothing is parsed, nothing is changed (the answer has no one to reach).
    req.on('error', (error) => settle(Object.assign(error, { status: 400, type: 'request.aborted' })));
  };
}

/** Every body read by body-parser: how the bodies the direct path does not take are read, and what it must answer alike. */
export function viaBodyParser(limit: string | number): RequestHandler {
  return compose([
    express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] }),
    express.text({ limit, type: ['text/plain', 'application/yaml'] }),
    limitNesting(),
  ]);
}
