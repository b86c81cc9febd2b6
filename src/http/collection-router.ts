/**
 * Dispatch by collection in front of the API routes (issue 7 "make the hot path fast"). Express
 * walks a router's layers one by one, testing each route's regexp: with every kind's routes on one
 * router (~450 layers), a request to a kind mounted late paid hundreds of failed matches. The
 * routes are regrouped here, after they were mounted, into one router per collection
 * (`containers`, `services/storageServices`…), each keeping the original relative order, and a
 * request reaches its collection's router by one map lookup.
 *
 * Routes of different collections can never match the same path (their static prefixes differ), so
 * the grouping answers exactly as the single router did. Keys are lower-cased because express
 * matches paths case-insensitively by default. A layer that is not a route with a string path under
 * `/api/v1/` (a `router.use`, a path list) goes into every group, at its place.
 */
import express from 'express';
import type { RequestHandler, Router } from 'express';

/** `/v1/services/storageServices/{id}` → `services/storageServices`; `/v1/tables/...` → `tables`. Runs on every request. */
export function collectionOf(path: string, collections: ReadonlySet<string>): string {
  const start = path.startsWith('/api/v1/') ? 8 : path.startsWith('/v1/') ? 4 : 0;
  const first = path.indexOf('/', start);
  if (first === -1) return path.slice(start);
  const second = path.indexOf('/', first + 1);
  const two = second === -1 ? path.slice(start) : path.slice(start, second);
  return collections.has(two) ? two : path.slice(start, first);
}

interface RouteLayer {
  route?: { path?: unknown };
}

const UNCLASSIFIED = Symbol('unclassified');

/** The group key of a route path or request path (`/api/v1/...`): its collection, lower-cased. */
export function collectionKey(path: string, lowerCaseCollections: ReadonlySet<string>): string | undefined {
  const lower = path.toLowerCase();
  return lower.startsWith('/api/v1/') ? collectionOf(lower, lowerCaseCollections) : undefined;
}

export function dispatchByCollection(router: Router, collections: ReadonlySet<string>): RequestHandler {
  const lowered = new Set([...collections].map((c) => c.toLowerCase()));
  const keyOf = (path: string) => collectionKey(path, lowered);
  const layers = router.stack as RouteLayer[];
  const classified = layers.map((layer) => {
    const path = layer.route?.path;
    return (typeof path === 'string' && keyOf(path)) || UNCLASSIFIED;
  });
  const keys = new Set(classified.filter((k): k is string => k !== UNCLASSIFIED));
  const routerFor = (key: string | typeof UNCLASSIFIED): Router => {
    const group = express.Router();
    (group.stack as RouteLayer[]).push(...layers.filter((_, i) => classified[i] === key || classified[i] === UNCLASSIFIED));
    return group;
  };
  const groups = new Map<string, Router>([...keys].map((key) => [key, routerFor(key)]));
  const others = routerFor(UNCLASSIFIED);
  return (req, res, next) => {
    const key = keyOf(req.path);
    ((key !== undefined && groups.get(key)) || others)(req, res, next);
  };
}
