/**
 * The faults of the conformance self-test, keyed by the id of the rule each must trip
 * (conformance/rules.ts). Each one makes the unmodified reference server, seen through the proxy
 * (./faulty-proxy.ts), break that rule in one way: it rewrites the request on its way in, the
 * answer on its way out, or both. One fault per rule, one rule per fault: ./selftest.test.ts checks
 * that the ids are exactly the suite's rules and that each rule fails with its fault on.
 */
import { randomUUID } from 'node:crypto';
import type { Exchange, Fault, Json, Rewritten } from './faulty-proxy.ts';
import { asJson } from './faulty-proxy.ts';

const round1 = (v: number) => Math.round(v * 10) / 10;
const error = (status: number, errorType: string, message: string): Rewritten => ({ status, body: { code: status, errorType, message } });

// What the client asked for (as it sent it).
const isCreate = (x: Exchange) => x.method === 'POST' && x.target?.shape === '';
const isUpsert = (x: Exchange) => x.method === 'PUT' && x.target?.shape === '';
const isById = (x: Exchange) => x.target?.shape === 'id' || x.target?.shape === 'name';
const isSingleGet = (x: Exchange) => x.method === 'GET' && isById(x);
const isDelete = (x: Exchange) => x.method === 'DELETE' && isById(x);
const isHard = (x: Exchange) => x.query.get('hardDelete') === 'true';
const isRecursive = (x: Exchange) => x.query.get('recursive') === 'true';
const subPath = (x: Exchange) => (x.target?.shape === 'sub' ? x.target.sub : undefined);
const isDataContract = (x: Exchange) => x.target?.collection === 'dataContracts';
const isProfilerConfig = (x: Exchange) => subPath(x) === 'profilerConfig' || subPath(x) === 'tableProfilerConfig';

/** The scope a create's name must be unique in. */
function createScope(x: Exchange): 'service' | 'classification' | 'nested' | 'child' | undefined {
  const body = asJson(x.body);
  if (!isCreate(x) || !body) return undefined;
  const collection = x.target!.collection;
  if (collection.startsWith('services/')) return 'service';
  if (collection === 'classifications') return 'classification';
  return body.parent ? 'nested' : 'child';
}

/** The fully qualified name a create would give, from what the proxy has seen (docs/behaviour.md "Fully qualified names"). */
function createdFqn(x: Exchange, body: Json): string {
  const quote = (name: string) => (name.includes('.') ? `"${name}"` : name);
  const name = quote(String(body.name));
  const parentId = asJson(body.parent)?.id;
  const parent = typeof parentId === 'string' ? x.memory.entities.get(parentId)?.fullyQualifiedName : undefined;
  if (typeof parent === 'string') return `${parent}.${name}`;
  return typeof body.service === 'string' ? `${body.service}.${name}` : name;
}

/** Rewrites an answer whose body is a JSON object and whose status is `status` (any success when not given). */
function rewriteEntity(x: Exchange, status: number | undefined, change: (entity: Json) => Json | undefined): void {
  x.reply((a) => {
    const entity = asJson(a.body);
    if (!entity || (status === undefined ? a.status >= 300 : a.status !== status)) return undefined;
    const body = change(entity);
    return body ? { status: a.status, body } : undefined;
  });
}

/** Answers `to` in place of every answer of status `from`. */
function replaceStatus(x: Exchange, from: number, to: Rewritten): void {
  x.reply((a) => (a.status === from ? to : undefined));
}

/** A POST becomes an upsert: an existing name is updated (200, answered 201) instead of refused. */
function duplicatePostUpserts(scope: NonNullable<ReturnType<typeof createScope>>): Fault {
  return (x) => {
    if (createScope(x) !== scope) return;
    x.forward.method = 'PUT';
    x.reply((a) => (a.status === 200 ? { status: 201, text: a.text } : undefined));
  };
}

/** The roles claim of a bearer JWT (none: []), undefined when there is no JWT. Not verified: the server does that. */
function rolesOf(authorization: string | string[] | undefined): unknown[] | undefined {
  const token = typeof authorization === 'string' ? /^Bearer (\S+)$/.exec(authorization)?.[1] : undefined;
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = asJson(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return claims ? (Array.isArray(claims.roles) ? (claims.roles as unknown[]) : []) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Holds a POST for up to a second; when a POST of the same name arrives meanwhile, both become
 * upserts answered 201, so concurrent creates all succeed.
 */
async function raceOrWait(x: Exchange, key: string): Promise<void> {
  const asUpsert = () => {
    x.forward.method = 'PUT';
    x.reply((a) => (a.status === 200 ? { status: 201, text: a.text } : undefined));
  };
  const races = x.memory.races;
  const waiting = races.get(key);
  if (waiting) {
    waiting.raced = true;
    waiting.release();
    asUpsert();
    return;
  }
  const raced = await new Promise<boolean>((resolve) => {
    const entry = {
      raced: false,
      release: () => {
        clearTimeout(timer);
        races.delete(key);
        resolve(entry.raced);
      },
    };
    // Long enough for concurrent requests to arrive on a loaded machine; only this fault pays it.
    const timer = setTimeout(() => entry.release(), 1000);
    races.set(key, entry);
  });
  if (raced) asUpsert();
}

/** `GET /v1/search/query`. */
const isSearch = (x: Exchange) => x.method === 'GET' && x.forward.pathname === '/api/v1/search/query';
/** The lineage of one entity: `GET /v1/lineage/<type>/<id>` or `/<type>/name/<fqn>`. */
const isLineageGraph = (x: Exchange) => x.method === 'GET' && /^\/api\/v1\/lineage\/[A-Za-z]+\/(name\/[^/]+|[0-9a-f-]{36})$/i.test(x.forward.pathname);

/** What the lineage and custom-property faults remember, per proxy memory (a new one at every switch). */
const remembered = new WeakMap<object, { hardDeleted: boolean; graphs: Map<string, { status: number; body: unknown }>; declared: Set<string> }>();
function rememberedBy(x: Exchange) {
  let r = remembered.get(x.memory);
  if (!r) remembered.set(x.memory, (r = { hardDeleted: false, graphs: new Map(), declared: new Set() }));
  return r;
}

/** Custom properties declared through the proxy (`PUT /v1/metadata/types/<id>` {name}). */
function trackDeclared(x: Exchange): Set<string> {
  const declared = rememberedBy(x).declared;
  const name = asJson(x.body)?.name;
  if (x.method === 'PUT' && /^\/api\/v1\/metadata\/types\/[0-9a-f-]{36}$/i.test(x.forward.pathname) && typeof name === 'string') {
    x.reply((a) => {
      if (a.status < 300) declared.add(name);
      return undefined;
    });
  }
  return declared;
}

export const FAULTS: Readonly<Record<string, Fault>> = {
  // Create
  /** POST answers the entity without its version. */
  'create.returns-fields': (x) => {
    if (isCreate(x)) rewriteEntity(x, undefined, ({ version: _version, ...rest }) => rest);
  },
  /** POST of a child answers fullyQualifiedName = name (no service prefix). */
  'create.fqn-derived': (x) => {
    if (isCreate(x)) rewriteEntity(x, undefined, (e) => (e.service ? { ...e, fullyQualifiedName: e.name } : undefined));
  },
  /** GET by name answers the entity with another id. */
  'read.get-by-id-and-name-agree': (x) => {
    if (x.method === 'GET' && x.target?.shape === 'name') rewriteEntity(x, 200, (e) => ({ ...e, id: randomUUID() }));
  },

  // Uniqueness: POST of an existing name in its scope upserts and answers 201 instead of 409.
  'uniqueness.duplicate-post-409-service': duplicatePostUpserts('service'),
  'uniqueness.duplicate-post-409-child': duplicatePostUpserts('child'),
  'uniqueness.duplicate-post-409-nested': duplicatePostUpserts('nested'),
  'uniqueness.duplicate-post-409-classification': duplicatePostUpserts('classification'),
  /** POST of a child whose name was used in another service answers 409 (names unique across services). */
  'uniqueness.same-name-in-other-scope-allowed': (x) => {
    const body = asJson(x.body);
    if (createScope(x) !== 'child' || typeof body?.name !== 'string') return;
    const key = `${x.target!.collection}|${body.name}`;
    const here = String(body.service ?? '');
    const seen = x.memory.childScopes.get(key);
    if (seen !== undefined && seen !== here) {
      x.answer(409, { code: 409, errorType: 'ENTITY_ALREADY_EXISTS', message: 'Entity already exists' });
      return;
    }
    x.reply((a) => {
      if (a.status < 300) x.memory.childScopes.set(key, here);
      return undefined;
    });
  },

  // Upsert and bulk
  /** PUT that creates an entity answers 404. */
  'upsert.creates': (x) => {
    if (isUpsert(x)) replaceStatus(x, 201, error(404, 'NOT_FOUND', `${x.target!.collection} instance not found`));
  },
  /** PUT that updates an entity answers a stale description. */
  'upsert.updates-in-place': (x) => {
    if (isUpsert(x)) rewriteEntity(x, 200, (e) => ({ ...e, description: `${String(e.description ?? '')} (stale)` }));
  },
  /** PUT of an unchanged body raises the version in its answer. */
  'upsert.idempotent': (x) => {
    if (!isUpsert(x)) return;
    const versionsBefore = new Map(x.memory.versions);
    rewriteEntity(x, 200, (e) =>
      typeof e.id === 'string' && typeof e.version === 'number' && versionsBefore.get(e.id) === e.version ? { ...e, version: round1(e.version + 0.1) } : undefined,
    );
  },
  /** PUT is handled as POST: an existing entity answers 409. */
  'upsert.never-409': (x) => {
    if (isUpsert(x)) x.forward.method = 'POST';
  },
  /** PUT of a soft-deleted entity answers it still deleted. */
  'upsert.restores-soft-deleted': (x) => {
    if (isUpsert(x)) rewriteEntity(x, 200, (e) => (typeof e.id === 'string' && x.memory.softDeleted.has(e.id) ? { ...e, deleted: true } : undefined));
  },
  /** PUT /bulk ignores the last item of the array. */
  'bulk.upserts-each': (x) => {
    if (x.method === 'PUT' && x.target?.shape === 'bulk' && Array.isArray(x.body)) x.forward.body = x.body.slice(0, -1);
  },

  // Delete and restore
  /** Soft DELETE answers the entity with deleted false. */
  'soft-delete.marks-deleted': (x) => {
    if (isDelete(x) && !isHard(x)) rewriteEntity(x, 200, (e) => ({ ...e, deleted: false }));
  },
  /** Soft DELETE answers the version unchanged. */
  'soft-delete.version-rises': (x) => {
    if (isDelete(x) && !isHard(x)) rewriteEntity(x, 200, (e) => (typeof e.version === 'number' ? { ...e, version: round1(e.version - 0.1) } : undefined));
  },
  /** GET without include behaves as include=all. */
  'soft-delete.hidden-by-default': (x) => {
    if (isSingleGet(x) && !x.query.has('include')) x.forward.query.set('include', 'all');
  },
  /** GET ignores include=deleted|all. */
  'soft-delete.visible-with-include': (x) => {
    if (isSingleGet(x) && x.query.has('include')) x.forward.query.delete('include');
  },
  /** Restore answers the entity with deleted true. */
  'restore.reactivates': (x) => {
    if (x.method === 'PUT' && x.target?.shape === 'restore') rewriteEntity(x, 200, (e) => ({ ...e, deleted: true }));
  },
  /** After a restore, the children of the restored entity stay hidden (GET answers 404). */
  'restore.brings-back-children': (x) => {
    const prefixes = x.memory.restoredPrefixes;
    if (x.method === 'PUT' && x.target?.shape === 'restore') {
      rewriteEntity(x, 200, (e) => {
        if (typeof e.fullyQualifiedName === 'string') prefixes.push(`${e.fullyQualifiedName}.`);
        return undefined;
      });
    }
    if (isSingleGet(x)) {
      x.reply((a) => {
        const fqn = asJson(a.body)?.fullyQualifiedName;
        return a.status === 200 && typeof fqn === 'string' && prefixes.some((p) => fqn.startsWith(p))
          ? error(404, 'NOT_FOUND', `${x.target!.collection} instance for ${fqn} not found`)
          : undefined;
      });
    }
  },
  /** Hard DELETE answers 200 {"deleted": true} instead of 204 (and 204 instead of 200). */
  'hard-delete.status': (x) => {
    if (!isDelete(x) || !isHard(x)) return;
    x.reply((a) => (a.status === 204 ? { status: 200, body: { deleted: true } } : a.status === 200 ? { status: 204 } : undefined));
  },
  /** Hard DELETE soft-deletes and answers 204, so the entity can still be read. */
  'hard-delete.gone-everywhere': (x) => {
    if (!isDelete(x) || !isHard(x)) return;
    x.forward.query.set('hardDelete', 'false');
    replaceStatus(x, 200, { status: 204 });
  },
  /** DELETE of a parent without recursive deletes recursively instead of answering 400. */
  'delete.non-recursive-parent-400': (x) => {
    if (isDelete(x) && !isRecursive(x)) x.forward.query.set('recursive', 'true');
  },
  /** After a recursive DELETE, the children can still be read (GET answers what it last saw). */
  'delete.recursive-cascades': (x) => {
    const { memory, target } = x;
    if (isDelete(x) && isRecursive(x)) {
      const known = target?.fqn ?? (target?.id ? memory.entities.get(target.id)?.fullyQualifiedName : undefined);
      x.reply((a) => {
        const fqn = asJson(a.body)?.fullyQualifiedName ?? known;
        if (a.status < 300 && typeof fqn === 'string') memory.cascadePrefixes.push(`${fqn}.`);
        return undefined;
      });
    }
    if (isSingleGet(x)) {
      const id = target?.id ?? (target?.fqn ? memory.idByFqn.get(target.fqn) : undefined);
      x.reply((a) => {
        const cached = id ? memory.entities.get(id) : undefined;
        const fqn = cached?.fullyQualifiedName;
        return a.status === 404 && cached && typeof fqn === 'string' && memory.cascadePrefixes.some((p) => fqn.startsWith(p))
          ? { status: 200, body: { ...cached, deleted: false } }
          : undefined;
      });
    }
  },
  /** An asynchronous delete answers 202 with a job and deletes nothing. */
  'delete.async': (x) => {
    if (x.method === 'DELETE' && /^\/api\/v1\/.+\/async\/[0-9a-f-]{36}$/i.test(x.forward.pathname)) {
      x.answer(202, { jobId: randomUUID(), message: 'Delete operation initiated', entityName: 'x', hardDelete: isHard(x), recursive: isRecursive(x) });
    }
  },

  /** A dry run of deleteStale is sent on as a real one: it deletes what it should only report. */
  'delete.stale-in-scope': (x) => {
    const body = asJson(x.body);
    if (x.method === 'PUT' && x.forward.pathname.endsWith('/deleteStale') && body?.dryRun === true) x.forward.body = { ...body, dryRun: false };
  },

  // Errors
  /** A 404 for an unknown id is answered 200 {}. */
  'not-found.unknown-id': (x) => {
    if (x.target && x.target.shape !== 'name' && !isDataContract(x)) replaceStatus(x, 404, { status: 200, body: {} });
  },
  /** A 404 for an unknown name is answered 200 {}. */
  'not-found.unknown-name': (x) => {
    if (x.target?.shape === 'name') replaceStatus(x, 404, { status: 200, body: {} });
  },
  /** A 400 for an invalid create or upsert body is answered 201 {}. */
  'validation.invalid-body-400': (x) => {
    if (isCreate(x) || isUpsert(x)) replaceStatus(x, 400, { status: 201, body: {} });
  },
  /** Every error is answered as text/plain. */
  'errors.body-shape': (x) => {
    if (x.target) x.reply((a) => (a.status >= 400 ? { status: a.status, text: 'error', contentType: 'text/plain; charset=utf-8' } : undefined));
  },

  // Authentication
  /** A request without a token is answered 200 {} instead of 401. */
  'auth.missing-token-401': (x) => {
    if (!x.forward.headers.authorization) replaceStatus(x, 401, { status: 200, body: {} });
  },
  /** A request with an invalid token is answered 200 {} instead of 401. */
  'auth.invalid-token-401': (x) => {
    if (x.forward.headers.authorization) replaceStatus(x, 401, { status: 200, body: {} });
  },
  /** A user without write permission may write: a token without the Admin role is sent on as an Admin token. */
  'auth.restricted-token-403': (x) => {
    const roles = rolesOf(x.forward.headers.authorization);
    if (x.target && x.adminToken !== undefined && roles && !roles.includes('Admin')) x.forward.headers.authorization = `Bearer ${x.adminToken}`;
  },

  // Followers and votes
  /** Add follower is answered with the entity, without adding the follower (the PUT becomes a GET). */
  'followers.consistent': (x) => {
    if (x.method !== 'PUT' || subPath(x) !== 'followers') return;
    x.forward.method = 'GET';
    x.forward.body = undefined;
    x.forward.pathname = `/api/v1/${x.target!.collection}/${x.target!.id}`;
    x.forward.query = new URLSearchParams({ fields: 'followers' });
  },
  /** Every vote is recorded as unVoted. */
  'votes.consistent': (x) => {
    const body = asJson(x.body);
    if (x.method === 'PUT' && subPath(x) === 'vote' && body) x.forward.body = { ...body, updatedVoteType: 'unVoted' };
  },

  // Change events and the feed
  /** Every change event is listed twice. */
  'events.one-per-write': (x) => {
    if (x.method === 'GET' && x.target?.collection === 'events' && x.target.shape === '') {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) ? { ...b, data: b.data.flatMap((e: unknown) => [e, e]) } : undefined));
    }
  },
  /** The lineage events are left out of the list. */
  'events.lineage': (x) => {
    if (x.method === 'GET' && x.target?.collection === 'events' && x.target.shape === '') {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) ? { ...b, data: (b.data as Json[]).filter((e) => !String(e.eventType).startsWith('entityLineage')) } : undefined));
    }
  },
  /** The events come newest first. */
  'events.order': (x) => {
    if (x.method === 'GET' && x.target?.collection === 'events' && x.target.shape === '') {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) && b.data.length > 1 ? { ...b, data: [...(b.data as unknown[])].reverse() } : undefined));
    }
  },
  /** An update's event carries the entity as it was before the write (its previous version). */
  'events.entity-after-write': (x) => {
    if (x.method === 'GET' && x.target?.collection === 'events' && x.target.shape === '') {
      rewriteEntity(x, 200, (b) =>
        Array.isArray(b.data)
          ? {
              ...b,
              data: (b.data as Json[]).map((e) =>
                e.eventType === 'entityUpdated' && asJson(e.entity) ? { ...e, entity: { ...asJson(e.entity), version: e.previousVersion } } : e,
              ),
            }
          : undefined,
      );
    }
  },
  /** An update's changeDescription has the old and new values swapped. */
  'events.change-description': (x) => {
    if (x.method === 'GET' && x.target?.collection === 'events' && x.target.shape === '') {
      const swap = (f: unknown) => ({ ...asJson(f), oldValue: asJson(f)?.newValue, newValue: asJson(f)?.oldValue });
      rewriteEntity(x, 200, (b) =>
        Array.isArray(b.data)
          ? {
              ...b,
              data: (b.data as Json[]).map((e) => {
                const cd = asJson(e.changeDescription);
                return cd && Array.isArray(cd.fieldsUpdated) ? { ...e, changeDescription: { ...cd, fieldsUpdated: cd.fieldsUpdated.map(swap) } } : e;
              }),
            }
          : undefined,
      );
    }
  },
  /** A POST of a name that exists updates the entity (an event) before it answers 409. */
  'events.rejected-write-none': (x) => {
    const body = asJson(x.body);
    if (!isCreate(x) || typeof body?.name !== 'string' || !x.memory.idByFqn.has(createdFqn(x, body))) return;
    x.forward.method = 'PUT';
    x.forward.body = { ...body, description: `${String(body.description ?? '')} (changed by a refused request)` };
    x.reply((a) => (a.status === 200 ? error(409, 'ENTITY_ALREADY_EXISTS', 'Entity already exists') : undefined));
  },
  /** The feed is always empty. */
  'events.followers-notified': (x) => {
    if (x.method === 'GET' && x.target?.collection === 'feed' && x.target.shape === '') x.answer(200, { data: [], paging: { total: 0 } });
  },

  // Table data
  /** PUT profiler config stores an empty configuration. */
  'profiler-config.round-trip': (x) => {
    if (x.method === 'PUT' && isProfilerConfig(x)) x.forward.body = {};
  },
  /** A 404 for a missing profiler config is answered 200 {}. */
  'profiler-config.not-found-404': (x) => {
    if (isProfilerConfig(x)) replaceStatus(x, 404, { status: 200, body: {} });
  },
  /** PUT sample data stores no rows. */
  /** Sample data is one for all tables: a table with none answers the last sample data written to any. */
  'sample-data.per-table': (x) => {
    if (x.target?.collection !== 'tables' || subPath(x) !== 'sampleData') return;
    if (x.method === 'PUT') x.memory.notes.set('sampleData', x.body);
    const last = x.memory.notes.get('sampleData');
    if (x.method === 'GET' && last !== undefined) x.reply((a) => (a.status === 404 ? { status: 200, body: last } : undefined));
  },
  'sample-data.round-trip': (x) => {
    const body = asJson(x.body);
    if (x.method === 'PUT' && subPath(x) === 'sampleData' && body) x.forward.body = { ...body, rows: [] };
  },
  /** A 404 for missing sample data is answered 200 {}. */
  'sample-data.not-found-404': (x) => {
    if (subPath(x) === 'sampleData') replaceStatus(x, 404, { status: 200, body: {} });
  },

  /** PUT of a container's sample data stores no rows. */
  'container.sample-data-round-trip': (x) => {
    const body = asJson(x.body);
    if (x.method === 'PUT' && x.target?.collection === 'containers' && subPath(x) === 'sampleData' && body) x.forward.body = { ...body, rows: [] };
  },
  /** The children of a container leave out the last one. */
  'container.children-listed': (x) => {
    if (x.method === 'GET' && /^\/api\/v1\/containers\/name\/.+\/children$/.test(x.forward.pathname)) {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) && b.data.length > 0 ? { ...b, data: (b.data as unknown[]).slice(0, -1) } : undefined));
    }
  },
  /** GET of a database's (schema's) profiler configuration answers the entity without it. */
  'profiler-config.database-round-trip': (x) => {
    const field = subPath(x);
    if (x.method === 'GET' && (field === 'databaseProfilerConfig' || field === 'databaseSchemaProfilerConfig')) rewriteEntity(x, 200, (e) => ({ ...e, [field]: undefined }));
  },

  // Data contracts
  /** Data contract results are listed oldest first. */
  'data-contract.results-newest-first': (x) => {
    if (isDataContract(x) && x.method === 'GET' && subPath(x) === 'results') {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) ? { ...b, data: [...(b.data as unknown[])].reverse() } : undefined));
    }
  },
  /** Data contract results ignore limit. */
  'data-contract.results-limit': (x) => {
    if (isDataContract(x) && x.method === 'GET' && subPath(x) === 'results') x.forward.query.delete('limit');
  },
  /** Data contract results ignore startTs and endTs. */
  'data-contract.results-time-range': (x) => {
    if (!isDataContract(x) || x.method !== 'GET' || subPath(x) !== 'results') return;
    x.forward.query.delete('startTs');
    x.forward.query.delete('endTs');
  },
  /** The latest data contract result answers a wrong timestamp. */
  'data-contract.results-latest': (x) => {
    if (isDataContract(x) && x.method === 'GET' && subPath(x) === 'results/latest') {
      rewriteEntity(x, 200, (b) => (typeof b.timestamp === 'number' ? { ...b, timestamp: b.timestamp - 1 } : undefined));
    }
  },
  /** DELETE of one data contract result deletes nothing (it deletes the result 1 ms later, if any). */
  'data-contract.results-delete-one': (x) => {
    const one = /^results\/(\d+)$/.exec(subPath(x) ?? '');
    if (isDataContract(x) && x.method === 'DELETE' && one) x.forward.pathname = `/api/v1/dataContracts/${x.target!.id}/results/${Number(one[1]) + 1}`;
  },
  /** DELETE of data contract results before a time deletes nothing (it deletes those before 0). */
  'data-contract.results-delete-before': (x) => {
    if (isDataContract(x) && x.method === 'DELETE' && /^results\/before\/\d+$/.test(subPath(x) ?? '')) {
      x.forward.pathname = `/api/v1/dataContracts/${x.target!.id}/results/before/0`;
    }
  },
  /** Data contract validation answers {}. */
  'data-contract.validate-returns-result': (x) => {
    if (isDataContract(x) && x.method === 'POST' && subPath(x) === 'validate') x.reply((a) => (a.status < 300 ? { status: a.status, body: {} } : undefined));
  },
  /** An ODCS import (JSON) drops the document's schema. */
  'data-contract.odcs-round-trip': (x) => {
    const body = asJson(x.body);
    if ((x.method === 'POST' || x.method === 'PUT') && x.forward.pathname === '/api/v1/dataContracts/odcs' && body) x.forward.body = { ...body, schema: [] };
  },
  /** Validating a contract request creates the contract, and answers a validation. */
  'data-contract.validate-stores-nothing': (x) => {
    if (x.method !== 'POST' || x.forward.pathname !== '/api/v1/dataContracts/validate') return;
    x.forward.pathname = '/api/v1/dataContracts';
    x.reply((a) => {
      const failed = a.status >= 300 ? [String(asJson(a.body)?.message ?? a.status)] : [];
      return { status: 200, body: { valid: failed.length === 0, entityErrors: failed, constraintErrors: [] } };
    });
  },
  /** A 404 for an unknown data contract is answered 200 with an empty list. */
  'data-contract.unknown-404': (x) => {
    if (isDataContract(x)) replaceStatus(x, 404, { status: 200, body: { data: [], paging: { total: 0 } } });
  },

  // Every response against the document
  /** A successful soft DELETE answers 202, a status the document does not give. */
  'document.status-documented': (x) => {
    if (isDelete(x) && !isHard(x)) x.reply((a) => (a.status === 200 ? { status: 202, text: a.text, contentType: 'application/json; charset=utf-8' } : undefined));
  },
  /** GET by id answers displayName as a number. */
  'document.body-matches-schema': (x) => {
    if (x.method === 'GET' && x.target?.shape === 'id') rewriteEntity(x, 200, (e) => (typeof e.fullyQualifiedName === 'string' ? { ...e, displayName: 42 } : undefined));
  },

  // What the values mean
  /** A create answers updatedAt in seconds. */
  'meaning.updated-at-epoch-ms': (x) => {
    if (isCreate(x)) rewriteEntity(x, undefined, (e) => (typeof e.updatedAt === 'number' ? { ...e, updatedAt: Math.floor(e.updatedAt / 1000) } : undefined));
  },
  /** GET by id or by name answers updatedAt a second earlier than the entity has. */
  'meaning.updated-at-monotonic': (x) => {
    if (isSingleGet(x)) rewriteEntity(x, 200, (e) => (typeof e.updatedAt === 'number' ? { ...e, updatedAt: e.updatedAt - 1000 } : undefined));
  },
  /** A write answers updatedBy as another user. */
  'meaning.updated-by-token-user': (x) => {
    if (x.method !== 'GET') rewriteEntity(x, undefined, (e) => (typeof e.updatedBy === 'string' ? { ...e, updatedBy: 'ingestion-bot' } : undefined));
  },
  /** A create answers an href naming another id. */
  'meaning.href-resolves': (x) => {
    if (isCreate(x)) rewriteEntity(x, undefined, (e) => (typeof e.href === 'string' && typeof e.id === 'string' ? { ...e, href: e.href.replace(e.id, randomUUID()) } : undefined));
  },
  /** A create answers fullyQualifiedName without the quotes around names with a dot. */
  'create.fqn-quotes-dotted-names': (x) => {
    if (isCreate(x))
      rewriteEntity(x, undefined, (e) =>
        typeof e.fullyQualifiedName === 'string' && e.fullyQualifiedName.includes('"') ? { ...e, fullyQualifiedName: e.fullyQualifiedName.replace(/"/g, '') } : undefined,
      );
  },
  /** A 201 answers no Location header. */
  'create.location-names-entity': (x) => {
    x.reply((a) =>
      a.status === 201 && a.headers.location !== undefined ? { status: 201, text: a.text, contentType: 'application/json; charset=utf-8', headers: { location: null } } : undefined,
    );
  },

  // Versions and PATCH
  /** PATCH answers the version as if the change were a major one (+1.0). */
  'versions.arithmetic': (x) => {
    if (x.method === 'PATCH') rewriteEntity(x, 200, (e) => (typeof e.version === 'number' ? { ...e, version: round1(e.version + 1) } : undefined));
  },
  /** The version history lists the oldest first. */
  'versions.history': (x) => {
    if (x.method === 'GET' && subPath(x) === 'versions')
      rewriteEntity(x, 200, (b) => (Array.isArray(b.versions) ? { ...b, versions: [...(b.versions as unknown[])].reverse() } : undefined));
  },
  /** PATCH applies nothing: the patch is forwarded empty. */
  /** The test operations of a JSON Patch are dropped: the rest applies. */
  'patch.failed-test-applies-nothing': (x) => {
    if (x.method === 'PATCH' && Array.isArray(x.body)) x.forward.body = (x.body as Json[]).filter((op) => op.op !== 'test');
  },
  'patch.applies': (x) => {
    if (x.method === 'PATCH' && Array.isArray(x.body)) x.forward.body = [];
  },

  // Listing
  /** A page asked for with an after cursor loses its first entity. */
  'list.cursor-paging': (x) => {
    if (x.method === 'GET' && x.target?.shape === '' && x.query.has('after')) {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) && b.data.length > 0 ? { ...b, data: (b.data as unknown[]).slice(1) } : undefined));
    }
  },
  /** A list ignores include: soft-deleted entities never show. */
  'list.include-filter': (x) => {
    if (x.method === 'GET' && x.target?.shape === '') x.forward.query.delete('include');
  },

  // Side effects
  /** A POST of a name that exists updates the entity's description before it answers 409. */
  'side-effects.rejected-request-changes-nothing': (x) => {
    const body = asJson(x.body);
    if (!isCreate(x) || typeof body?.name !== 'string' || !x.memory.idByFqn.has(createdFqn(x, body))) return;
    x.forward.method = 'PUT';
    x.forward.body = { ...body, description: `${String(body.description ?? '')} (stored by a refused request)` };
    x.reply((a) => (a.status === 200 ? error(409, 'ENTITY_ALREADY_EXISTS', 'Entity already exists') : undefined));
  },

  // Table profiles and data contracts by entity
  /** The table, column and system profile reads answer no profile; the latest profile answers the table without one. */
  'table-profile.round-trip': (x) => {
    if (x.method === 'GET' && /^(table|column|system)Profile$/.test(x.forward.pathname.split('/').at(-1) ?? '')) {
      rewriteEntity(x, 200, (b) => (Array.isArray(b.data) ? { ...b, data: [] } : undefined));
    }
    if (x.method === 'GET' && x.forward.pathname.endsWith('/tableProfile/latest')) rewriteEntity(x, 200, ({ profile: _profile, ...table }) => table);
  },
  /** A CSV export answers its header line only. */
  /** A dry-run import is applied (and still answered as a dry run). */
  'csv.dry-run-changes-nothing': (x) => {
    if (x.method !== 'PUT' || !x.forward.pathname.endsWith('/import') || x.query.get('dryRun') === 'false') return;
    x.forward.query.set('dryRun', 'false');
    rewriteEntity(x, 200, (b) => ({ ...b, dryRun: true }));
  },
  'csv.export-import-round-trip': (x) => {
    if (x.method === 'GET' && x.forward.pathname.endsWith('/export')) {
      x.reply((a) => (a.status === 200 ? { status: 200, text: `${a.text.split('\r\n')[0] ?? ''}\r\n`, contentType: 'text/plain; charset=utf-8' } : undefined));
    }
  },
  /** The contract of an entity is not found. */
  'data-contract.by-entity': (x) => {
    if (x.method === 'GET' && x.forward.pathname === '/api/v1/dataContracts/entity')
      x.answer(404, { code: 404, errorType: 'NOT_FOUND', message: 'dataContract instance not found' });
  },

  // Conditional requests
  /** Entity reads are passed on as rewritten answers, which lose their ETag. */
  'conditional.etag': (x) => {
    if (isSingleGet(x)) rewriteEntity(x, 200, (e) => ({ ...e }));
  },
  /** If-None-Match never reaches the server: a conditional read is answered in full. */
  'conditional.if-none-match': (x) => {
    delete x.forward.headers['if-none-match'];
  },
  /** If-Match never reaches the server: a write based on an older ETag goes through. */
  'conditional.if-match': (x) => {
    delete x.forward.headers['if-match'];
  },
  // Fields
  /** Properties that are no relationship field (a table's tableConstraints, joins) are refused as unknown. */
  'fields.schema-properties': (x) => {
    const name = x.query
      .get('fields')
      ?.split(',')
      .find((f) => f === 'tableConstraints' || f === 'joins');
    if (x.method === 'GET' && name) x.answer(400, { code: 400, errorType: 'BAD_REQUEST', message: `Invalid field name ${name}` });
  },
  /** `fields` is dropped on the way in: a name that is no property is answered 200. */
  'fields.unknown-400': (x) => {
    if (x.method === 'GET') x.forward.query.delete('fields');
  },
  // Search
  /** A search leaves out the hits whose name is the query text (and counts them out of the total). */
  'search.finds-created': (x) => {
    const q = x.query.get('q');
    if (!isSearch(x) || !q) return;
    rewriteEntity(x, 200, (b) => {
      const hits = asJson(b.hits);
      if (!hits || !Array.isArray(hits.hits)) return undefined;
      const kept = hits.hits.filter((h: unknown) => asJson(asJson(h)?._source)?.name !== q);
      const total = asJson(hits.total);
      const value = typeof total?.value === 'number' ? total.value - (hits.hits.length - kept.length) : total?.value;
      return { ...b, hits: { ...hits, hits: kept, total: { ...total, value } } };
    });
  },
  /** deleted=true is sent on as deleted=false: soft-deleted entities are never found. */
  'search.deleted-hidden': (x) => {
    if (isSearch(x) && x.query.get('deleted') === 'true') x.forward.query.set('deleted', 'false');
  },
  /** `from` never reaches the server: every page is the first. */
  'search.paging-consistent': (x) => {
    if (isSearch(x)) x.forward.query.delete('from');
  },
  /** Every index asked for is searched as `all`. */
  'search.index-filter': (x) => {
    const index = x.query.get('index');
    if (isSearch(x) && index && index !== 'all') x.forward.query.set('index', 'all');
  },

  /** `search_after` never reaches the server: every page is the first. */
  'search.search-after': (x) => {
    if (isSearch(x)) x.forward.query.delete('search_after');
  },

  // Names
  /** A `>` in a created name is sent on as `_`: the server creates what it should refuse. */
  'names.refused-characters': (x) => {
    const body = asJson(x.body);
    if ((isCreate(x) || isUpsert(x)) && body && typeof body.name === 'string' && body.name.includes('>')) x.forward.body = { ...body, name: body.name.replaceAll('>', '_') };
  },

  // Lineage
  /** The lineage of an entity never lists its upstream edges. */
  'lineage.edge-both-ends': (x) => {
    if (isLineageGraph(x)) rewriteEntity(x, 200, (b) => ({ ...b, upstreamEdges: [] }));
  },
  /** DELETE of an edge answers 200 and removes nothing. */
  'lineage.edge-delete': (x) => {
    if (x.method === 'DELETE' && x.forward.pathname.startsWith('/api/v1/lineage/')) x.answer(200, {});
  },
  /** After a hard delete, the lineage of an entity is answered as it was before it (the edges of the deleted entity stay). */
  'lineage.hard-delete-removes-edges': (x) => {
    const r = rememberedBy(x);
    if (isDelete(x) && isHard(x)) {
      x.reply((a) => {
        if (a.status < 300) r.hardDeleted = true;
        return undefined;
      });
    }
    if (!isLineageGraph(x)) return;
    const key = `${x.forward.pathname}?${x.query.toString()}`;
    const cached = r.graphs.get(key);
    if (r.hardDeleted && cached) {
      x.answer(cached.status, cached.body);
      return;
    }
    x.reply((a) => {
      if (!r.hardDeleted) r.graphs.set(key, { status: a.status, body: a.body });
      return undefined;
    });
  },

  // Custom properties
  /** GET with fields=extension answers the entity without its extension. */
  'custom-properties.declared-round-trip': (x) => {
    if (isSingleGet(x) && x.query.get('fields')?.split(',').includes('extension')) rewriteEntity(x, 200, ({ extension: _extension, ...rest }) => rest);
  },
  /** A value of an undeclared property is dropped and the rest stored, then the request is answered 400. */
  /** A number given for a string property is stored as its text, not refused. */
  'custom-properties.wrong-type-refused': (x) => {
    const text = (v: unknown) => (typeof v === 'number' ? String(v) : v);
    const body = x.body;
    if ((isCreate(x) || isUpsert(x)) && asJson(asJson(body)?.extension)) {
      const extension = Object.fromEntries(Object.entries(asJson(asJson(body)!.extension)!).map(([k, v]) => [k, text(v)]));
      x.forward.body = { ...asJson(body), extension };
    }
    if (x.method === 'PATCH' && Array.isArray(body)) {
      x.forward.body = (body as Json[]).map((op) => (typeof op.path === 'string' && op.path.startsWith('/extension/') ? { ...op, value: text(op.value) } : op));
    }
  },
  'custom-properties.undeclared-refused': (x) => {
    const declared = trackDeclared(x);
    const refuse = (names: string[]) => x.reply(() => error(400, 'BAD_REQUEST', `Unknown custom field ${names.join(', ')}`));
    const body = asJson(x.body);
    const extension = asJson(body?.extension);
    if ((isCreate(x) || isUpsert(x)) && body && extension) {
      const unknown = Object.keys(extension).filter((k) => !declared.has(k));
      if (unknown.length === 0) return;
      x.forward.body = { ...body, extension: Object.fromEntries(Object.entries(extension).filter(([k]) => declared.has(k))) };
      refuse(unknown);
    }
    if (x.method === 'PATCH' && Array.isArray(x.body)) {
      const undeclaredOp = (op: unknown) => {
        const name = /^\/extension\/([^/]+)/.exec(String(asJson(op)?.path))?.[1];
        return name !== undefined && !declared.has(name);
      };
      const unknown = x.body.filter(undeclaredOp).map((op) => String(asJson(op)?.path));
      if (unknown.length === 0) return;
      x.forward.body = x.body.filter((op) => !undeclaredOp(op));
      refuse(unknown);
    }
  },
  // Concurrency
  /** Concurrent POSTs of the same new name all succeed. */
  'concurrency.duplicate-create-one-wins': async (x) => {
    const body = asJson(x.body);
    if (isCreate(x) && typeof body?.name === 'string') await raceOrWait(x, `${x.target!.collection}|${body.name}|${String(body.service ?? '')}`);
  },
};
