/**
 * CORS (README.md "CORS"): a UI served from another localhost port calls the mock with an
 * `Authorization` header, so the browser sends a preflight first. Answered here, before
 * authentication, so a preflight never needs a token.
 *
 * Safe defaults: the preflight allows exactly the request headers the API reads (ALLOWED_HEADERS),
 * never whatever the browser asks for; and `Access-Control-Allow-Credentials` is never sent. The
 * API authenticates with bearer tokens only (src/http/authenticate.ts) and sets no cookie, so a
 * browser needs no credentials mode, and answering with it would let any page that can reach the
 * server make calls carrying the user's cookies for that host.
 */
import type { RequestHandler } from 'express';

export interface CorsOptions {
  /** Allowed origins; `*` (the default) allows any origin. */
  origins?: readonly string[];
}

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/**
 * The request headers a client of the API sends beyond the CORS-safelisted ones: the token
 * (authenticate.ts), JSON and JSON Patch bodies (operation-validation.ts), `Prefer: code=`
 * (src/admin/prefer-code.ts), `If-None-Match` (answered 304 by send-json.ts), `If-Match` (not
 * read, but sent by clients that patch with the ETag they got; allowed so the browser lets that
 * request through) and `X-Requested-With`, which UI HTTP libraries add. `Accept` is listed for
 * values longer than the CORS safelist allows.
 */
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Prefer', 'If-Match', 'If-None-Match', 'X-Requested-With'] as const;
const ALLOWED_HEADERS_VALUE = ALLOWED_HEADERS.join(', ');
/** Response headers a UI may read: OpenMetadata's change header, the created entity's location, the ETag. */
const EXPOSED_HEADERS = 'X-OpenMetadata-Change, Location, Content-Length, ETag';

export function cors(options: CorsOptions = {}): RequestHandler {
  const origins = options.origins?.length ? options.origins : ['*'];
  const anyOrigin = origins.includes('*');
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return next();
    if (!anyOrigin) {
      // The answer depends on the origin only with an allow-list.
      res.vary('Origin');
      // Not allowed: answer without CORS headers, so the browser blocks the response.
      if (!origins.includes(origin)) return req.method === 'OPTIONS' ? void res.status(204).end() : next();
    }
    // No credentials mode (above), so `*` is honoured by browsers and says what it means.
    res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    const preflightMethod = req.headers['access-control-request-method'];
    if (req.method !== 'OPTIONS' || typeof preflightMethod !== 'string') return next();
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS_VALUE);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
