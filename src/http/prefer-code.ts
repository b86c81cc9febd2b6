/**
 * `Prefer: code=<status>` (docs/behaviour.md "Admin API", as Prism's header): forces one call to fail with a
 * status its operation documents, in the error shape, without touching the state — for testing a
 * UI's error states. Runs after request matching (it needs the operation's documented responses)
 * and before authorisation, so a forced 403 works with any token. Only error statuses (4xx/5xx)
 * can be forced; asking for a status the operation does not document is a 400 that says which are.
 */
import { ApiError } from './errors.ts';
import type { ApiRequest } from './exchange.ts';

export function preferCode(req: ApiRequest): void {
  const header = req.headers.prefer;
  const match = typeof header === 'string' ? /(?:^|[;,\s])code=(\d{3})(?:$|[;,\s])/.exec(header) : null;
  if (!match) return;
  const status = Number(match[1]);
  const documented = req.operation?.errorStatuses ?? [];
  if (!documented.includes(status)) {
    throw ApiError.badRequest(`Prefer: code=${status} is not a documented error status of ${req.method} ${req.path}; documented: ${documented.join(', ') || 'none'}`);
  }
  throw new ApiError(status, `Forced by the Prefer header: code=${status}`);
}
