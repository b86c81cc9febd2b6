/**
 * The compiled validators (src/http/operation-validation.ts), as the dispatcher runs them, against an independent oracle,
 * express-openapi-validator: generated valid and invalid requests go through both, and generated
 * valid and invalid responses are checked by both. They must agree, except where this file lists
 * a deliberate difference with its reason.
 *
 * Which operations: by default one operation for each distinct set of request validators and one
 * for each distinct (status, response schema) — every compiled function any operation uses is
 * exercised (168 request sets and 169 response schemas for 604 operations: about 20 s on 2 cores,
 * too much for `npm test`, which leaves this file to CI: vitest.config.ts); with DIFFERENTIAL_ALL=1
 * (`npm run test:differential`, run by .ci/run) every operation.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { sample } from 'openapi-sampler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripDocumentation } from '../../scripts/compile-validators.ts';
import { compiledValidators } from '../openapi/compiled.ts';
import type { OperationEntry } from '../openapi/compiled.ts';
import { readDocument } from '../openapi/document.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { ResponseValidationError, bindOperation } from './operation-validation.ts';
import { operationRoutes } from './operation-routes.ts';
import { profileByName } from '../config/profiles.ts';
import { createDispatcher } from './dispatcher.ts';
import { handlerOf } from '../app/node-handler.ts';
import { errorRenderer } from './render-error.ts';

/**
 * Where the two may disagree on purpose. Each case names the difference it exercises; a case that
 * names one must disagree exactly as written here, any other case must agree.
 */
const DELIBERATE = {
  'body-coercion': {
    reason:
      'express-openapi-validator coerces scalars in request bodies ("name": 12345 is stored as "12345"); the document forbids them, so the compiled validators never coerce a body',
    oracle: 'accepts',
    compiled: 'rejects',
  },
} as const;
type Deliberate = keyof typeof DELIBERATE;

type Json = Record<string, unknown>;
const document = stripDocumentation(readDocument()) as OpenApiDocument;
const compiled = compiledValidators();
const ALL = process.env.DIFFERENTIAL_ALL === '1';
const allOperations = compiled.tables.api.operations;
/** One operation per distinct key, in document order. */
const onePer = (key: (entry: OperationEntry) => string): OperationEntry[] => [...new Map(allOperations.map((e) => [key(e), e])).values()];
const requestOperations = ALL ? allOperations : onePer((e) => JSON.stringify([e.params ?? null, e.body ?? null]));
const operations = allOperations;

const ok: RequestHandler = (_req, res) => void res.status(200).json({});
const statusOnly: ErrorRequestHandler = (error, _req, res, _next) => {
  const status = (error as { status?: number }).status ?? 500;
  res.status(status).json({ message: (error as Error).message });
};
const parsers = (limit = '1mb') => [
  express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] }),
  express.text({ limit, type: ['text/plain', 'application/yaml'] }),
];

/** Every `#/components/...` reference reachable from `roots`, followed transitively. */
function reachableComponents(roots: unknown[]): Set<string> {
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
        stack.push((document.components[section!] as Json | undefined)?.[name!]);
      }
      stack.push(...Object.values(node));
    }
  }
  return seen;
}

/**
 * The part of the document with one path and what it references. The oracle walks its whole
 * document to compile an operation, so one small document per path keeps it fast.
 */
function documentPart(path: string): OpenApiDocument {
  const paths = { [path]: document.paths[path]! };
  const components: Record<string, Json> = { securitySchemes: (document.components.securitySchemes ?? {}) as Json };
  for (const ref of reachableComponents(Object.values(paths))) {
    const [, , section, name] = ref.split('/') as [string, string, string, string];
    (components[section] ??= {})[name] = (document.components[section] as Json)[name];
  }
  return { ...document, paths, components: components as OpenApiDocument['components'], servers: [{ url: '/api' }] };
}

/** The oracle: express-openapi-validator as the server used it before the compiled validators. */
function oracleApp(responses: boolean, respond: RequestHandler): express.Express {
  const app = express();
  app.use(...parsers());
  const validators = new Map<string, RequestHandler[]>();
  const validatorOf = (path: string): RequestHandler[] => {
    let handlers = validators.get(path);
    if (!handlers) {
      handlers = OpenApiValidator.middleware({
        apiSpec: documentPart(path) as never,
        validateRequests: responses ? false : { allowUnknownQueryParameters: true, coerceTypes: true },
        validateResponses: responses,
        validateSecurity: false,
        validateApiSpec: false,
        validateFormats: true,
        ignorePaths: /^(?!\/api\/)/,
      }) as RequestHandler[];
      validators.set(path, handlers);
    }
    return handlers;
  };
  // The test names the document path of each request in a header: the oracle's own path matching
  // is what makes it slow, and which operation a URL is was never in question here.
  app.use((req, res, next) => {
    const handlers = validatorOf(String(req.headers['x-path']));
    let i = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const handler = handlers[i++];
      if (!handler) return next();
      handler(req, res, step);
    };
    step();
  });
  app.use(respond);
  app.use(statusOnly);
  return app;
}

/** Static segments before parameters, so express tries `/name/{fqn}` and `/bulk` before `/{id}`. */
function byRouteOrder(a: OperationEntry, b: OperationEntry): number {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const pa = as[i]!.startsWith('{');
    const pb = bs[i]!.startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return bs.length - as.length;
}

/** The compiled validators, run by the dispatcher as the server runs them, in front of a handler that answers 200. */
function compiledApp(): express.Express {
  const app = express();
  const routes = operationRoutes({ prefix: '/api', operations, compiled });
  for (const entry of [...operations].sort(byRouteOrder)) {
    routes[entry.method.toLowerCase() as 'get'](`/api${entry.path.replace(/\{([^}]+)\}/g, ':$1')}`, (_req, reply) => reply.json({}));
  }
  const dispatch = createDispatcher({ routes, renderError: errorRenderer(profileByName('contract'), () => {}), validateResponses: false });
  app.use('/api', handlerOf(dispatch, '1mb'));
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function resolve(node: unknown): Json {
  let current = node as Json;
  while (typeof current?.$ref === 'string') {
    const [, , section, name] = (current.$ref as string).split('/');
    current = (document.components[section!] as Record<string, Json>)[name!]!;
  }
  return current ?? {};
}

/**
 * The sampler's values, mended where they cannot be valid: an empty object in an array is where it
 * stopped a recursive schema (`children`), dropped; a string drawn from a pattern keeps the
 * pattern's escapes (`0\\.1`), removed, or its look-ahead (`((?!::).)*`), replaced by a plain word.
 */
function mend(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('(?') ? 'string' : value.replace(/\\(.)/g, '$1');
  if (Array.isArray(value)) return value.filter((v) => !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)).map(mend);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mend(v)]));
  return value;
}
const sampleOf = (schema: unknown): unknown => mend(sample(schema as never, { skipReadOnly: true, quiet: true, enablePatterns: true }, document));

interface Case {
  /** The document path of the operation (the oracle's `x-path` header). */
  path: string;
  operation: string;
  name: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  deliberate?: Deliberate;
}

/** Path parameter values that satisfy their schemas. */
function parametersOf(entry: OperationEntry): Json[] {
  const item = document.paths[entry.path] as Record<string, Json>;
  const op = item[entry.method.toLowerCase()]!;
  return [...((item.parameters as unknown as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(resolve);
}

function pathFor(entry: OperationEntry, override?: [string, string]): string {
  const params = parametersOf(entry);
  return entry.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (override && override[0] === name) return encodeURIComponent(override[1]);
    const schema = resolve(params.find((p) => p.name === name && p.in === 'path')?.schema ?? { type: 'string' });
    const value = sampleOf(schema);
    return encodeURIComponent(String(typeof value === 'number' ? 1_700_000_000_000 : value));
  });
}

/** The first top-level property of a body schema that has a scalar `type` (after `allOf`). */
function firstTyped(schema: Json, type: string): string | undefined {
  const s = resolve(schema);
  for (const [name, prop] of Object.entries((s.properties as Json) ?? {})) {
    const p = resolve(prop);
    if (p.type === type && !p.enum && !p.const) return name;
  }
  for (const part of (s.allOf as Json[]) ?? []) {
    const found = firstTyped(part, type);
    if (found) return found;
  }
  return undefined;
}

function requestCases(entry: OperationEntry): Case[] {
  const op = (document.paths[entry.path] as Record<string, Json>)[entry.method.toLowerCase()]!;
  const params = parametersOf(entry);
  const requiredQuery = params.filter((p) => p.in === 'query' && p.required);
  const query = (extra: Record<string, string> = {}) => {
    const q = new URLSearchParams();
    for (const p of requiredQuery) q.set(String(p.name), String(sampleOf(resolve(p.schema))));
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    const text = q.toString();
    return text ? `?${text}` : '';
  };
  const base = { path: entry.path, operation: `${entry.method} ${entry.path}`, method: entry.method };
  const url = (suffix = query(), override?: [string, string]) => `/api${pathFor(entry, override)}${suffix}`;
  const cases: Case[] = [];
  const body = entry.body;
  const mediaType = body ? Object.keys(body.content)[0]! : undefined;
  const media = mediaType ? ((resolve(op.requestBody).content as Record<string, Json>)[mediaType] ?? {}) : undefined;
  const schema = media?.schema ? resolve(media.schema) : undefined;
  const valid = schema ? sampleOf(schema) : undefined;
  // Text bodies (CSV, YAML) are sent as they are.
  const textual = mediaType === 'text/plain' || mediaType === 'application/yaml';
  const encode = (value: unknown) => (textual ? String(value) : JSON.stringify(value));
  const withBody = (value: unknown): Pick<Case, 'headers' | 'body'> =>
    mediaType && value !== undefined ? { headers: { 'content-type': mediaType }, body: encode(value) } : { headers: {} };

  cases.push({ ...base, name: 'valid', url: url(), ...withBody(valid) });
  cases.push({ ...base, name: 'unknown query parameter', url: url(query({ notAParameter: 'x' })), ...withBody(valid) });
  for (const p of params) {
    const s = resolve(p.schema);
    if (p.in === 'path' && s.format === 'uuid')
      cases.push({ ...base, name: `path ${String(p.name)} not a UUID`, url: url(query(), [String(p.name), 'not-a-uuid']), ...withBody(valid) });
    if (p.in !== 'query') continue;
    if (s.type === 'integer') {
      cases.push({ ...base, name: `query ${String(p.name)} integer`, url: url(query({ [String(p.name)]: '5' })), ...withBody(valid) });
      cases.push({ ...base, name: `query ${String(p.name)} not an integer`, url: url(query({ [String(p.name)]: '1.5' })), ...withBody(valid) });
    }
    if (s.type === 'boolean') {
      cases.push({ ...base, name: `query ${String(p.name)} boolean`, url: url(query({ [String(p.name)]: 'true' })), ...withBody(valid) });
      cases.push({ ...base, name: `query ${String(p.name)} not a boolean`, url: url(query({ [String(p.name)]: 'maybe' })), ...withBody(valid) });
    }
    if (Array.isArray(s.enum))
      cases.push({ ...base, name: `query ${String(p.name)} outside its enum`, url: url(query({ [String(p.name)]: 'no-such-value' })), ...withBody(valid) });
  }
  if (body && mediaType) {
    if (body.required) cases.push({ ...base, name: 'no body', url: url(), headers: {} });
    cases.push({ ...base, name: 'unsupported content type', url: url(), headers: { 'content-type': 'text/csv' }, body: 'a,b' });
    if (!textual && valid && typeof valid === 'object' && !Array.isArray(valid)) {
      cases.push({ ...base, name: 'unknown body field', url: url(), ...withBody({ ...(valid as Json), zzNotAField: 1 }) });
      const required = ((schema?.required as string[]) ?? []).concat(...((schema?.allOf as Json[]) ?? []).map((part) => (resolve(part).required as string[]) ?? []));
      if (required[0]) {
        const { [required[0]]: _dropped, ...rest } = valid as Json;
        cases.push({ ...base, name: `body without ${required[0]}`, url: url(), ...withBody(rest) });
      }
      const stringField = schema ? firstTyped(schema, 'string') : undefined;
      if (stringField)
        cases.push({ ...base, name: `body ${stringField} a number`, url: url(), ...withBody({ ...(valid as Json), [stringField]: 12345 }), deliberate: 'body-coercion' });
      const booleanField = schema ? firstTyped(schema, 'boolean') : undefined;
      if (booleanField)
        cases.push({ ...base, name: `body ${booleanField} a string`, url: url(), ...withBody({ ...(valid as Json), [booleanField]: 'true' }), deliberate: 'body-coercion' });
    }
    if (!textual && Array.isArray(valid)) cases.push({ ...base, name: 'body an object instead of an array', url: url(), ...withBody({ not: 'an array' }) });
  }
  return cases;
}

async function answerOf(base: string, c: Case): Promise<{ status: number; message: string }> {
  const res = await fetch(`${base}${c.url}`, { method: c.method, headers: { ...c.headers, 'x-path': c.path }, ...(c.body !== undefined ? { body: c.body } : {}) });
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  return { status: res.status, message: body.message ?? '' };
}

const verdict = (status: number): 'accepts' | 'rejects' => (status < 300 ? 'accepts' : 'rejects');

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

describe('compiled validators agree with express-openapi-validator', () => {
  let oracle: { server: Server; base: string };
  let ours: { server: Server; base: string };
  const pending = new Map<string, { status: number; body: unknown }>();
  let responder: { server: Server; base: string };

  beforeAll(async () => {
    oracle = await listen(oracleApp(false, ok));
    ours = await listen(compiledApp());
    // Answers what the test asks (by the x-case header), through the oracle's response validation.
    responder = await listen(
      oracleApp(true, (req, res) => {
        const planned = pending.get(String(req.headers['x-case']));
        res.status(planned?.status ?? 599).json(planned?.body ?? {});
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([oracle, ours, responder].map((s) => new Promise((r) => s?.server.close(r))));
  });

  it('on requests: valid and invalid parameters, bodies and content types', { timeout: 300_000 }, async () => {
    const cases = requestOperations.flatMap(requestCases);
    const results = await inBatches(cases, 16, async (c) => {
      const [o, v] = [await answerOf(oracle.base, c), await answerOf(ours.base, c)];
      return { c, oracle: o.status, ours: v.status, why: `${o.message} / ${v.message}` };
    });
    const disagreements: string[] = [];
    const deliberateSeen = new Set<string>();
    for (const { c, oracle: o, ours: v, why } of results) {
      const expected = c.deliberate ? DELIBERATE[c.deliberate] : undefined;
      if (expected && verdict(o) === expected.oracle && verdict(v) === expected.compiled) {
        deliberateSeen.add(c.deliberate!);
        continue;
      }
      // Same verdict is agreement; when both reject, the status must be the same too.
      if (verdict(o) !== verdict(v) || (verdict(o) === 'rejects' && o !== v)) {
        disagreements.push(`${c.operation} [${c.name}]: oracle ${o}, compiled ${v}${c.deliberate ? ` (listed as ${c.deliberate})` : ''}: ${why}`);
      }
    }
    expect(disagreements, `${disagreements.length} of ${cases.length} cases disagree`).toEqual([]);
    // The cases really exercise both verdicts, on every operation, and the listed difference.
    const accepted = new Set(results.filter((r) => verdict(r.ours) === 'accepts').map((r) => r.c.operation));
    const rejected = new Set(results.filter((r) => verdict(r.ours) === 'rejects').map((r) => r.c.operation));
    const neverAccepted = requestOperations
      .filter((e) => !accepted.has(`${e.method} ${e.path}`))
      .map((e) => `${e.method} ${e.path}: ${results.find((r) => r.c.operation === `${e.method} ${e.path}`)?.why}`);
    expect(neverAccepted).toEqual([]);
    const rejectable = requestOperations.filter((e) => requestCases(e).length > 2);
    expect(rejectable.filter((e) => !rejected.has(`${e.method} ${e.path}`)).map((e) => `${e.method} ${e.path}`)).toEqual([]);
    expect([...deliberateSeen]).toEqual(Object.keys(DELIBERATE));
  });

  it('on responses: documented statuses with a body, valid and invalid', { timeout: 300_000 }, async () => {
    interface ResponseCase {
      entry: OperationEntry;
      status: number;
      name: string;
      body: unknown;
    }
    const cases: ResponseCase[] = [];
    const seen = new Set<string>();
    for (const entry of operations) {
      const op = (document.paths[entry.path] as Record<string, Json>)[entry.method.toLowerCase()]!;
      for (const [status, response] of Object.entries((op.responses as Json) ?? {})) {
        const schema = (resolve(response).content as Record<string, Json> | undefined)?.['application/json']?.schema;
        if (!schema || !/^\d+$/.test(status)) continue;
        // The oracle passes the body of a 5xx answer through unchecked, so it has no verdict on one;
        // the compiled validator of the Error schema those answers share is exercised by the 4xx cases.
        if (Number(status) >= 500) continue;
        const key = `${status}:${JSON.stringify(entry.responses[status])}`;
        if (!ALL && seen.has(key)) continue;
        seen.add(key);
        const valid = sampleOf(schema);
        cases.push({ entry, status: Number(status), name: 'sampled', body: valid });
        if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
          cases.push({ entry, status: Number(status), name: 'with an unknown field', body: { ...(valid as Json), zzNotAField: 1 } });
          const stringField = firstTyped(resolve(schema), 'string');
          if (stringField) cases.push({ entry, status: Number(status), name: `${stringField} a number`, body: { ...(valid as Json), [stringField]: 12345 } });
        }
        if (Array.isArray(valid)) cases.push({ entry, status: Number(status), name: 'an object instead of an array', body: { not: 'an array' } });
      }
    }
    const bound = new Map(operations.map((entry) => [entry, bindOperation(entry, compiled)]));
    const urlOf = (entry: OperationEntry) => requestCases(entry)[0]!.url;
    let n = 0;
    const results = await inBatches(cases, 16, async (c) => {
      const key = String(n++);
      pending.set(key, { status: c.status, body: c.body });
      const res = await fetch(`${responder.base}${urlOf(c.entry)}`, { method: c.entry.method, headers: { 'x-case': key, 'x-path': c.entry.path } });
      await res.arrayBuffer();
      let ours: 'accepts' | 'rejects' = 'accepts';
      try {
        bound.get(c.entry)!.validateResponse(c.status, c.body);
      } catch (error) {
        if (!(error instanceof ResponseValidationError)) throw error;
        ours = 'rejects';
      }
      return { c, oracle: res.status === c.status ? 'accepts' : 'rejects', ours };
    });
    const disagreements = results
      .filter((r) => r.oracle !== r.ours)
      .map((r) => `${r.c.entry.method} ${r.c.entry.path} ${r.c.status} [${r.c.name}]: oracle ${r.oracle}, compiled ${r.ours}`);
    expect(disagreements, `${disagreements.length} of ${cases.length} cases disagree`).toEqual([]);
    expect(results.filter((r) => r.ours === 'accepts').length).toBeGreaterThan(0);
    expect(results.filter((r) => r.ours === 'rejects').length).toBeGreaterThan(0);
  });
});
