/**
 * Checks made on every response the suite receives, whatever sent it: the response against the
 * OpenAPI document (document.*), and the meaning of the system fields of every entity the run
 * created (meaning.*: updatedAt in epoch milliseconds near the suite's clock and never going back,
 * updatedBy the token's user). Also records which documented operation each request exercised,
 * for the coverage report.
 */
import type { Checker } from './checker.ts';
import type { Exchange } from './http.ts';
import { asArray, asObject } from './http.ts';
import type { RunContext } from './session.ts';

/**
 * How far an entity's `updatedAt` may lie outside the run (before its start, after now) on the
 * suite's clock: the target's clock may be a little off. Seconds or microseconds are off by
 * orders of magnitude.
 */
const CLOCK_TOLERANCE_MS = 5 * 60_000;

/** The path of a request below the base URL, still percent-encoded, without the query. */
function pathBelowBase(ex: Exchange, baseUrl: string): string {
  const url = ex.url.startsWith(baseUrl) ? ex.url.slice(baseUrl.length) : new URL(ex.url).pathname;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Version snapshots show the past: their system fields are as they were. */
const isVersionRead = (path: string) => /\/versions(\/|$)/.test(path);

/** The entities of a response the run created (by name prefix): the body itself, or the items of a list. */
function ownEntities(ex: Exchange, runPrefix: string): Record<string, unknown>[] {
  if (ex.status < 200 || ex.status >= 300) return [];
  const body = asObject(ex.json);
  if (!body) return [];
  const candidates = asArray(body.data)?.map(asObject) ?? [body];
  return candidates.filter(
    (e): e is Record<string, unknown> => !!e && typeof e.id === 'string' && typeof e.version === 'number' && typeof e.name === 'string' && e.name.startsWith(runPrefix),
  );
}

export function observe(ctx: RunContext, checker: Checker, ex: Exchange): void {
  const path = pathBelowBase(ex, ctx.client.baseUrl);
  const op = ctx.document.match(ex.method, path);
  ex.operation = op?.key;
  ctx.tally.exercise(op?.key ?? `${ex.method} ${path} (undocumented)`, ex.status, op !== undefined);

  // The response against the document.
  if (!op) {
    checker.check(
      'document.status-documented',
      false,
      `a documented operation for ${ex.method} ${path} in ${ctx.document.source}`,
      () => 'no operation of the document matches it',
      ex,
    );
  } else if (checker.isActive('document.status-documented') || checker.isActive('document.body-matches-schema')) {
    const verdict = ctx.document.check(op, ex.status, ex.responseContentType, ex.responseText, ex.json);
    const ok = checker.check(
      'document.status-documented',
      verdict.statusDocumented,
      () => `${op.key}${op.operationId ? ` (${op.operationId})` : ''}: one of the statuses the document gives, ${op.statuses.join(', ')}`,
      () => `${ex.status}`,
      ex,
    );
    if (ok && verdict.statusDocumented) {
      checker.check(
        'document.body-matches-schema',
        verdict.bodyProblems.length === 0,
        () => `${op.key} ${ex.status} (documented as ${verdict.documentedAs}): a body that matches ${verdict.schemaPath ?? 'the documented content'}`,
        () => verdict.bodyProblems.join('; '),
        ex,
      );
    }
  }

  // The meaning of the system fields of the run's own entities.
  if (isVersionRead(path)) return;
  for (const entity of ownEntities(ex, ctx.runPrefix)) {
    const id = String(entity.id);
    const at = entity.updatedAt;
    const now = Date.now();
    const inRun = typeof at === 'number' && Number.isInteger(at) && at >= ctx.startedAt - CLOCK_TOLERANCE_MS && at <= now + CLOCK_TOLERANCE_MS;
    checker.check(
      'meaning.updated-at-epoch-ms',
      inRun,
      () =>
        `updatedAt of ${String(entity.fullyQualifiedName ?? id)}: epoch milliseconds between the run's start and now (±${CLOCK_TOLERANCE_MS / 60_000} min), i.e. ${ctx.startedAt - CLOCK_TOLERANCE_MS}..${now + CLOCK_TOLERANCE_MS}`,
      () => `updatedAt ${JSON.stringify(at)}${typeof at === 'number' ? ` (${describeOffset(at, now)})` : ''}`,
      ex,
    );
    if (typeof at === 'number') {
      const last = ctx.lastUpdatedAt.get(id);
      checker.check(
        'meaning.updated-at-monotonic',
        last === undefined || at >= last,
        () => `updatedAt of ${String(entity.fullyQualifiedName ?? id)} never going back: at least ${last}, seen before`,
        () => `updatedAt ${at}, ${last === undefined ? '' : `${last - at} ms earlier than before`}`,
        ex,
      );
      if (last === undefined || at > last) ctx.lastUpdatedAt.set(id, at);
    }
    if (ctx.userName === null) {
      checker.note(
        'meaning.updated-by-token-user',
        'not exercised: the target did not tell the name of the token user (GET /v1/users/loggedInUser), nor is the token a JWT with a sub',
      );
    } else {
      checker.check(
        'meaning.updated-by-token-user',
        entity.updatedBy === ctx.userName,
        () => `updatedBy of ${String(entity.fullyQualifiedName ?? id)}: ${ctx.userName}, the user of the token that made every change`,
        () => `updatedBy ${JSON.stringify(entity.updatedBy)}`,
        ex,
      );
    }
  }
}

function describeOffset(at: number, now: number): string {
  const minutes = Math.round((at - now) / 60_000);
  if (at < 1e11) return `${new Date(at * 1000).toISOString()} if read as seconds`;
  return minutes === 0 ? 'now' : `${Math.abs(minutes)} min ${minutes < 0 ? 'ago' : 'ahead'}`;
}
