/**
 * Routes bound to the document's operations. A handler is mounted with the path and method of a
 * documented operation (`routes.get('/api/v1/containers/:id', …)`); at mount time that names its
 * operation once, so a request reaches its validators through the route it matched: no search over
 * the document's paths. A route the document does not declare is not mounted, so the server cannot
 * serve what the document does not say.
 *
 * Matching follows the rules clients know from express: case-insensitive, a trailing slash allowed,
 * parameters URI-decoded, the first mounted route that matches wins. Routes are indexed by their
 * leading static segments, so a request tries only the routes that share its prefix.
 */
import { match } from 'path-to-regexp';
import type { MatchFunction } from 'path-to-regexp';
import type { CompiledValidators, OperationEntry } from '../openapi/compiled.ts';
import type { BoundOperation } from './operation-validation.ts';
import { bindOperation } from './operation-validation.ts';
import { ApiError } from './errors.ts';
import type { Handler } from './exchange.ts';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
const METHODS: readonly Method[] = ['get', 'put', 'post', 'patch', 'delete'];

export interface Route {
  /** Mount order: among the candidates of a request, the first mounted that matches wins. */
  readonly order: number;
  readonly method: string;
  /** The slashes of the paths it matches (a trailing one aside); -1 when that varies (a wildcard, an optional part). */
  readonly slashes: number;
  readonly matches: MatchFunction<Record<string, string>>;
  readonly handler: Handler;
  /** The operation's validators, bound on first use. */
  operation(): BoundOperation;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export type OperationRoutes = Record<Method, (path: string, handler: Handler) => void> & {
  /** The route serving `method path` (HEAD as GET), if any. Throws a 400 for a malformed escape in a parameter. */
  find(method: string, path: string): RouteMatch | undefined;
  /** The error for a request no route serves: 405 naming the methods when the path is documented for others, else 404. */
  unmatched(method: string, path: string): ApiError;
  /** Documented operations no route serves (yet). */
  unrouted(): OperationEntry[];
};

export interface OperationRoutesOptions {
  /** What precedes the document's paths in a route: `/api` for the API, `` for the Admin API. */
  prefix: string;
  operations: readonly OperationEntry[];
  compiled: CompiledValidators;
}

/** `/v1/containers/{id}` and `/v1/containers/{fqn}` have the same shape: `/v1/containers/{}`. */
const shapeOf = (template: string): string => template.replace(/\{[^}]+\}/g, '{}');

/** A malformed escape in a path parameter is the client's error (400). */
function decodeParam(value: string): string {
  // Without a `%` there is nothing to decode (bench: in-process GET by id).
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw ApiError.badRequest(`Failed to decode path parameter '${value}'`);
  }
}

/** The slashes in a path, one trailing slash aside. */
function slashesOf(path: string): number {
  let count = 0;
  for (let i = path.length - (path.endsWith('/') ? 2 : 1); i >= 0; i--) if (path.charCodeAt(i) === 47) count++;
  return count;
}

/** `/api/v1/containers/:id` → `/api/v1/containers` (lower-cased: paths match case-insensitively). */
function staticPrefix(path: string): string {
  const segments = path.split('/');
  const end = segments.findIndex((segment) => segment.includes(':') || segment.includes('*') || segment.includes('{'));
  return (end === -1 ? segments : segments.slice(0, end)).join('/').toLowerCase();
}

export function operationRoutes(options: OperationRoutesOptions): OperationRoutes {
  const byShape = new Map<string, OperationEntry>();
  for (const entry of options.operations) byShape.set(`${entry.method} ${shapeOf(entry.path)}`, entry);
  const routed = new Set<OperationEntry>();
  const byPrefix = new Map<string, Route[]>();
  /** `byPrefix` merged (mergedPrefixes), made again after a mount. */
  let merged: Map<string, Route[]> | undefined;
  let mounted = 0;

  const mount = (method: Method, path: string, handler: Handler): void => {
    if (!path.startsWith(options.prefix)) throw new Error(`route ${path} is outside ${options.prefix}`);
    const template = path.slice(options.prefix.length).replace(/:(\w+)/g, '{$1}');
    const entry = byShape.get(`${method.toUpperCase()} ${shapeOf(template)}`);
    // The generic routes are offered to every kind; the document decides which of them a kind has.
    if (!entry) return;
    // Of the same shape, the two differ only in the names of their parameters.
    if (template !== entry.path) {
      throw new Error(`route ${method.toUpperCase()} ${path} names its path parameters differently from ${entry.path}`);
    }
    if (routed.has(entry)) throw new Error(`operation ${entry.operationId} is mounted twice`);
    routed.add(entry);
    // Bound by the first request that reaches it, so start-up binds nothing; every operation is
    // bound in src/http/operation-routes.test.ts, so a missing validator fails there.
    let bound: BoundOperation | undefined;
    // Compiled on first use, as the validators are: a server mounts hundreds of routes and a start
    // needs none of them (bench: cold start).
    let matcher: MatchFunction<Record<string, string>> | undefined;
    const route: Route = {
      order: mounted++,
      method: method.toUpperCase(),
      // A parameter matches within one segment (path-to-regexp), so only a wildcard or an optional part varies the count.
      slashes: /[*{]/.test(path) ? -1 : slashesOf(path.replace(/\/+$/, '')),
      matches: (requestPath) => (matcher ??= match(path.replace(/\/+$/, ''), { sensitive: false, end: true, trailing: true, decode: decodeParam }))(requestPath),
      handler,
      operation: () => (bound ??= bindOperation(entry, options.compiled)),
    };
    const key = staticPrefix(path);
    let list = byPrefix.get(key);
    if (!list) byPrefix.set(key, (list = []));
    list.push(route);
    merged = undefined;
  };

  /**
   * Per static prefix, its routes and those of every prefix it starts with, in mount order: a
   * request's candidates are those of the longest prefix it starts with, merged once, not per
   * request (bench: in-process GET by id).
   */
  const mergedPrefixes = (): Map<string, Route[]> => {
    const all = new Map<string, Route[]>();
    for (const key of byPrefix.keys()) {
      const found: Route[] = [];
      for (let end = key.length; end > 0; end = key.lastIndexOf('/', end - 1)) found.push(...(byPrefix.get(key.slice(0, end)) ?? []));
      all.set(
        key,
        found.sort((a, b) => a.order - b.order),
      );
    }
    return all;
  };

  /** The routes whose static prefix the path starts with, in mount order. */
  const candidatesOf = (path: string): readonly Route[] => {
    merged ??= mergedPrefixes();
    const lower = path.toLowerCase();
    for (let end = lower.length; end > 0; end = lower.lastIndexOf('/', end - 1)) {
      const found = merged.get(lower.slice(0, end));
      if (found) return found;
    }
    return [];
  };

  const find = (requestMethod: string, path: string): RouteMatch | undefined => {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    // Routes of another method or length are not tried (bench: in-process GET by id).
    const slashes = slashesOf(path);
    for (const route of candidatesOf(path)) {
      if (route.method !== method || (route.slashes !== slashes && route.slashes !== -1)) continue;
      const found = route.matches(path);
      if (found) return { route, params: found.params };
    }
    return undefined;
  };

  let documented: { pattern: RegExp; methods: Set<string> }[] | undefined;
  const documentedPaths = () => {
    if (documented) return documented;
    const byTemplate = new Map<string, Set<string>>();
    for (const entry of options.operations) byTemplate.set(entry.path, (byTemplate.get(entry.path) ?? new Set()).add(entry.method));
    return (documented = [...byTemplate].map(([template, methods]) => {
      const source = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return { pattern: new RegExp(`^${source}/?$`, 'i'), methods };
    }));
  };

  const unmatched = (method: string, path: string): ApiError => {
    if (path.toLowerCase().startsWith(`${options.prefix.toLowerCase()}/`)) {
      const local = path.slice(options.prefix.length);
      const allowed = documentedPaths()
        .filter((p) => p.pattern.test(local))
        .flatMap((p) => [...p.methods]);
      if (allowed.length && !allowed.includes(method === 'HEAD' ? 'GET' : method)) {
        return new ApiError(405, `HTTP 405 Method Not Allowed: ${method} ${path}; allowed: ${[...new Set(allowed)].join(', ')}`);
      }
    }
    return new ApiError(404, `HTTP 404 Not Found: no handler for ${method} ${path}`);
  };

  const methods = Object.fromEntries(METHODS.map((m) => [m, (path: string, handler: Handler) => mount(m, path, handler)])) as Record<
    Method,
    (path: string, handler: Handler) => void
  >;
  return { ...methods, find, unmatched, unrouted: () => options.operations.filter((entry) => !routed.has(entry)) };
}
