/**
 * The transport-neutral dispatcher: a plain request in (method, URL, headers, body bytes), a plain
 * response out (status, headers, body text). Every transport calls it from one place: the express
 * app (src/app/node-handler.ts) and the in-process catalog. In order:
 *
 *   body (JSON or text, src/http/request-body.ts) → `intercept` (injected latency and errors) →
 *   authentication → the route → request validation → `stages` (`Prefer: code=`, authorisation) →
 *   the handler (a write inside `atomic`, so a refused one changes nothing) → response validation
 *   → with a data file, the write made durable → the answer (ETag, 304)
 *
 * and whatever fails on the way goes to the one error renderer (src/http/render-error.ts).
 * Every answer is built from the store and validated every time.
 */
import fresh from 'fresh';
import { ApiError } from './errors.ts';
import type { ApiRequest, Handler, HeaderMap, PlainRequest, PlainResponse } from './exchange.ts';
import { Reply } from './exchange.ts';
import { namesTag } from './conditional.ts';
import type { BoundOperation } from './operation-validation.ts';
import type { OperationRoutes } from './operation-routes.ts';
import type { ErrorContext, ErrorRenderer } from './render-error.ts';
import { jsonCopy } from './json-copy.ts';
import { parseBody } from './request-body.ts';
import { contentTag } from '../platform/digest.ts';

type Stage = (req: ApiRequest) => void | Promise<void>;

export interface DispatcherOptions {
  routes: OperationRoutes;
  renderError: ErrorRenderer;
  /** Before authentication: the Admin API's injected latency and errors. */
  intercept?: Stage;
  /** Sets `req.identity` or throws a 401; none for the Admin API. */
  authenticate?: Stage;
  /** After request validation, before the handler, in order. */
  stages?: readonly ((req: ApiRequest) => void)[];
  /** Validate JSON answers against the document (default true). */
  validateResponses?: boolean;
  /** Runs a write's handler so that what it changed is undone when it throws (the store's `atomically`). */
  atomic?: <T>(write: () => T) => T;
  /** With a data file: resolves once the changes made so far are on disk, rejects when they cannot be. */
  durable?: () => Promise<void>;
  /**
   * For a transport that hands values on (the in-process fetch): a JSON answer that carries its own
   * ETag, whose text nothing needs, goes out as a copy of its value (`PlainResponse.json`), unwritten.
   */
  jsonValues?: boolean;
}

export interface Dispatcher {
  (request: PlainRequest): Promise<PlainResponse>;
  /** The answer to an error met before the dispatcher was reached (a body the transport could not read). */
  fail(error: unknown, request: ErrorContext): PlainResponse;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Query parameters as a record: a repeated one as a list of its values. */
function parseQuery(search: string): Record<string, unknown> {
  const query = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of new URLSearchParams(search)) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...(seen as string[]), value] : [seen, value];
  }
  return query;
}

function apiRequest(plain: PlainRequest, path: string, queryAt: number): ApiRequest {
  const headers = plain.headers;
  const raw = plain.body;
  // RFC 9110: a request has a body when it has a length, or a transfer coding (a chunked body may be empty).
  const hasBody = raw !== undefined && (raw.length > 0 || headers['transfer-encoding'] !== undefined);
  return {
    method: plain.method,
    url: plain.url,
    path,
    query: queryAt === -1 ? (Object.create(null) as Record<string, unknown>) : parseQuery(plain.url.slice(queryAt + 1)),
    params: {},
    headers,
    body: hasBody ? parseBody(raw, headers['content-type']) : undefined,
    hasBody,
    baseUrl: `${plain.origin}/api`,
  };
}

/**
 * Whether a GET's answer is fresh for the client, so a 304 goes instead. An entity's own tag is
 * evaluated as an origin server evaluates it (RFC 9110 §13.1.2), as OpenMetadata does, whatever
 * `Cache-Control: no-cache` says (fetch adds it to every request with If-None-Match); a tag of the
 * content as a cache would (the `fresh` package, as express evaluates it).
 */
function isFresh(request: HeaderMap, tag: string, own: boolean): boolean {
  const ifNoneMatch = request['if-none-match'];
  if (own) return ifNoneMatch !== undefined && namesTag(ifNoneMatch, tag);
  if (ifNoneMatch === undefined && request['if-modified-since'] === undefined) return false;
  return fresh(request as Record<string, string | undefined>, { etag: tag });
}

/**
 * The reply as it goes out: JSON serialised (or, with `jsonValues`, copied when it carries its own
 * tag), every body tagged (the entity's tag, else a digest of the body, as express tags it), 304 when fresh.
 */
function toResponse(plain: PlainRequest, reply: Reply, jsonValues: boolean): PlainResponse {
  const headers = { ...reply.headers };
  const status = reply.statusCode;
  const own = headers.etag !== undefined;
  // Not written here to be read back by the client (bench: in-process GET by id).
  const value = jsonValues && own && reply.kind === 'json' && typeof reply.body === 'object' && reply.body !== null ? reply.body : undefined;
  let body: string | undefined;
  if (reply.kind === 'json') {
    if (value === undefined) body = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  } else if (reply.kind === 'text') {
    body = reply.body as string;
  }
  if ((body === undefined && value === undefined) || status === 204 || status === 304) {
    delete headers['content-type'];
    return { status, headers };
  }
  const tag = (headers.etag ??= contentTag(body!));
  const read = plain.method === 'GET' || plain.method === 'HEAD';
  if (read && status >= 200 && status < 300 && isFresh(plain.headers, tag, own)) {
    delete headers['content-type'];
    return { status: 304, headers };
  }
  return value === undefined ? { status, headers, body } : { status, headers, json: jsonCopy(value) };
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { routes, renderError, intercept, authenticate, atomic, durable } = options;
  const jsonValues = options.jsonValues ?? false;
  const stages = options.stages ?? [];
  const validateResponses = options.validateResponses ?? true;

  const run = async (handler: Handler, req: ApiRequest, operation: BoundOperation): Promise<Reply> => {
    const reply = new Reply();
    // Inside `atomic` for a write: an answer the document does not allow undoes the write.
    const check = (): void => {
      if (reply.kind === 'none') throw new Error(`the handler of ${operation.entry.method} ${operation.entry.path} gave no answer`);
      if (validateResponses && reply.kind === 'json') operation.validateResponse(reply.statusCode, reply.body);
    };
    const invoke = (): Promise<void> | undefined => {
      const pending = handler(req, reply);
      if (pending) return pending;
      check();
      return undefined;
    };
    const pending = atomic && WRITES.has(req.method) ? atomic(invoke) : invoke();
    if (pending) {
      await pending;
      check();
    }
    return reply;
  };

  const dispatch = async (plain: PlainRequest): Promise<PlainResponse> => {
    const queryAt = plain.url.indexOf('?');
    const path = queryAt === -1 ? plain.url : plain.url.slice(0, queryAt);
    let operation: BoundOperation | undefined;
    let reply: Reply;
    try {
      const req = apiRequest(plain, path, queryAt);
      // Awaited only when they answer later: a verified token's identity is known at once.
      const intercepted = intercept?.(req);
      if (intercepted) await intercepted;
      const authenticated = authenticate?.(req);
      if (authenticated) await authenticated;
      const found = routes.find(req.method, path);
      if (!found) throw routes.unmatched(req.method, path);
      req.params = found.params;
      operation = req.operation = found.route.operation();
      operation.validateRequest(req);
      for (const stage of stages) stage(req);
      reply = await run(found.route.handler, req, operation);
    } catch (error) {
      reply = renderError(error, plain, operation);
    }
    if (durable && WRITES.has(plain.method) && reply.statusCode < 400) {
      try {
        await durable();
      } catch (error) {
        // The change is in memory but not on disk: the client must not be told it succeeded.
        reply = renderError(new ApiError(500, `The change could not be saved to the data file: ${error instanceof Error ? error.message : String(error)}`), plain);
      }
    }
    return toResponse(plain, reply, jsonValues);
  };

  return Object.assign(dispatch, {
    fail: (error: unknown, request: ErrorContext) => toResponse({ method: request.method, url: request.url, origin: '', headers: {} }, renderError(error, request), false),
  });
}
