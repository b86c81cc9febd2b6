/**
 * A JSON answer as express's `res.json` gives it — `Content-Type: application/json; charset=utf-8`,
 * `Content-Length`, a weak ETag of the body (the `etag` package, as express computes it), `304` for
 * a matching conditional GET (express's `req.fresh`), no body for HEAD — without the detours of its
 * general-purpose `send` (re-parsing the Content-Type to add the charset, a header read per
 * decision). Every answer of the API goes through here, so this is most of what a request costs. An
 * ETag already set is the answer's own (an entity's tag, src/domain/projection.ts `entityTag`:
 * docs/behaviour.md "Conditional requests") and is kept in place of the body's. Anything unusual
 * (a 204/205/304 status, a Content-Type already set, a Transfer-Encoding) goes through express's own
 * path, unchanged.
 */
import etag from 'etag';
import type { Response } from 'express';
import { jsonOf, keptText } from '../domain/kept-answers.ts';
import { namesTag } from './conditional.ts';

type Json = (this: Response, body: unknown) => Response;

export function sendJson(res: Response, body: unknown, express: Json): Response {
  const status = res.statusCode;
  if (status === 204 || status === 205 || status === 304 || res.hasHeader('content-type') || res.hasHeader('transfer-encoding')) {
    return express.call(res, body);
  }
  // A kept answer's text, or a page's made of its items' kept texts (src/domain/kept-answers.ts).
  const kept = keptText(body);
  const text = kept !== undefined ? kept.text : jsonOf(body);
  if (text === undefined) return express.call(res, body);
  const req = res.req;
  const own = res.getHeader('etag');
  // An answer whose tag is a digest of its body (a list page, ≈ 6 KB) is encoded once, then hashed
  // and sent as those bytes: as text it was encoded to UTF-8 for its length, for the digest and for
  // the socket, and joined to the header first (list page under HTTP load: 182 → 169 µs of CPU per
  // request, docs/performance.md "What changed in phase 9"). An entity's answer (≈ 0.7 KB) keeps its
  // own tag and goes as text.
  // A kept answer's tag is computed once, so its text is not encoded for the digest: it goes as text.
  const payload = typeof own === 'string' || kept !== undefined ? text : Buffer.from(text, 'utf8');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.length);
  let fresh: boolean;
  if (typeof own === 'string') {
    // The entity's tag: evaluated as an origin server evaluates it (RFC 9110 §13.1.2), as
    // OpenMetadata's does, whatever `Cache-Control: no-cache` says (fetch adds it to every request
    // with If-None-Match; `req.fresh` would answer such a request in full, as a cache must).
    const header = req.headers['if-none-match'];
    fresh = header !== undefined && (req.method === 'GET' || req.method === 'HEAD') && status >= 200 && status < 300 && namesTag(header, own);
  } else {
    res.setHeader('ETag', kept !== undefined ? (kept.tag ??= etag(text, { weak: true })) : etag(payload, { weak: true }));
    // `req.fresh` reads the conditional headers: most requests have none.
    fresh = (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) && req.fresh;
  }
  if (fresh) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return res;
  }
  if (req.method === 'HEAD') res.end();
  else res.end(payload);
  return res;
}
