/**
 * After a request the target rejected (400, 401, 403, 404, 409, 412), re-read what it could have
 * touched and compare with the model: the entities themselves (state, version, description,
 * followers, votes), their collection listing with include=all (nothing added, nothing gone), and
 * names that must still not exist (rule side-effects.rejected-request-changes-nothing).
 */
import type { Exchange } from './http.ts';
import { asArray, asObject } from './http.ts';
import type { Kind } from './kinds.ts';
import { describe, sameVersion, type Model, type ModelEntity } from './model.ts';
import { entityPath, followerIds, serviceOf } from './ops.ts';
import type { Session } from './session.ts';

const RULE = 'side-effects.rejected-request-changes-nothing';

/** What a rejected request could have touched. */
export interface Touched {
  /** Entities to re-read (by id, include=all, with followers and votes where the kind has them). */
  entities?: readonly ModelEntity[];
  /** Collections to list (`?service=<fqn>&include=all`): the children of `kind` under `service`. */
  scopes?: readonly { service: ModelEntity; kind: Kind }[];
  /** Names that must still not exist. */
  absent?: readonly { kind: Kind; fqn: string }[];
}

/** The scope an entity lives in, for a listing: its service and kind (none for services and classifications). */
export function scopeOf(e: ModelEntity): { service: ModelEntity; kind: Kind }[] {
  const service = e.kind.role === 'child' ? serviceOf(e) : null;
  return service ? [{ service, kind: e.kind }] : [];
}

/** `e`, its descendants and every scope they live in. */
export function subtree(m: Model, e: ModelEntity): Touched {
  const entities = [e, ...m.descendants(e)];
  const scopes = new Map<string, { service: ModelEntity; kind: Kind }>();
  for (const x of entities) for (const scope of scopeOf(x)) scopes.set(`${scope.service.id}|${scope.kind.id}`, scope);
  return { entities, scopes: [...scopes.values()] };
}

function requestLabel(ex: Exchange): string {
  const path = ex.url.replace(/^https?:\/\/[^/]+/, '');
  return `${ex.method} ${path} answered ${ex.status}`;
}

/** Re-reads what `rejected` could have touched and checks it is as the model says. No-op when the rule is not selected. */
export async function expectUnchanged(s: Session, m: Model, rejected: Exchange, touched: Touched): Promise<void> {
  if (!s.checker.isActive(RULE) || rejected.status < 400) return;
  const after = `after ${requestLabel(rejected)}`;
  for (const e of touched.entities ?? []) await entityUnchanged(s, e, after);
  for (const scope of touched.scopes ?? []) await scopeUnchanged(s, m, scope.service, scope.kind, after);
  for (const { kind, fqn } of touched.absent ?? []) {
    const ex = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(fqn)}`, query: { include: 'all' } });
    s.checker.check(RULE, ex.status === 404, `${after}: ${kind.id} ${fqn} still does not exist (404)`, () => `GET answered ${ex.status} ${ex.responseText.slice(0, 200)}`, ex);
  }
}

async function entityUnchanged(s: Session, e: ModelEntity, after: string): Promise<void> {
  if (e.state === 'limbo') return;
  const fields = [e.kind.followable && s.ctx.userId ? 'followers' : '', e.kind.votable ? 'votes' : ''].filter(Boolean).join(',');
  const ex = await s.send({ method: 'GET', path: entityPath(e, 'id'), query: { include: 'all', fields: fields || undefined } });
  if (e.state === 'gone') {
    s.checker.check(RULE, ex.status === 404, `${after}: ${describe(e)} still gone (404)`, () => `GET answered ${ex.status}`, ex);
    return;
  }
  const body = asObject(ex.json);
  const problems: string[] = [];
  if (ex.status !== 200 || !body) problems.push(`GET answered ${ex.status} ${ex.responseText.slice(0, 200)}`);
  else {
    if (body.deleted !== (e.state === 'deleted')) problems.push(`deleted ${JSON.stringify(body.deleted)} instead of ${e.state === 'deleted'}`);
    if (!sameVersion(body.version, e.version)) problems.push(`version ${JSON.stringify(body.version)} instead of ${e.version}`);
    const description = e.body.description;
    if (typeof description === 'string' && body.description !== description)
      problems.push(`description ${JSON.stringify(body.description)} instead of ${JSON.stringify(description)}`);
    if (fields.includes('followers')) {
      const count = (followerIds(body) ?? []).filter((id) => id === s.ctx.userId).length;
      if (count !== (e.following ? 1 : 0)) problems.push(`the token's user follows it ${count} time(s) instead of ${e.following ? 1 : 0}`);
    }
    if (fields.includes('votes')) {
      const votes = asObject(body.votes);
      const up = e.vote === 'votedUp' ? 1 : 0;
      const down = e.vote === 'votedDown' ? 1 : 0;
      if (votes?.upVotes !== up || votes?.downVotes !== down) problems.push(`votes ${JSON.stringify(votes)} instead of ${up} up, ${down} down`);
    }
  }
  s.checker.check(
    RULE,
    problems.length === 0,
    `${after}: ${describe(e)} as before (${e.state}, version ${e.version ?? 'any'}, its description, followers and votes)`,
    () => problems.join('; '),
    ex,
  );
}

async function scopeUnchanged(s: Session, m: Model, service: ModelEntity, kind: Kind, after: string): Promise<void> {
  if (service.state !== 'active' && service.state !== 'deleted') return;
  const listed = new Map<string, Record<string, unknown>>();
  let cursor: string | undefined;
  let last: Exchange | undefined;
  for (let page = 0; page < 20; page++) {
    const ex = await s.send({ method: 'GET', path: kind.path, query: { service: service.fqn, include: 'all', limit: 1000, after: cursor } });
    last = ex;
    const body = asObject(ex.json);
    if (ex.status !== 200 || !body) {
      s.checker.check(
        RULE,
        false,
        `${after}: GET ${kind.path}?service=${service.fqn}&include=all lists the ${kind.id}s of ${describe(service)}`,
        () => `${ex.status} ${ex.responseText.slice(0, 200)}`,
        ex,
      );
      return;
    }
    for (const item of asArray(body.data) ?? []) {
      const o = asObject(item);
      if (typeof o?.fullyQualifiedName === 'string') listed.set(o.fullyQualifiedName, o);
    }
    cursor = typeof asObject(body.paging)?.after === 'string' ? String(asObject(body.paging)?.after) : undefined;
    if (!cursor) break;
  }
  const known = m.entities.filter((e) => e.kind === kind && serviceOf(e) === service);
  const problems: string[] = [];
  for (const e of known) {
    const item = listed.get(e.fqn);
    if (e.state === 'limbo') continue;
    if (e.state === 'gone') {
      if (item) problems.push(`${e.fqn} is listed, but it was hard-deleted`);
      continue;
    }
    if (!item) {
      problems.push(`${e.fqn} (${e.state}) is not listed`);
      continue;
    }
    if (item.deleted !== (e.state === 'deleted')) problems.push(`${e.fqn} deleted ${JSON.stringify(item.deleted)} instead of ${e.state === 'deleted'}`);
    if (!sameVersion(item.version, e.version)) problems.push(`${e.fqn} version ${JSON.stringify(item.version)} instead of ${e.version}`);
  }
  const fqns = new Set(known.map((e) => e.fqn));
  for (const fqn of listed.keys()) if (!fqns.has(fqn)) problems.push(`${fqn} is listed, but the run never created it`);
  s.checker.check(
    RULE,
    problems.length === 0,
    `${after}: GET ${kind.path}?service=${service.fqn}&include=all lists the same ${kind.id}s as before (${known.filter((e) => e.state === 'active' || e.state === 'deleted').length})`,
    () => problems.slice(0, 5).join('; '),
    last,
  );
}
