/**
 * A WHATWG `fetch` answered by a dispatcher (src/http/dispatcher.ts) in process: the request's
 * method, path, query, headers and body become a plain request, the plain response a `Response`.
 * What a transport would refuse is answered as the server answers it (a body over the limit is a
 * 413, a URL outside the catalog a 404, in the error shape): nothing is thrown into the caller but
 * what `fetch` itself throws for a request it cannot build (a relative URL outside a page, an
 * unknown method).
 */
import { ApiError } from '../../http/errors.ts';
import type { Dispatcher } from '../../http/dispatcher.ts';
import type { HeaderMap, PlainResponse } from '../../http/exchange.ts';
import { CatalogResponse } from './catalog-response.ts';

export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose answer has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function toResponse(method: string, answer: PlainResponse): Response {
  const body = method === 'HEAD' || NO_BODY.has(answer.status) ? null : 'json' in answer ? { json: answer.json } : (answer.body ?? null);
  const response = new CatalogResponse(body, { status: answer.status });
  // Set one by one: a record of headers in the init is converted the slow way (bench: in-process GET by id).
  for (const name in answer.headers) response.headers.set(name, answer.headers[name]!);
  return response;
}

/** What the dispatcher needs of a request, read from `fetch`'s arguments. */
interface Parts {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** The body's bytes (undefined when there is none), or how to read them from a `Request`. */
  body: Uint8Array | undefined | (() => Promise<Uint8Array | undefined>);
}

const utf8 = new TextEncoder();

function headersOf(init: HeadersInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init === undefined) return headers;
  // Headers, a list of pairs or a record, as `fetch` takes them; names in lower case.
  const entries = init instanceof Headers ? init.entries() : Array.isArray(init) ? init : Object.entries(init);
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}

/**
 * The request's parts. A URL and a plain init (the common call) are read as they are; anything
 * else (a Request, a body that is a stream, a form or a blob) through `new Request`, as `fetch` reads it.
 */
function partsOf(input: RequestInfo | URL, init: RequestInit | undefined): Parts {
  const plainBody = init?.body === undefined || init.body === null || typeof init.body === 'string';
  if (!(input instanceof Request) && plainBody) {
    const base = (globalThis as { location?: { href: string } }).location?.href;
    const url = new URL(typeof input === 'string' ? input : input.href, base);
    const method = (init?.method ?? 'GET').toUpperCase();
    const text = init?.body as string | null | undefined;
    // At once, not awaited: a string body is there to take (bench: in-process GET by id).
    return { url, method, headers: headersOf(init?.headers), body: typeof text === 'string' ? utf8.encode(text) : undefined };
  }
  const request = new Request(input, init);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  return { url: new URL(request.url), method: request.method, headers, body: async () => (request.body === null ? undefined : new Uint8Array(await request.arrayBuffer())) };
}

/**
 * `apiPath`: the path the API lives at (`/api`); a request's URL must be under it, whatever its
 * origin (the answers' `href`s take the request's own origin). `bodyLimit`: in bytes.
 */
export function dispatchingFetch(dispatch: Dispatcher, apiPath: string, bodyLimit: number): FetchFunction {
  const prefix = apiPath.replace(/\/+$/, '');
  return async (input, init) => {
    const { url, method, headers, body } = partsOf(input, init);
    const where = { method, url: url.pathname + url.search };
    try {
      const path = url.pathname;
      if (path !== prefix && !path.startsWith(`${prefix}/`)) {
        throw new ApiError(404, `HTTP 404 Not Found: ${url.pathname} is not under this catalog's ${prefix}`);
      }
      const bytes = typeof body === 'function' ? await body() : body;
      if (bytes !== undefined && bytes.length > bodyLimit) throw new ApiError(413, 'Request body is larger than the limit');
      // The dispatcher's API lives at /api: the catalog's path is mapped onto it.
      const answer = await dispatch({
        method,
        url: `/api${path.slice(prefix.length)}${url.search}`,
        origin: `${url.origin}${prefix.slice(0, -'/api'.length)}`,
        headers: headers as HeaderMap,
        body: bytes,
      });
      return toResponse(method, answer);
    } catch (error) {
      return toResponse(method, dispatch.fail(error, where));
    }
  };
}
