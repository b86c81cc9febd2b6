/**
 * Routes bound to the document's operations. A handler is mounted with the path and method of a
 * documented operation (`routes.get('/api/v1/containers/:id', …)`); at mount time that names its
 * operation once, so a request reaches its validators through the route it matched: no search over
 * the document's paths, no per-request compile, no promise hop. A route the document does not
 * declare is not mounted, so the server cannot serve what the document does not say.
 *
 * The routes are matched here rather than by an express Router: express walks every layer of a
 * router with a regexp and a parameter-processing step per layer, which cost more than the
 * validation itself. Routes are indexed by their leading static segments (`/api/v1/containers`,
 * `/api/v1/containers/name`), so a request tries only the routes that share its prefix, in the
 * order they were mounted, with express's matching rules (case-insensitive, trailing slash
 * allowed, parameters URI-decoded).
 *
 * Each route runs: request validation → the stages given (`Prefer: code=`, authorisation) → the
 * handler; its JSON response is validated against the document before it is sent.
 */
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { match } from 'path-to-regexp';
import type { MatchFunction } from 'path-to-regexp';
import type { CompiledValidators, OperationEntry } from '../openapi/compiled.ts';
import type { BoundOperation } from './operation-validation.ts';
import { bindOperation } from './operation-validation.ts';
import { compose, isUnder } from './compose.ts';
import { ApiError } from './errors.ts';
import { sendJson } from './send-json.ts';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
const METHODS: readonly Method[] = ['get', 'put', 'post', 'patch', 'delete'];

export type OperationRoutes = Record<Method, (path: string, handler: RequestHandler) => void> & {
  /** Serves the mounted routes; passes on (`next()`) what none of them matches. */
  readonly dispatch: RequestHandler;
  /** Documented operations no route serves (yet). */
  unrouted(): OperationEntry[];
};

export interface OperationRoutesOptions {
  /** What precedes the document's paths in a route: `/api` for the API, `` for the Admin API. */
  prefix: string;
  operations: readonly OperationEntry[];
  compiled: CompiledValidators;
  /** Validate JSON responses against the document (default true). */
  validateResponses?: boolean;
  /** Run after request validation and before the handler, with the operation known. */
  stages?: readonly RequestHandler[];
  /**
   * Runs the handler of a write (POST, PUT, PATCH, DELETE) so that whatever it changed is undone
   * when it throws — a refused request, or an answer that fails response validation (the API's:
   * the store's `atomically`, src/store/entity-store.ts).
   */
  atomic?: <T>(write: () => T) => T;
}

const OPERATION = Symbol('catalog-kit.operation');
const CHECK_RESPONSE = Symbol('catalog-kit.check-response');
type Tagged = Response & { [OPERATION]?: BoundOperation; [CHECK_RESPONSE]?: BoundOperation };

/** The operation of the route that is answering this request, if it is a documented one. */
export function operationOf(res: Response): BoundOperation | undefined {
  return (res as Tagged)[OPERATION];
}

/** `/v1/containers/{id}` and `/v1/containers/{fqn}` have the same shape: `/v1/containers/{}`. */
const shapeOf = (template: string): string => template.replace(/\{[^}]+\}/g, '{}');
const paramsOf = (template: string): string[] => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

interface Route {
  /** Mount order: among the candidates of a request, the first mounted that matches wins. */
  order: number;
  method: string;
  matches: MatchFunction<Record<string, string>>;
  run: RequestHandler;
}

/** express's decoding of a path parameter: a malformed escape is the client's error (400). */
function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw ApiError.badRequest(`Failed to decode path parameter '${value}'`);
  }
}

/** `/api/v1/containers/:id` → `/api/v1/containers` (lower-cased: express matches case-insensitively). */
function staticPrefix(path: string): string {
  const segments = path.split('/');
  const end = segments.findIndex((segment) => segment.includes(':') || segment.includes('*') || segment.includes('{'));
  return (end === -1 ? segments : segments.slice(0, end)).join('/').toLowerCase();
}

export function operationRoutes(options: OperationRoutesOptions): OperationRoutes {
  const byShape = new Map<string, OperationEntry>();
  for (const entry of options.operations) byShape.set(`${entry.method} ${shapeOf(entry.path)}`, entry);
  const routed = new Set<OperationEntry>();
  const validateResponses = options.validateResponses ?? true;
  const stages = options.stages ?? [];
  const byPrefix = new Map<string, Route[]>();
  /** `candidatesOf`'s merged lists, by the longest static prefix; emptied when a route is mounted. */
  const candidatesByPrefix = new Map<string, Route[]>();
  let mounted = 0;

  const mount = (method: Method, path: string, handler: RequestHandler): void => {
    if (!path.startsWith(options.prefix)) throw new Error(`route ${path} is outside ${options.prefix}`);
    const template = path.slice(options.prefix.length).replace(/:(\w+)/g, '{$1}');
    const entry = byShape.get(`${method.toUpperCase()} ${shapeOf(template)}`);
    // The generic routes are offered to every kind; the document decides which of them a kind has.
    if (!entry) return;
    const expected = paramsOf(entry.path);
    if (paramsOf(template).join() !== expected.join()) {
      throw new Error(`route ${method.toUpperCase()} ${path} names its path parameters differently from ${entry.path}`);
    }
    if (routed.has(entry)) throw new Error(`operation ${entry.operationId} is mounted twice`);
    routed.add(entry);
    // Bound by the first request that reaches it: binding all ~430 operations at start-up was a
    // tenth of the cold start (docs/performance.md "Cold start"). Every operation's validators are
    // bound in src/http/validation-differential.test.ts, so a missing one fails there.
    let bound: BoundOperation | undefined;
    const validate = (req: Request, res: Response, next: NextFunction): void => {
      bound ??= bindOperation(entry, options.compiled);
      const tagged = res as Tagged;
      tagged[OPERATION] = bound;
      if (validateResponses) tagged[CHECK_RESPONSE] = bound;
      try {
        bound.validateRequest(req);
      } catch (error) {
        return next(error);
      }
      next();
    };
    const atomic = options.atomic;
    // The response is validated inside the handler (`res.json`, below): a failure throws there, and the write is undone.
    const write: RequestHandler = atomic && method !== 'get' ? (req, res, next) => atomic(() => handler(req, res, next)) : handler;
    const route: Route = {
      order: mounted++,
      method: method.toUpperCase(),
      matches: match<Record<string, string>>(path.replace(/\/+$/, ''), { sensitive: false, end: true, trailing: true, decode: decodeParam }),
      run: compose([validate, ...stages, write]),
    };
    const key = staticPrefix(path);
    let list = byPrefix.get(key);
    if (!list) byPrefix.set(key, (list = []));
    list.push(route);
    candidatesByPrefix.clear();
  };

  /**
   * The routes whose static prefix the request path starts with, in mount order. They depend only
   * on the longest static prefix the path starts with (the shorter ones are its own prefixes), so
   * each such prefix's candidates are merged once (`candidatesByPrefix`), not on every request.
   */
  const candidatesOf = (path: string): Route[] => {
    const lower = path.toLowerCase();
    for (let end = lower.length; end > 0; end = lower.lastIndexOf('/', end - 1)) {
      const longest = lower.slice(0, end);
      if (!byPrefix.has(longest)) continue;
      let candidates = candidatesByPrefix.get(longest);
      if (!candidates) candidatesByPrefix.set(longest, (candidates = mergedCandidates(longest)));
      return candidates;
    }
    return [];
  };
  const mergedCandidates = (longest: string): Route[] => {
    const found: Route[] = [];
    for (let end = longest.length; end > 0; end = longest.lastIndexOf('/', end - 1)) found.push(...(byPrefix.get(longest.slice(0, end)) ?? []));
    return found.sort((a, b) => a.order - b.order);
  };

  const dispatch: RequestHandler = (req, res, next) => {
    const path = req.path;
    if (options.prefix && !isUnder(path, options.prefix)) return next();
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    let found: ReturnType<MatchFunction<Record<string, string>>>;
    for (const route of candidatesOf(path)) {
      if (route.method !== method) continue;
      try {
        found = route.matches(path);
      } catch (error) {
        return next(error);
      }
      if (!found) continue;
      req.params = found.params;
      return route.run(req, res, next);
    }
    next();
  };

  const methods = Object.fromEntries(METHODS.map((m) => [m, (path: string, handler: RequestHandler) => mount(m, path, handler)])) as Record<
    Method,
    (path: string, handler: RequestHandler) => void
  >;
  return { ...methods, dispatch, unrouted: () => options.operations.filter((entry) => !routed.has(entry)) };
}

/**
 * Every JSON answer of the app: validated against the document first when it answers a documented
 * route, then sent (src/http/send-json.ts). Installed once on the app's response prototype (no
 * per-request closure); a response that fails validation throws, and the error renderer answers
 * 500 with the reason instead.
 */
export function jsonResponses(app: Express): void {
  const express = app.response.json as (this: Response, body: unknown) => Response;
  app.response.json = function json(this: Tagged, body: unknown) {
    const bound = this[CHECK_RESPONSE];
    if (bound) {
      // Checked once: the error renderer's own answer (a 500 for this failure) is not checked again.
      this[CHECK_RESPONSE] = undefined;
      bound.validateResponse(this.statusCode, body);
    }
    return sendJson(this, body, express);
  } as typeof app.response.json;
}

/**
 * A request under `prefix` that matched no route: 405 when the path is documented for other
 * methods, else 404, in the error shape. Only requests that matched nothing reach it, so the
 * scan over the documented paths is off the hot path.
 */
export function unmatchedRoute(prefix: string, operations: readonly OperationEntry[]): RequestHandler {
  let paths: { pattern: RegExp; methods: Set<string> }[] | undefined;
  const documented = () => {
    if (paths) return paths;
    const byTemplate = new Map<string, Set<string>>();
    for (const entry of operations) byTemplate.set(entry.path, (byTemplate.get(entry.path) ?? new Set()).add(entry.method));
    return (paths = [...byTemplate].map(([template, methods]) => {
      const source = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return { pattern: new RegExp(`^${source}/?$`, 'i'), methods };
    }));
  };
  return (req, _res, next) => {
    const path = req.path;
    if (path.toLowerCase().startsWith(`${prefix.toLowerCase()}/`)) {
      const local = path.slice(prefix.length);
      const allowed = documented()
        .filter((p) => p.pattern.test(local))
        .flatMap((p) => [...p.methods]);
      if (allowed.length && !allowed.includes(req.method === 'HEAD' ? 'GET' : req.method)) {
        return next(new ApiError(405, `HTTP 405 Method Not Allowed: ${req.method} ${path}; allowed: ${[...new Set(allowed)].join(', ')}`));
      }
    }
    next(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${path}`));
  };
}
