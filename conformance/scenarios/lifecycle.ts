/** Walks through the entity lifecycle rules over every kind the target serves. */
import { BAD_TOKENS, BadTokenCommand, RESTRICTED_OPS, RestrictedCommand } from '../commands/auth.ts';
import { drivenKinds } from '../commands/base.ts';
import { duplicateCreate } from '../commands/create.ts';
import { hardDeleteEntity, restoreEntity, softDeleteEntity } from '../commands/delete.ts';
import { INVALID_VARIANTS, InvalidBodyCommand, UNKNOWN_OPS, UnknownIdCommand } from '../commands/negative.ts';
import { patchEntity } from '../commands/history.ts';
import { verifyState } from '../commands/read.ts';
import { followAndCheck, voteAndCheck } from '../commands/social.ts';
import { bulkUpsert, upsertExisting } from '../commands/upsert.ts';
import { KINDS, type Kind } from '../kinds.ts';
import type { Model, ModelEntity } from '../model.ts';
import { createEntity, parentFor } from '../ops.ts';
import type { Session } from '../session.ts';
import type { Scenario } from './support.ts';

async function make(s: Session, m: Model, kind: Kind, parent?: ModelEntity | null): Promise<ModelEntity | undefined> {
  const p = parent === undefined ? await parentFor(s, m, kind, 0, false) : parent;
  if (p === undefined) return undefined;
  return (await createEntity(s, m, kind, p)).entity;
}

export const createAndUniqueness: Scenario = {
  name: 'create-read-uniqueness',
  rules: [
    'create.returns-fields',
    'create.fqn-derived',
    'read.get-by-id-and-name-agree',
    'uniqueness.duplicate-post-409-service',
    'uniqueness.duplicate-post-409-child',
    'uniqueness.duplicate-post-409-nested',
    'uniqueness.duplicate-post-409-classification',
    'uniqueness.same-name-in-other-scope-allowed',
    'errors.body-shape',
    'side-effects.rejected-request-changes-nothing',
    'create.fqn-quotes-dotted-names',
    'create.location-names-entity',
    'meaning.href-resolves',
  ],
  async run(s, m) {
    for (const kind of drivenKinds(s)) await make(s, m, kind);
    const container = m.entities.find((e) => e.kind.id === 'container');
    const nested = container ? await make(s, m, KINDS.container, container) : undefined;
    // Names with a dot are quoted in fully qualified names: "a.b", "a.b"."c.d".
    const { entity: dotted } = await createEntity(s, m, KINDS.storageService, null, { name: `${m.freshName('ss')}.v1` });
    if (dotted) await createEntity(s, m, KINDS.container, dotted, { name: `${m.freshName('c')}.v2` });
    for (const e of [...m.entities]) await verifyState(s, e, m.entities.indexOf(e) % 2 === 1);
    const service = m.entities.find((e) => e.kind.role === 'service');
    const child = m.entities.find((e) => e.kind.role === 'child' && e.parent?.kind.role === 'service');
    const classification = m.entities.find((e) => e.kind.role === 'classification');
    for (const e of [service, child, nested, classification]) if (e) await duplicateCreate(s, m, e);
    // A soft-deleted entity still holds its name.
    const leaf = m.entities.find((e) => e.kind.role === 'child' && e !== container && m.children(e).length === 0);
    if (leaf) {
      await softDeleteEntity(s, m, leaf, false, false);
      await duplicateCreate(s, m, leaf);
    }
    // The scope of a child name is its parent.
    if (container?.parent) {
      const other = await make(s, m, container.parent.kind, null);
      if (other) {
        await createEntity(s, m, KINDS.container, other, { name: container.name, rule: 'uniqueness.same-name-in-other-scope-allowed' });
      }
    }
  },
};

export const upsertAndBulk: Scenario = {
  name: 'upsert-and-bulk',
  rules: [
    'upsert.creates',
    'upsert.updates-in-place',
    'upsert.idempotent',
    'upsert.never-409',
    'upsert.restores-soft-deleted',
    'bulk.upserts-each',
    'create.location-names-entity',
    'versions.arithmetic',
  ],
  async run(s, m) {
    const service = await make(s, m, KINDS.storageService, null);
    if (!service) return;
    const created = await createEntity(s, m, KINDS.container, service, { method: 'PUT', rule: 'upsert.creates', checkFqn: false });
    await createEntity(s, m, KINDS.classification, null, { method: 'PUT', rule: 'upsert.creates', checkFqn: false });
    const c = created.entity ?? (await make(s, m, KINDS.container, service));
    if (c) {
      await upsertExisting(s, m, c, 'same');
      await upsertExisting(s, m, c, 'change');
      await upsertExisting(s, m, c, 'same');
      await softDeleteEntity(s, m, c, false, false);
      await upsertExisting(s, m, c, 'deleted');
      await verifyState(s, c, true);
    }
    for (const kind of drivenKinds(s, (k) => k.bulk)) {
      const parent = await parentFor(s, m, kind, 0, false);
      if (parent === undefined) continue;
      const existing = m.entities.filter((e) => e.kind === kind && e.state === 'active').slice(0, 1);
      await bulkUpsert(s, m, kind, parent, 2, existing);
    }
  },
};

export const deleteAndRestore: Scenario = {
  name: 'delete-and-restore',
  rules: [
    'soft-delete.marks-deleted',
    'soft-delete.version-rises',
    'soft-delete.hidden-by-default',
    'soft-delete.visible-with-include',
    'restore.reactivates',
    'restore.brings-back-children',
    'hard-delete.status',
    'hard-delete.gone-everywhere',
    'delete.non-recursive-parent-400',
    'delete.recursive-cascades',
    'read.get-by-id-and-name-agree',
    'side-effects.rejected-request-changes-nothing',
    'patch.failed-test-applies-nothing',
  ],
  async run(s, m) {
    const svc = await make(s, m, KINDS.storageService, null);
    if (!svc) return;
    const c1 = await make(s, m, KINDS.container, svc);
    const c2 = c1 ? await make(s, m, KINDS.container, c1) : undefined;
    if (!c1 || !c2) return;
    await patchEntity(s, m, c1, 'failedTest', false);
    await softDeleteEntity(s, m, svc, false, false); // refused: has children
    await hardDeleteEntity(s, m, svc, true, false); // refused: has children
    await softDeleteEntity(s, m, c2, true, false);
    await verifyState(s, c2, false);
    await verifyState(s, c2, true);
    await restoreEntity(s, m, c2);
    await verifyState(s, c2, false);
    await softDeleteEntity(s, m, svc, true, true);
    for (const e of [svc, c1, c2]) await verifyState(s, e, false);
    await restoreEntity(s, m, svc);
    for (const e of [svc, c1, c2]) await verifyState(s, e, true);
    await hardDeleteEntity(s, m, c2, true, false);
    await verifyState(s, c2, false);
    await hardDeleteEntity(s, m, svc, false, true);
    await verifyState(s, c1, true);
    // Every other kind: soft delete, restore, hard delete of a soft-deleted entity.
    for (const kind of drivenKinds(s, (k) => k.id !== 'storageService' && k.id !== 'container')) {
      const e = await make(s, m, kind);
      if (!e || e.kind.role === 'service') continue;
      await softDeleteEntity(s, m, e, true, false);
      await restoreEntity(s, m, e);
      await softDeleteEntity(s, m, e, false, false);
      await hardDeleteEntity(s, m, e, false, false);
    }
  },
};

export const errorsAndAuth: Scenario = {
  name: 'errors-and-auth',
  rules: [
    'not-found.unknown-id',
    'not-found.unknown-name',
    'validation.invalid-body-400',
    'errors.body-shape',
    'auth.missing-token-401',
    'auth.invalid-token-401',
    'auth.restricted-token-403',
    'side-effects.rejected-request-changes-nothing',
  ],
  async run(s, m) {
    const svc = await make(s, m, KINDS.storageService, null);
    const container = svc ? await make(s, m, KINDS.container, svc) : undefined;
    await make(s, m, KINDS.dashboard);
    const uuids = ['7b2c4e1a-0000-4000-8000-00000000c0de', '7b2c4e1a-0000-4000-8000-00000000beef'];
    const kinds = drivenKinds(s);
    for (const [i, op] of UNKNOWN_OPS.entries()) {
      await new UnknownIdCommand(op, i, uuids[i % 2] ?? '').run(m, s);
    }
    for (const [i, variant] of INVALID_VARIANTS.entries()) {
      for (const kindIndex of [0, 1, 7]) await new InvalidBodyCommand(variant, kindIndex, i, i % 2 === 1, false).run(m, s);
    }
    if (container) {
      const index = kinds.indexOf(KINDS.container);
      await new InvalidBodyCommand('missingParentOrType', index, 0, true, true).run(m, s);
    }
    for (const [i, variant] of BAD_TOKENS.entries()) {
      await new BadTokenCommand(variant, false, i).run(m, s);
      await new BadTokenCommand(variant, true, i).run(m, s);
    }
    for (const [i, op] of RESTRICTED_OPS.entries()) await new RestrictedCommand(op, i).run(m, s);
  },
};

export const followersAndVotes: Scenario = {
  name: 'followers-and-votes',
  rules: ['followers.consistent', 'votes.consistent'],
  async run(s, m) {
    for (const kind of drivenKinds(s, (k) => k.followable || k.votable)) {
      const e = await make(s, m, kind);
      if (!e) continue;
      if (kind.followable) {
        await followAndCheck(s, e, true);
        await followAndCheck(s, e, true);
        await followAndCheck(s, e, false);
      }
      if (kind.votable) {
        for (const vote of ['votedUp', 'votedDown', 'unVoted'] as const) await voteAndCheck(s, e, vote);
      }
    }
  },
};
