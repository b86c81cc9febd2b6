/**
 * Routes bound to the document's operations. A handler is mounted with the path and method of a
 * documented operation (`routes.get('/api/v1/containers/:id', …)`); at mount time that names its
 * operation once, so a request reaches its validators through the route express matched: no
 * search over paths, no per-request compile, no promise hop. A route the document does not declare
 * is not mounted, so the server cannot serve what the document does not say.
 *
 * Each route runs: request validation → the stages given (`Prefer: code=`, authorisation) → the
 * handler; its JSON response is validated against the document before it is sent.
 */
import type { Express, NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { CompiledValidators, OperationEntry } from '../openapi/compiled.ts';
import type { BoundOperation } from './operation-validation.ts';
import { bindOperation } from './operation-validation.ts';
import { compose } from './compose.ts';
import { ApiError } from './errors.ts';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
const METHODS: readonly Method[] = ['get', 'put', 'post', 'patch', 'delete'];

export type OperationRoutes = Record<Method, (path: string, handler: RequestHandler) => void> & {
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

export function operationRoutes(router: Router, options: OperationRoutesOptions): OperationRoutes {
  const byShape = new Map<string, OperationEntry>();
  for (const entry of options.operations) byShape.set(`${entry.method} ${shapeOf(entry.path)}`, entry);
  const routed = new Set<OperationEntry>();
  const validateResponses = options.validateResponses ?? true;
  const stages = options.stages ?? [];

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
    const bound = bindOperation(entry, options.compiled);
    const validate = (req: Request, res: Response, next: NextFunction): void => {
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
    router[method](path, compose([validate, ...stages]), handler);
  };

  const routes = Object.fromEntries(METHODS.map((m) => [m, (path: string, handler: RequestHandler) => mount(m, path, handler)])) as OperationRoutes;
  routes.unrouted = () => options.operations.filter((entry) => !routed.has(entry));
  return routes;
}

/**
 * Validates every JSON response of a documented route before it is sent. Installed once on the
 * app's response prototype (no per-request closure); a response that fails throws, and the
 * error renderer answers 500 with the reason instead.
 */
export function validateJsonResponses(app: Express): void {
  const send = app.response.json;
  app.response.json = function json(this: Tagged, body: unknown) {
    const bound = this[CHECK_RESPONSE];
    if (bound) {
      // Checked once: the error renderer's own answer (a 500 for this failure) is not checked again.
      this[CHECK_RESPONSE] = undefined;
      bound.validateResponse(this.statusCode, body);
    }
    return send.call(this, body);
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
      const source = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
      return { pattern: new RegExp(`^${source}/?$`, 'i'), methods };
    }));
  };
  return (req, _res, next) => {
    const path = req.path;
    if (path.toLowerCase().startsWith(`${prefix.toLowerCase()}/`)) {
      const local = path.slice(prefix.length);
      const allowed = documented().filter((p) => p.pattern.test(local)).flatMap((p) => [...p.methods]);
      if (allowed.length && !allowed.includes(req.method === 'HEAD' ? 'GET' : req.method)) {
        return next(new ApiError(405, `HTTP 405 Method Not Allowed: ${req.method} ${path}; allowed: ${[...new Set(allowed)].join(', ')}`));
      }
    }
    next(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${path}`));
  };
}
