/**
 * CORS (docs/ui-work.md "CORS"): a UI served from another localhost port calls the mock with an
 * `Authorization` header, so the browser sends a preflight first. Answered here by the `cors`
 * package, before authentication, so a preflight never needs a token.
 *
 * Safe defaults: the preflight allows exactly the request headers the API reads (ALLOWED_HEADERS),
 * never whatever the browser asks for; and `Access-Control-Allow-Credentials` is never sent. The
 * API authenticates with bearer tokens only (src/http/authenticate.ts) and sets no cookie, so a
 * browser needs no credentials mode, and answering with it would let any page that can reach the
 * server make calls carrying the user's cookies for that host. With no credentials mode `*` is
 * honoured by browsers and says what it means; with an allow-list each listed origin gets its own
 * origin back (and `Vary: Origin`), any other none, so the browser blocks the response.
 */
import corsPackage from 'cors';
import type { Stage } from './node-handler.ts';

export interface CorsOptions {
  /** Allowed origins; `*` (the default) allows any origin. */
  origins?: readonly string[];
}

export const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/**
 * The request headers a client of the API sends beyond the CORS-safelisted ones: the token
 * (authenticate.ts), JSON and JSON Patch bodies (operation-validation.ts), `Prefer: code=`
 * (src/http/prefer-code.ts), `If-None-Match` (answered 304 by the dispatcher, src/http/dispatcher.ts), `If-Match` (not
 * read, but sent by clients that patch with the ETag they got; allowed so the browser lets that
 * request through) and `X-Requested-With`, which UI HTTP libraries add. `Accept` is listed for
 * values longer than the CORS safelist allows.
 */
export const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Prefer', 'If-Match', 'If-None-Match', 'X-Requested-With'] as const;
/** Response headers a UI may read: OpenMetadata's change header, the created entity's location, the ETag. */
export const EXPOSED_HEADERS = ['X-OpenMetadata-Change', 'Location', 'Content-Length', 'ETag'];

export function cors(options: CorsOptions = {}): Stage {
  const origins = options.origins?.length ? options.origins : ['*'];
  const handler = corsPackage({
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ALLOWED_METHODS,
    allowedHeaders: [...ALLOWED_HEADERS],
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
  // Only a browser's cross-origin request carries `Origin`: other callers (curl, servers, the
  // conformance kit) get responses without CORS headers, and their OPTIONS reach the API.
  return (req, res, next) => (typeof req.headers.origin === 'string' ? handler(req, res, next) : next());
}
