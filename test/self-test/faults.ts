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
  'sample-data.round-trip': (x) => {
    const body = asJson(x.body);
    if (x.method === 'PUT' && subPath(x) === 'sampleData' && body) x.forward.body = { ...body, rows: [] };
  },
  /** A 404 for missing sample data is answered 200 {}. */
  'sample-data.not-found-404': (x) => {
    if (subPath(x) === 'sampleData') replaceStatus(x, 404, { status: 200, body: {} });
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
  /** A 404 for an unknown data contract is answered 200 with an empty list. */
  'data-contract.unknown-404': (x) => {
    if (isDataContract(x)) replaceStatus(x, 404, { status: 200, body: { data: [], paging: { total: 0 } } });
  },

  // Concurrency
  /** Concurrent POSTs of the same new name all succeed. */
  'concurrency.duplicate-create-one-wins': async (x) => {
    const body = asJson(x.body);
    if (isCreate(x) && typeof body?.name === 'string') await raceOrWait(x, `${x.target!.collection}|${body.name}|${String(body.service ?? '')}`);
  },
};
