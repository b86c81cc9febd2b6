/**
 * Request AND response validation against the document with express-openapi-validator (DESIGN.md
 * pipeline), made cheap enough for the hot path:
 *
 * - The validator looks a request's operation up by trying every path of its document in turn,
 *   and compiles each operation's validators on first use by walking its whole document. So the
 *   document is split by collection (`/v1/containers…`, `/v1/services/storageServices…`): each
 *   part keeps only its own paths and the components they reach, and a request goes, by one map
 *   lookup on its collection, to the validator of its part.
 * - Documentation-only keys (descriptions, examples, links) are blanked in the copy it gets.
 * - One set of validators per profile is shared by every app of the process (tests create many).
 * - Two shims (validator-shims.ts) cache its per-request path regexps and skip the meta-schema
 *   it compiles for every part even when the document is not validated.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Profile } from '../config/profiles.ts';
import type { JsonSchema, OpenApiDocument } from '../openapi/document.ts';
import { applyValidatorShims } from './validator-shims.ts';

type Json = Record<string, unknown>;

/** The document without what only people read; required `description`s become empty strings. */
export function stripDocumentation(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => stripDocumentation(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inProperties && (key === 'example' || key === 'examples' || key === 'links' || key === 'externalDocs')) continue;
    if (!inProperties && (key === 'description' || key === 'summary') && typeof value === 'string') {
      out[key] = '';
      continue;
    }
    out[key] = stripDocumentation(value, key === 'properties' && !inProperties);
  }
  return out;
}

/** `/v1/services/storageServices/{id}` → `services/storageServices`; `/v1/tables/...` → `tables`. Runs on every request. */
export function collectionOf(path: string, collections: ReadonlySet<string>): string {
  const start = path.startsWith('/api/v1/') ? 8 : path.startsWith('/v1/') ? 4 : 0;
  const first = path.indexOf('/', start);
  if (first === -1) return path.slice(start);
  const second = path.indexOf('/', first + 1);
  const two = second === -1 ? path.slice(start) : path.slice(start, second);
  return collections.has(two) ? two : path.slice(start, first);
}

/** Every `#/components/...` reference reachable from `roots`, followed transitively. */
function reachableComponents(doc: OpenApiDocument, roots: unknown[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === 'object') {
      const ref = (node as Json).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/') && !seen.has(ref)) {
        seen.add(ref);
        const [, , section, name] = ref.split('/');
        stack.push((doc.components[section!] as Record<string, unknown> | undefined)?.[name!]);
      }
      stack.push(...Object.values(node));
    }
  }
  return seen;
}

/** The part of the document serving one collection: its paths and what they reference. */
export function documentPart(doc: OpenApiDocument, paths: string[]): OpenApiDocument {
  const partPaths = Object.fromEntries(paths.map((p) => [p, doc.paths[p]!]));
  const components: Record<string, Record<string, unknown>> = {};
  for (const ref of reachableComponents(doc, Object.values(partPaths))) {
    const [, , section, name] = ref.split('/') as [string, string, string, string];
    (components[section] ??= {})[name] = (doc.components[section] as Record<string, unknown>)[name];
  }
  if (doc.components.securitySchemes) components.securitySchemes = doc.components.securitySchemes as Record<string, unknown>;
  return { ...doc, paths: partPaths, components: components as OpenApiDocument['components'] };
}

function compose(handlers: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null && error !== 'route') return done(error);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        handler(req, res, next);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}

const shared = new Map<string, RequestHandler>();

export function openApiValidation(document: OpenApiDocument, profile: Profile, validateResponses: boolean, collections: ReadonlySet<string>): RequestHandler {
  const key = `${profile.name}:${validateResponses}`;
  const existing = shared.get(key);
  if (existing) return existing;
  applyValidatorShims();
  const stripped = stripDocumentation(document) as OpenApiDocument;
  const groups = new Map<string, string[]>();
  for (const path of Object.keys(stripped.paths)) {
    const collection = collectionOf(path, collections);
    groups.set(collection, [...(groups.get(collection) ?? []), path]);
  }
  // Each part's validator is built on the first request to its collection: building one compiles
  // the OpenAPI meta-schema and preprocesses the part (~0.1 s), which start-up should not pay 30 times.
  const make = (paths: string[]): RequestHandler =>
    compose(
      OpenApiValidator.middleware({
        apiSpec: documentPart(stripped, paths) as never,
        validateRequests: { allowUnknownQueryParameters: true, coerceTypes: true },
        validateResponses,
        validateSecurity: false,
        // The document is validated by its own tests (openapi/document.test.ts).
        validateApiSpec: false,
        ignorePaths: /^(?!\/api\/)/,
        validateFormats: true,
      }) as RequestHandler[],
    );
  const validators = new Map<string, RequestHandler>();
  const validatorFor = (collection: string): RequestHandler => {
    // Paths of no collection share one (pathless) validator, so hostile URLs cannot grow the map.
    const known = groups.has(collection) ? collection : '';
    let validator = validators.get(known);
    if (!validator) validators.set(known, (validator = make(groups.get(known) ?? [])));
    return validator;
  };
  const middleware: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith('/api/')) return next();
    validatorFor(collectionOf(req.path, collections))(req, res, next);
  };
  shared.set(key, middleware);
  return middleware;
}

export type { JsonSchema };
