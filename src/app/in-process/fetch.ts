/**
 * A WHATWG `fetch` answered by a dispatcher (src/http/dispatcher.ts) in process: the request's
 * method, path, query, headers and body become a plain request, the plain response a `Response`.
 * What a transport would refuse is answered as the server answers it (a body over the limit is a
 * 413, a URL outside the catalog a 404, in the error shape): nothing is thrown into the caller but
 * what `fetch` itself throws for a request it cannot build.
 */
import { ApiError } from '../../http/errors.ts';
import type { Dispatcher } from '../../http/dispatcher.ts';
import type { HeaderMap, PlainResponse } from '../../http/exchange.ts';

export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose answer has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function toResponse(method: string, answer: PlainResponse): Response {
  const body = method === 'HEAD' || NO_BODY.has(answer.status) ? null : (answer.body ?? null);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/**
 * `apiPath`: the path the API lives at (`/api`); a request's URL must be under it, whatever its
 * origin (the answers' `href`s take the request's own origin). `bodyLimit`: in bytes.
 */
export function dispatchingFetch(dispatch: Dispatcher, apiPath: string, bodyLimit: number): FetchFunction {
  const prefix = apiPath.replace(/\/+$/, '');
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const where = { method: request.method, url: url.pathname + url.search };
    try {
      const path = url.pathname;
      if (path !== prefix && !path.startsWith(`${prefix}/`)) {
        throw new ApiError(404, `HTTP 404 Not Found: ${url.pathname} is not under this catalog's ${prefix}`);
      }
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const bytes = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
      if (bytes !== undefined && bytes.length > bodyLimit) throw new ApiError(413, 'Request body is larger than the limit');
      // The dispatcher's API lives at /api: the catalog's path is mapped onto it.
      const answer = await dispatch({
        method: request.method,
        url: `/api${path.slice(prefix.length)}${url.search}`,
        origin: `${url.origin}${prefix.slice(0, -'/api'.length)}`,
        headers: headers as HeaderMap,
        body: bytes,
      });
      return toResponse(request.method, answer);
    } catch (error) {
      return toResponse(request.method, dispatch.fail(error, where));
    }
  };
}
