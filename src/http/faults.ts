/**
 * Deliberate faults for the conformance self-test (test-only; served only with --allow-faults).
 * Each fault breaks the rule of the same intent in conformance/rules.ts at the HTTP level: it
 * rewrites the request (method, url, query, body) before validation, or the response on its way
 * out. `faultPreAuthMiddleware` goes BEFORE authentication (token faults); `faultMiddleware` right
 * after it. With no active fault both are a single Set.size check.
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

/** Fault id → what the faulty server does. The self-test maps each rule to one of these. */
export const FAULTS: Record<string, string> = {
  'create-omits-version': 'POST create answers the entity without its version',
  'fqn-not-derived': 'POST create of a child answers fullyQualifiedName = name (no service prefix)',
  'get-by-name-wrong-id': 'GET by name answers the entity with another id',
  'duplicate-post-succeeds-service': 'POST of an existing service name upserts and answers 201 instead of 409',
  'duplicate-post-succeeds-child': 'POST of an existing child name in its service upserts and answers 201 instead of 409',
  'duplicate-post-succeeds-nested': 'POST of an existing nested container name upserts and answers 201 instead of 409',
  'duplicate-post-succeeds-classification': 'POST of an existing classification name upserts and answers 201 instead of 409',
  'child-name-unique-globally': 'POST of a child whose name was used in another service answers 409',
  'upsert-create-404': 'PUT that creates an entity answers 404',
  'upsert-ignores-description': 'PUT that updates an entity answers a stale description',
  'upsert-no-change-bumps-version': 'PUT of an unchanged body raises the version in its answer',
  'upsert-existing-409': 'PUT is handled as POST: an existing entity answers 409',
  'upsert-leaves-soft-deleted': 'PUT of a soft-deleted entity answers it still deleted',
  'bulk-drops-last-item': 'PUT /bulk ignores the last item of the array',
  'soft-delete-leaves-deleted-false': 'soft DELETE answers the entity with deleted false',
  'soft-delete-keeps-version': 'soft DELETE answers the version unchanged',
  'soft-deleted-visible-by-default': 'GET without include behaves as include=all',
  'include-ignored': 'GET ignores include=deleted|all',
  'restore-leaves-deleted': 'restore answers the entity with deleted true',
  'restore-parent-only': 'after a restore, the children of the restored entity stay hidden',
  'hard-delete-wrong-status': 'hard DELETE answers 200 {} instead of 204 (and 204 instead of 200)',
  'hard-delete-leaves-entity-readable': 'hard DELETE soft-deletes and answers 204',
  'delete-ignores-children': 'DELETE without recursive deletes recursively',
  'recursive-delete-spares-children': 'after a recursive DELETE, the children can still be read',
  'unknown-id-200': 'a 404 for an unknown id is answered 200 {}',
  'unknown-name-200': 'a 404 for an unknown name is answered 200 {}',
  'invalid-body-accepted': 'a 400 for an invalid create/upsert body is answered 201 {}',
  'missing-token-accepted': 'a request without a token is answered 200 {} instead of 401',
  'invalid-token-accepted': 'a request with an invalid token is answered 200 {} instead of 401',
  'restricted-write-allowed': 'a user without write permission may write (treated as Admin)',
  'error-body-not-json': 'every error is answered as text/plain',
  'follow-not-recorded': 'add follower is answered with the entity, without adding the follower',
  'vote-ignored': 'every vote is recorded as unVoted',
  'profiler-config-not-stored': 'PUT profiler config stores an empty configuration',
  'profiler-config-missing-200': 'a 404 for a missing profiler config is answered 200 {}',
  'sample-data-drops-rows': 'PUT sample data stores no rows',
  'sample-data-missing-200': 'a 404 for missing sample data is answered 200 {}',
  'results-oldest-first': 'data contract results are listed oldest first',
  'results-limit-ignored': 'data contract results ignore limit',
  'results-time-range-ignored': 'data contract results ignore startTs and endTs',
  'results-latest-stale': 'the latest data contract result answers a wrong timestamp',
  'results-delete-one-noop': 'DELETE of one data contract result deletes nothing',
  'results-delete-before-noop': 'DELETE of data contract results before a time deletes nothing',
  'validate-empty-result': 'data contract validation answers {}',
  'data-contract-unknown-200': 'a 404 for an unknown data contract is answered 200 with an empty list',
  'concurrent-duplicate-creates-succeed': 'concurrent POSTs of the same new name all succeed',
};

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  text: string;
  body: unknown;
}
type Rewrite = (a: Answer) => { status: number; body?: unknown; text?: string; contentType?: string } | undefined;

const COLLECTION = /^\/api\/v1\/((?:services|dataQuality)\/[A-Za-z]+|[A-Za-z]+)(\/.*)?$/;
const SUBRESOURCE_OF_ID = /^\/([0-9a-f-]{36})\/(.+)$/i;

interface Target {
  collection: string;
  /** '' collection, 'bulk', 'restore', 'name', 'id', or the sub-resource path after the id. */
  shape: string;
  id?: string;
  fqn?: string;
  sub?: string;
}

function parseTarget(pathname: string): Target | undefined {
  const m = COLLECTION.exec(pathname);
  if (!m) return undefined;
  const collection = m[1]!;
  const rest = m[2] ?? '';
  if (rest === '' || rest === '/') return { collection, shape: '' };
  if (rest === '/bulk') return { collection, shape: 'bulk' };
  if (rest === '/restore') return { collection, shape: 'restore' };
  if (rest.startsWith('/name/')) return { collection, shape: 'name', fqn: decodeURIComponent(rest.slice(6)) };
  const id = /^\/([0-9a-f-]{36})$/i.exec(rest)?.[1];
  if (id) return { collection, shape: 'id', id };
  const sub = SUBRESOURCE_OF_ID.exec(rest);
  if (sub) return { collection, shape: 'sub', id: sub[1], sub: sub[2] };
  return { collection, shape: 'other' };
}

const asJson = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const round1 = (v: number) => Math.round(v * 10) / 10;
const error = (status: number, errorType: string, message: string) => ({ status, body: { code: status, errorType, message } });

/** Buffers the response and lets `rewrite` replace status and body before anything is sent. */
function onResponse(res: Response, rewrite: Rewrite): void {
  const chunks: Buffer[] = [];
  const origEnd = res.end.bind(res) as (chunk?: unknown, encoding?: BufferEncoding) => Response;
  const toBuf = (chunk: unknown, enc?: unknown) =>
    Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof enc === 'string' ? (enc as BufferEncoding) : 'utf8');
  (res as unknown as { write: unknown }).write = (chunk: unknown, enc?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuf(chunk, enc));
    return true;
  };
  (res as unknown as { end: unknown }).end = (chunk?: unknown, enc?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuf(chunk, enc));
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const out = rewrite({ status: res.statusCode, text, body });
    if (!out) return origEnd(chunks.length ? Buffer.concat(chunks) : undefined);
    const newText = out.text ?? (out.body === undefined ? '' : JSON.stringify(out.body));
    res.statusCode = out.status;
    if (!res.headersSent) {
      res.removeHeader('ETag');
      if (newText) {
        res.setHeader('Content-Type', out.contentType ?? 'application/json; charset=utf-8');
        res.setHeader('Content-Length', Buffer.byteLength(newText));
      } else {
        res.removeHeader('Content-Type');
        res.removeHeader('Content-Length');
      }
    }
    return origEnd(newText || undefined);
  };
}

/** Replaces path and query of the request (both for routing and for validation). */
function setUrl(req: Request, pathname: string, params: URLSearchParams): void {
  const qs = params.toString();
  const full = `${pathname}${qs ? `?${qs}` : ''}`;
  const base = req.baseUrl ?? '';
  req.url = full.startsWith(base) ? full.slice(base.length) || '/' : full;
  req.originalUrl = full;
}

/** What the faults remember across requests (reset whenever the active set changes). */
class Memory {
  versions = new Map<string, number>();
  entities = new Map<string, Json>();
  idByFqn = new Map<string, string>();
  softDeleted = new Set<string>();
  restoredPrefixes: string[] = [];
  cascadePrefixes: string[] = [];
  childScopes = new Map<string, string>();
  races = new Map<string, { release: () => void; raced: boolean }>();

  remember(body: unknown): void {
    const e = asJson(body);
    if (!e || typeof e.id !== 'string') return;
    if (this.entities.size > 50_000) this.entities.clear();
    if (typeof e.version === 'number') this.versions.set(e.id, e.version);
    if (typeof e.fullyQualifiedName === 'string') {
      this.entities.set(e.id, e);
      this.idByFqn.set(e.fullyQualifiedName, e.id);
    }
  }
}

function requestBody(req: Request): Json | undefined {
  return asJson((req as { body?: unknown }).body);
}

export function faultMiddleware(getActive: () => ReadonlySet<string>): RequestHandler {
  let memory = new Memory();
  let signature = '';
  return function faults(req, res, next) {
    const active = getActive();
    if (active.size === 0) return next();
    const sig = [...active].sort().join(',');
    if (sig !== signature) {
      signature = sig;
      memory = new Memory();
    }
    const on = (id: string) => active.has(id);
    const url = new URL(req.originalUrl, 'http://fault.local');
    const t = parseTarget(url.pathname);
    if (!t) return next();
    const method = req.method;
    const body = requestBody(req);
    const q = url.searchParams;
    const hard = q.get('hardDelete') === 'true';
    const recursive = q.get('recursive') === 'true';
    const isCreate = method === 'POST' && t.shape === '';
    const isUpsert = method === 'PUT' && t.shape === '';
    const isSingleGet = method === 'GET' && (t.shape === 'id' || t.shape === 'name');
    const rewrites: Rewrite[] = [];
    const reply = (fn: Rewrite) => rewrites.push(fn);
    let urlChanged = false;

    // Remember every successful JSON answer (before any rewrite): versions, bodies, FQNs.
    reply((a) => {
      if (a.status < 300) memory.remember(a.body);
      return undefined;
    });

    if (on('restricted-write-allowed')) {
      const identity = res.locals.identity as { roles?: string[] } | undefined;
      if (identity && !(identity.roles ?? []).includes('Admin')) res.locals.identity = { ...identity, roles: ['Admin'] };
      else if (!identity) reply((a) => (a.status === 403 ? { status: 200, body: {} } : undefined));
    }

    // Create
    if (isCreate && on('create-omits-version')) {
      reply((a) => {
        const b = asJson(a.body);
        if (a.status >= 300 || !b) return undefined;
        const { version: _drop, ...rest } = b;
        return { status: a.status, body: rest };
      });
    }
    if (isCreate && on('fqn-not-derived')) {
      reply((a) => {
        const b = asJson(a.body);
        return a.status < 300 && b?.service ? { status: a.status, body: { ...b, fullyQualifiedName: b.name } } : undefined;
      });
    }
    if (isSingleGet && t.shape === 'name' && on('get-by-name-wrong-id')) {
      reply((a) => {
        const b = asJson(a.body);
        return a.status === 200 && b ? { status: 200, body: { ...b, id: randomUUID() } } : undefined;
      });
    }

    // Uniqueness
    if (isCreate && body) {
      const scope = t.collection.startsWith('services/') ? 'service' : t.collection === 'classifications' ? 'classification' : body.parent ? 'nested' : 'child';
      if (on(`duplicate-post-succeeds-${scope}`)) {
        req.method = 'PUT';
        reply((a) => (a.status === 200 ? { status: 201, body: a.body } : undefined));
      }
      if (scope === 'child' && typeof body.name === 'string' && on('child-name-unique-globally')) {
        const key = `${t.collection}|${body.name}`;
        const here = String(body.service ?? '');
        const seen = memory.childScopes.get(key);
        if (seen !== undefined && seen !== here) {
          const e = error(409, 'ENTITY_ALREADY_EXISTS', 'Entity already exists');
          res.status(e.status).json(e.body);
          return;
        }
        reply((a) => {
          if (a.status < 300) memory.childScopes.set(key, here);
          return undefined;
        });
      }
    }

    // Upsert and bulk
    if (isUpsert) {
      if (on('upsert-create-404')) {
        reply((a) => (a.status === 201 ? error(404, 'NOT_FOUND', `${t.collection} instance not found`) : undefined));
      }
      if (on('upsert-ignores-description')) {
        reply((a) => {
          const b = asJson(a.body);
          return a.status === 200 && b ? { status: 200, body: { ...b, description: `${String(b.description ?? '')} (stale)` } } : undefined;
        });
      }
      if (on('upsert-no-change-bumps-version')) {
        const versionsBefore = new Map(memory.versions);
        reply((a) => {
          const b = asJson(a.body);
          if (a.status !== 200 || !b || typeof b.id !== 'string' || typeof b.version !== 'number') return undefined;
          return versionsBefore.get(b.id) === b.version ? { status: 200, body: { ...b, version: round1(b.version + 0.1) } } : undefined;
        });
      }
      if (on('upsert-existing-409')) req.method = 'POST';
      if (on('upsert-leaves-soft-deleted')) {
        reply((a) => {
          const b = asJson(a.body);
          return a.status === 200 && b && typeof b.id === 'string' && memory.softDeleted.has(b.id) ? { status: 200, body: { ...b, deleted: true } } : undefined;
        });
      }
    }
    if (method === 'PUT' && t.shape === 'bulk' && on('bulk-drops-last-item') && Array.isArray((req as { body?: unknown }).body)) {
      (req as { body?: unknown }).body = ((req as { body: unknown[] }).body).slice(0, -1);
    }

    // Delete and restore
    if (method === 'DELETE' && (t.shape === 'id' || t.shape === 'name')) {
      if (!hard) {
        reply((a) => {
          const b = asJson(a.body);
          if (a.status === 200 && b?.deleted === true && typeof b.id === 'string') memory.softDeleted.add(b.id);
          return undefined;
        });
        if (on('soft-delete-leaves-deleted-false')) {
          reply((a) => {
            const b = asJson(a.body);
            return a.status === 200 && b ? { status: 200, body: { ...b, deleted: false } } : undefined;
          });
        }
        if (on('soft-delete-keeps-version')) {
          reply((a) => {
            const b = asJson(a.body);
            return a.status === 200 && b && typeof b.version === 'number' ? { status: 200, body: { ...b, version: round1(b.version - 0.1) } } : undefined;
          });
        }
      }
      if (hard && on('hard-delete-wrong-status')) {
        reply((a) => (a.status === 204 ? { status: 200, body: { deleted: true } } : a.status === 200 ? { status: 204 } : undefined));
      }
      if (hard && on('hard-delete-leaves-entity-readable')) {
        q.set('hardDelete', 'false');
        urlChanged = true;
        reply((a) => (a.status === 200 ? { status: 204 } : undefined));
      }
      if (!recursive && on('delete-ignores-children')) {
        q.set('recursive', 'true');
        urlChanged = true;
      }
      if (recursive && on('recursive-delete-spares-children')) {
        const known = t.fqn ?? (t.id ? asJson(memory.entities.get(t.id))?.fullyQualifiedName : undefined);
        reply((a) => {
          const fqn = asJson(a.body)?.fullyQualifiedName ?? known;
          if (a.status < 300 && typeof fqn === 'string') memory.cascadePrefixes.push(`${fqn}.`);
          return undefined;
        });
      }
    }
    if (method === 'PUT' && t.shape === 'restore') {
      reply((a) => {
        const b = asJson(a.body);
        if (a.status === 200 && b && typeof b.id === 'string') {
          memory.softDeleted.delete(b.id);
          if (on('restore-parent-only') && typeof b.fullyQualifiedName === 'string') memory.restoredPrefixes.push(`${b.fullyQualifiedName}.`);
        }
        return undefined;
      });
      if (on('restore-leaves-deleted')) {
        reply((a) => {
          const b = asJson(a.body);
          return a.status === 200 && b ? { status: 200, body: { ...b, deleted: true } } : undefined;
        });
      }
    }

    // Reads
    if (isSingleGet) {
      if (!q.has('include') && on('soft-deleted-visible-by-default')) {
        q.set('include', 'all');
        urlChanged = true;
      }
      if (q.has('include') && on('include-ignored')) {
        q.delete('include');
        urlChanged = true;
      }
      if (on('restore-parent-only')) {
        reply((a) => {
          const fqn = asJson(a.body)?.fullyQualifiedName;
          return a.status === 200 && typeof fqn === 'string' && memory.restoredPrefixes.some((p) => fqn.startsWith(p))
            ? error(404, 'NOT_FOUND', `${t.collection} instance for ${fqn} not found`)
            : undefined;
        });
      }
      if (on('recursive-delete-spares-children')) {
        const id = t.id ?? (t.fqn ? memory.idByFqn.get(t.fqn) : undefined);
        reply((a) => {
          const cached = id ? memory.entities.get(id) : undefined;
          const fqn = cached?.fullyQualifiedName;
          return a.status === 404 && cached && typeof fqn === 'string' && memory.cascadePrefixes.some((p) => fqn.startsWith(p))
            ? { status: 200, body: { ...cached, deleted: false } }
            : undefined;
        });
      }
    }

    // Errors
    const dataContract = t.collection === 'dataContracts';
    if (on('unknown-id-200') && t.shape !== 'name' && !dataContract) reply((a) => (a.status === 404 ? { status: 200, body: {} } : undefined));
    if (on('unknown-name-200') && t.shape === 'name') reply((a) => (a.status === 404 ? { status: 200, body: {} } : undefined));
    if (on('data-contract-unknown-200') && dataContract) {
      reply((a) => (a.status === 404 ? { status: 200, body: { data: [], paging: { total: 0 } } } : undefined));
    }
    if ((isCreate || isUpsert) && on('invalid-body-accepted')) reply((a) => (a.status === 400 ? { status: 201, body: {} } : undefined));

    // Followers, votes, table sub-resources, data contract results
    if (t.shape === 'sub' && t.sub) {
      if (method === 'PUT' && t.sub === 'followers' && on('follow-not-recorded')) {
        req.method = 'GET';
        (req as { body?: unknown }).body = undefined;
        delete req.headers['content-type'];
        delete req.headers['content-length'];
        setUrl(req, `/api/v1/${t.collection}/${t.id}`, new URLSearchParams({ fields: 'followers' }));
      }
      if (method === 'PUT' && t.sub === 'vote' && on('vote-ignored') && body) {
        (req as { body?: unknown }).body = { ...body, updatedVoteType: 'unVoted' };
      }
      const profiler = t.sub === 'profilerConfig' || t.sub === 'tableProfilerConfig';
      if (profiler && method === 'PUT' && on('profiler-config-not-stored')) (req as { body?: unknown }).body = {};
      if (profiler && on('profiler-config-missing-200')) reply((a) => (a.status === 404 ? { status: 200, body: {} } : undefined));
      if (t.sub === 'sampleData' && method === 'PUT' && on('sample-data-drops-rows') && body) (req as { body?: unknown }).body = { ...body, rows: [] };
      if (t.sub === 'sampleData' && on('sample-data-missing-200')) reply((a) => (a.status === 404 ? { status: 200, body: {} } : undefined));
      if (dataContract) {
        if (t.sub === 'results' && method === 'GET') {
          if (on('results-oldest-first')) {
            reply((a) => {
              const b = asJson(a.body);
              return a.status === 200 && Array.isArray(b?.data) ? { status: 200, body: { ...b, data: [...b.data].reverse() } } : undefined;
            });
          }
          if (on('results-limit-ignored') && q.has('limit')) {
            q.delete('limit');
            urlChanged = true;
          }
          if (on('results-time-range-ignored') && (q.has('startTs') || q.has('endTs'))) {
            q.delete('startTs');
            q.delete('endTs');
            urlChanged = true;
          }
        }
        if (t.sub === 'results/latest' && method === 'GET' && on('results-latest-stale')) {
          reply((a) => {
            const b = asJson(a.body);
            return a.status === 200 && b && typeof b.timestamp === 'number' ? { status: 200, body: { ...b, timestamp: b.timestamp - 1 } } : undefined;
          });
        }
        const one = /^results\/(\d+)$/.exec(t.sub);
        if (method === 'DELETE' && one && on('results-delete-one-noop')) {
          setUrl(req, `/api/v1/dataContracts/${t.id}/results/${Number(one[1]) + 1}`, q);
        }
        if (method === 'DELETE' && /^results\/before\/\d+$/.test(t.sub) && on('results-delete-before-noop')) {
          setUrl(req, `/api/v1/dataContracts/${t.id}/results/before/0`, q);
        }
        if (method === 'POST' && t.sub === 'validate' && on('validate-empty-result')) {
          reply((a) => (a.status < 300 ? { status: a.status, body: {} } : undefined));
        }
      }
    }

    if (on('error-body-not-json')) {
      reply((a) => (a.status >= 400 ? { status: a.status, text: 'error', contentType: 'text/plain; charset=utf-8' } : undefined));
    }

    if (urlChanged) setUrl(req, url.pathname, q);
    if (rewrites.length > 0) {
      onResponse(res, (a) => {
        let cur = a;
        let changed = false;
        let contentType: string | undefined;
        for (const fn of rewrites) {
          const out = fn(cur);
          if (!out) continue;
          changed = true;
          const text = out.text ?? (out.body === undefined ? '' : JSON.stringify(out.body));
          cur = { status: out.status, text, body: out.text !== undefined ? undefined : out.body };
          contentType = out.contentType;
        }
        return changed ? { status: cur.status, text: cur.text, contentType } : undefined;
      });
    }

    if (isCreate && body && typeof body.name === 'string' && on('concurrent-duplicate-creates-succeed')) {
      return raceOrWait(memory, `${t.collection}|${body.name}|${String(body.service ?? '')}`, req, res, next);
    }
    next();
  };
}

/** Holds a POST briefly; when another POST of the same name arrives meanwhile, both become upserts that answer 201. */
function raceOrWait(memory: Memory, key: string, req: Request, res: Response, next: () => void): void {
  const asUpsert = () => {
    req.method = 'PUT';
    onResponse(res, (a) => (a.status === 200 ? { status: 201, text: a.text } : undefined));
  };
  const waiting = memory.races.get(key);
  if (waiting) {
    waiting.raced = true;
    waiting.release();
    asUpsert();
    return next();
  }
  const entry = {
    raced: false,
    release: () => {
      clearTimeout(timer);
      memory.races.delete(key);
      if (entry.raced) asUpsert();
      next();
    },
  };
  // Long enough for concurrent requests to arrive on a loaded machine; only this fault pays it.
  const timer = setTimeout(() => entry.release(), 1000);
  memory.races.set(key, entry);
}

/** Token faults: mounted before authentication, they turn its 401 into a 200. */
export function faultPreAuthMiddleware(getActive: () => ReadonlySet<string>): RequestHandler {
  return function preAuthFaults(req, res, next) {
    const active = getActive();
    if (active.size === 0) return next();
    const hasHeader = typeof req.headers.authorization === 'string' && req.headers.authorization !== '';
    const id = hasHeader ? 'invalid-token-accepted' : 'missing-token-accepted';
    if (active.has(id)) onResponse(res, (a) => (a.status === 401 ? { status: 200, body: {} } : undefined));
    next();
  };
}
