/**
 * Every operation of the kinds the interface names, once per run whatever the seed, each answer
 * checked by the rule about what the operation does: create (POST and PUT), list with cursor
 * paging, GET by id and by name, PATCH by id and by name, bulk, followers, votes, soft delete by
 * name and by id, versions, restore, asynchronous delete, hard delete (conformance/coverage.ts counts
 * them).
 */
import { patchEntity, checkHistory } from '../commands/history.ts';
import { checkPagingOnly, checkScopeListing } from '../commands/list.ts';
import { hardDeleteEntity, restoreEntity, softDeleteEntity } from '../commands/delete.ts';
import { verifyState } from '../commands/read.ts';
import { followAndCheck, voteAndCheck } from '../commands/social.ts';
import { bulkUpsert, upsertExisting } from '../commands/upsert.ts';
import { asObject } from '../http.ts';
import { KINDS, type Kind, type KindId } from '../kinds.ts';
import { describe, nextVersion, sameVersion, type Model, type ModelEntity } from '../model.ts';
import { createEntity, readEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import type { Scenario } from './support.ts';

/** The kinds of the interface's "Create, upsert and bulk upsert" table (data contracts: conformance/scenarios/tables.ts). */
const INTERFACE_KINDS: readonly KindId[] = ['storageService', 'mlmodelService', 'container', 'dashboard', 'database', 'classification'];

/** Whether the document the run checks against has the operation (a target's own may lack some). */
function documents(s: Session, method: string, path: string): boolean {
  return s.ctx.document.operations.some((op) => op.method === method && op.path === path);
}

/** Follows and unfollows, votes up and takes it back, where the document has the operations. */
async function followAndVote(s: Session, e: ModelEntity): Promise<void> {
  if (documents(s, 'PUT', `${e.kind.path}/{id}/followers`) && s.ctx.userId) {
    if (await followAndCheck(s, e, true)) e.following = true;
    if (await followAndCheck(s, e, false)) e.following = false;
  }
  if (documents(s, 'PUT', `${e.kind.path}/{id}/vote`)) {
    if (await voteAndCheck(s, e, 'votedUp')) e.vote = 'votedUp';
    if (await voteAndCheck(s, e, 'unVoted')) e.vote = 'unVoted';
  }
}

/**
 * The whole life of `e`, through every operation its collection has: `created` is the entity the
 * run just made (POST), `parent` what bulk items go under.
 */
export async function everyOperation(s: Session, m: Model, e: ModelEntity, parent: ModelEntity | null): Promise<void> {
  const kind = e.kind;
  // Read by id and by name; list.
  await verifyState(s, e, false);
  if (kind.role === 'child' && parent) await checkScopeListing(s, m, parent, kind, 'all', 1);
  else await checkPagingOnly(s, kind, 2);
  // PATCH by id (a change) and by name (no change); PUT (no change, then a change).
  await patchEntity(s, m, e, 'change', false);
  await patchEntity(s, m, e, 'same', true);
  await upsertExisting(s, m, e, 'same');
  await upsertExisting(s, m, e, 'change');
  if (documents(s, 'PUT', `${kind.path}/bulk`)) await bulkUpsert(s, m, kind, parent, 1, [e]);
  await followAndVote(s, e);
  // Soft delete by name, what a soft-deleted entity answers, its history; restore; soft delete by id; hard delete by name.
  await softDeleteEntity(s, m, e, true, false);
  await verifyState(s, e, true);
  if (kind.role === 'child' && parent) await checkScopeListing(s, m, parent, kind, 'deleted', 2);
  await patchEntity(s, m, e, 'softDeleted', false);
  await checkHistory(s, e, 1);
  await restoreEntity(s, m, e);
  await patchEntity(s, m, e, 'patchDeleted', true);
  await softDeleteEntity(s, m, e, false, false);
  // The asynchronous soft delete (docs/behaviour.md "Asynchronous delete"), then a hard delete by name.
  if (documents(s, 'DELETE', `${kind.path}/async/{id}`)) {
    await restoreEntity(s, m, e);
    await asyncSoftDelete(s, e);
  }
  await hardDeleteEntity(s, m, e, true, false);
}

/** How long a target gets to carry out an asynchronous delete it answered 202 (or --settle-timeout). */
const ASYNC_PATIENCE_MS = 5000;

/**
 * `DELETE <collection>/async/{id}` of the active `e`: 202 with a jobId, then (as soon as the target
 * has run the job) `e` is soft-deleted, version +0.1 (rule delete.async).
 */
async function asyncSoftDelete(s: Session, e: ModelEntity): Promise<void> {
  const rule = 'delete.async';
  const c = s.checker;
  const path = `${e.kind.path}/async/${e.id}`;
  const ex = await s.send({ method: 'DELETE', path, query: { hardDelete: false, recursive: false } });
  if (!c.status(rule, ex, [202], `DELETE ${path}`)) {
    if (ex.status < 300) e.state = 'limbo';
    return;
  }
  const job = asObject(ex.json);
  c.check(rule, typeof job?.jobId === 'string' && job.jobId !== '', `DELETE ${path}: a job with its jobId`, () => ex.responseText.slice(0, 300), ex);
  const expected = nextVersion(e.version);
  const deadline = Date.now() + (s.ctx.settleTimeoutMs ?? ASYNC_PATIENCE_MS);
  let read = await readEntity(s, e, { by: 'id', include: 'all' });
  while (asObject(read.json)?.deleted !== true && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    read = await readEntity(s, e, { by: 'id', include: 'all' });
  }
  const got = asObject(read.json);
  const ok = c.check(
    rule,
    read.status === 200 && got?.deleted === true && (expected === null || sameVersion(got.version, expected)),
    `after the 202 of DELETE ${path}: ${describe(e)} soft-deleted${expected === null ? '' : `, version ${expected}`}`,
    () => `${read.status} deleted ${JSON.stringify(got?.deleted)} version ${JSON.stringify(got?.version)}`,
    read,
  );
  e.state = ok ? 'deleted' : 'limbo';
  e.version = typeof got?.version === 'number' ? got.version : null;
}

/** The rules everyOperation checks. */
export const EVERY_OPERATION_RULES: readonly string[] = [
  'create.returns-fields',
  'create.location-names-entity',
  'meaning.href-resolves',
  'read.get-by-id-and-name-agree',
  'list.cursor-paging',
  'list.include-filter',
  'patch.applies',
  'versions.arithmetic',
  'versions.history',
  'upsert.idempotent',
  'upsert.updates-in-place',
  'bulk.upserts-each',
  'followers.consistent',
  'votes.consistent',
  'soft-delete.marks-deleted',
  'soft-delete.hidden-by-default',
  'soft-delete.visible-with-include',
  'restore.reactivates',
  'hard-delete.status',
  'delete.async',
  'hard-delete.gone-everywhere',
  'side-effects.rejected-request-changes-nothing',
  'errors.body-shape',
];

export const everyOperationOfTheInterface: Scenario = {
  name: 'every-operation',
  rules: EVERY_OPERATION_RULES,
  async run(s, m) {
    for (const id of INTERFACE_KINDS) {
      const kind: Kind = KINDS[id];
      if (!s.ctx.available.has(id)) continue;
      // A fresh service for each child kind, with a second child so the list has two pages.
      const parent = kind.serviceKind ? ((await createEntity(s, m, KINDS[kind.serviceKind], null)).entity ?? null) : null;
      if (kind.serviceKind && !parent) continue;
      const { entity } = await createEntity(s, m, kind, parent);
      if (!entity) continue;
      if (parent) await createEntity(s, m, kind, parent);
      await everyOperation(s, m, entity, parent);
    }
    // A major change: an ML model's algorithm (docs/behaviour.md "Versions").
    if (s.ctx.available.has('mlmodel')) {
      const service = (await createEntity(s, m, KINDS.mlmodelService, null)).entity;
      const model = service ? (await createEntity(s, m, KINDS.mlmodel, service)).entity : undefined;
      if (model) {
        await patchEntity(s, m, model, 'major', false);
        await checkHistory(s, model, 0);
      }
    }
  },
};
