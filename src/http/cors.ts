/**
 * CORS (issue 6 "CORS"): a UI served from another localhost port calls the mock with an
 * `Authorization` header, so the browser sends a preflight first. Answered here, before
 * authentication, so a preflight never needs a token. No credentials mode is needed for bearer
 * tokens, but the allowed origin is echoed (not `*`) so that cookies-based setups work too.
 */
import type { RequestHandler } from 'express';

export interface CorsOptions {
  /** Allowed origins; `*` (the default) allows any origin. */
  origins?: readonly string[];
}

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const DEFAULT_HEADERS = 'Authorization, Content-Type, Prefer, X-Requested-With';
/** Response headers a UI may read: OpenMetadata's change header and the created entity's location. */
const EXPOSED_HEADERS = 'X-OpenMetadata-Change, Location, Content-Length';

export function cors(options: CorsOptions = {}): RequestHandler {
  const origins = options.origins?.length ? options.origins : ['*'];
  const anyOrigin = origins.includes('*');
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return next();
    res.vary('Origin');
    if (!anyOrigin && !origins.includes(origin)) {
      // Not allowed: answer without CORS headers, so the browser blocks the response.
      return req.method === 'OPTIONS' ? void res.status(204).end() : next();
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    const preflightMethod = req.headers['access-control-request-method'];
    if (req.method !== 'OPTIONS' || typeof preflightMethod !== 'string') return next();
    const requested = req.headers['access-control-request-headers'];
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', typeof requested === 'string' && requested ? requested : DEFAULT_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.vary('Access-Control-Request-Headers');
    res.status(204).end();
  };
}
