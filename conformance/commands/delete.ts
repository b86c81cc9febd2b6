import type { Exchange } from '../http.ts';
import { asObject } from '../http.ts';
import { describe, nextVersion, sameVersion, type Model, type ModelEntity } from '../model.ts';
import { entityPath, readEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import { expectUnchanged, subtree } from '../side-effects.ts';
import { BaseCommand } from './base.ts';

/** How many children a delete or restore spot-checks (keeps sequences short). */
const SPOT_CHECKS = 2;

interface DeletePlan {
  recursive: boolean;
  /** The target has active children and recursive is false: the target must refuse (400). */
  refuse: boolean;
}

function plan(m: Model, e: ModelEntity, recursive: boolean): DeletePlan {
  const children = m.children(e).filter((c) => c.state !== 'gone');
  if (children.length === 0) return { recursive, refuse: false };
  if (recursive) return { recursive: true, refuse: false };
  // Only soft-deleted (or unknown) children: whether they count is not pinned, so delete recursively.
  if (!children.some((c) => c.state === 'active')) return { recursive: true, refuse: false };
  return { recursive: false, refuse: true };
}

function markLimbo(entities: ModelEntity[]): void {
  for (const e of entities) if (e.state !== 'gone') e.state = 'limbo';
}

function deleteRequest(s: Session, e: ModelEntity, byName: boolean, hard: boolean, recursive: boolean) {
  const useName = byName && (!recursive || s.ctx.exp.recursiveDeleteByName);
  return s.send({
    method: 'DELETE',
    path: entityPath(e, useName ? 'name' : 'id'),
    query: { hardDelete: hard ? true : undefined, recursive: recursive ? true : undefined },
  });
}

/** The non-recursive delete of a parent with active children must be refused, changing nothing. */
async function checkRefused(s: Session, m: Model, e: ModelEntity, hard: boolean, ex: Exchange): Promise<void> {
  const rule = 'delete.non-recursive-parent-400';
  const refused = s.expectError(rule, ex, 400, `${hard ? 'hard' : 'soft'} DELETE of ${describe(e)} that has children, without recursive`);
  if (!refused) {
    if (ex.status < 300) markLimbo([e, ...m.descendants(e)]);
    return;
  }
  const after = await readEntity(s, e, { by: 'id', include: 'all' });
  const body = asObject(after.json);
  s.checker.check(
    rule,
    after.status === 200 && body?.deleted === (e.state === 'deleted') && sameVersion(body?.version, e.version),
    `${describe(e)} unchanged after the refused delete (deleted ${e.state === 'deleted'}, version ${e.version})`,
    () => `${after.status} deleted ${JSON.stringify(body?.deleted)} version ${JSON.stringify(body?.version)}`,
    after,
  );
  await expectUnchanged(s, m, ex, subtree(m, e));
}

/** Soft-deletes `e` (active, ancestors active) and checks answer and cascade. Returns a description. */
export async function softDeleteEntity(s: Session, m: Model, e: ModelEntity, byName: boolean, recursiveWanted: boolean): Promise<string> {
  const { recursive, refuse } = plan(m, e, recursiveWanted);
  const label = `${describe(e)}${recursive ? ' recursive' : ''}${refuse ? ' (has children: 400)' : ''}`;
  const ex = await deleteRequest(s, e, byName, false, recursive);
  if (refuse) {
    await checkRefused(s, m, e, false, ex);
    return label;
  }
  const c = s.checker;
  const body = asObject(ex.json);
  const ok =
    c.status('soft-delete.marks-deleted', ex, [200], `soft DELETE of ${describe(e)}`) &&
    c.check(
      'soft-delete.marks-deleted',
      body?.deleted === true && body?.id === e.id,
      `the entity ${e.id} with deleted true`,
      () => `id ${JSON.stringify(body?.id)} deleted ${JSON.stringify(body?.deleted)}`,
      ex,
    );
  if (!ok) {
    markLimbo([e, ...m.descendants(e)]);
    return label;
  }
  const expected = nextVersion(e.version);
  c.check('soft-delete.version-rises', sameVersion(body?.version, expected), `version ${expected} (+0.1)`, () => `version ${JSON.stringify(body?.version)}`, ex);
  e.state = 'deleted';
  e.version = expected;
  e.deletedWith = null;
  const cascaded: { d: ModelEntity; expected: number | null }[] = [];
  for (const d of m.descendants(e)) {
    if (d.state !== 'active') continue;
    cascaded.push({ d, expected: nextVersion(d.version) });
    d.state = 'deleted';
    d.version = null;
    d.deletedWith = e;
  }
  for (const { d, expected: dExpected } of cascaded.slice(0, SPOT_CHECKS)) {
    const hidden = await readEntity(s, d, { by: 'id' });
    s.expectError('delete.recursive-cascades', hidden, 404, `GET ${describe(d)} after the recursive soft delete of ${describe(e)}`);
    const shown = await readEntity(s, d, { by: 'id', include: 'deleted' });
    const b = asObject(shown.json);
    c.check(
      'delete.recursive-cascades',
      shown.status === 200 && b?.deleted === true,
      `GET ${describe(d)}?include=deleted: 200 deleted true`,
      () => `${shown.status} deleted ${JSON.stringify(b?.deleted)}`,
      shown,
    );
    followVersion(s, d, dExpected, shown, `${describe(d)}, deleted with ${describe(e)}: version ${dExpected} (+0.1)`);
  }
  return label;
}

/**
 * Checks the version a read shows against the one a cascade should have given (rule
 * versions.arithmetic), then takes what the target says as the model's version.
 */
function followVersion(s: Session, d: ModelEntity, expected: number | null, read: Exchange, what: string): void {
  const version = asObject(read.json)?.version;
  if (read.status !== 200) return;
  if (expected !== null) s.checker.check('versions.arithmetic', sameVersion(version, expected), what, () => `version ${JSON.stringify(version)}`, read);
  d.version = typeof version === 'number' ? version : null;
}

/** Hard-deletes `e` (active or soft-deleted) and checks answer, disappearance and cascade. */
export async function hardDeleteEntity(s: Session, m: Model, e: ModelEntity, byName: boolean, recursiveWanted: boolean): Promise<string> {
  const { recursive, refuse } = plan(m, e, recursiveWanted);
  const label = `${describe(e)} (${e.state})${recursive ? ' recursive' : ''}${refuse ? ' (has children: 400)' : ''}`;
  const ex = await deleteRequest(s, e, byName, true, recursive);
  if (refuse) {
    await checkRefused(s, m, e, true, ex);
    return label;
  }
  const c = s.checker;
  const exp = s.ctx.exp.hardDelete;
  const what = `hard DELETE of ${describe(e)}`;
  let ok = c.status('hard-delete.status', ex, [exp.status], what);
  if (ok) {
    ok =
      exp.body === 'none'
        ? c.check('hard-delete.status', ex.responseText.length === 0, `${what}: no body`, () => ex.responseText, ex)
        : c.check('hard-delete.status', asObject(ex.json)?.id === e.id, `${what}: the deleted entity`, () => ex.responseText, ex);
  }
  if (!ok && !(ex.status >= 200 && ex.status < 300)) {
    markLimbo([e, ...m.descendants(e)]);
    return label;
  }
  const removed = [e, ...m.existingDescendants(e)];
  for (const d of removed) d.state = 'gone';
  const again = await readEntity(s, e, { by: 'id', include: 'all' });
  s.expectError('hard-delete.gone-everywhere', again, 404, `GET ${describe(e)}?include=all after its hard delete`);
  const restore = await s.send({ method: 'PUT', path: `${e.kind.path}/restore`, body: { id: e.id } });
  s.expectError('hard-delete.gone-everywhere', restore, 404, `restore of hard-deleted ${describe(e)}`);
  const second = await s.send({ method: 'DELETE', path: entityPath(e, 'id'), query: { hardDelete: true } });
  s.expectError('hard-delete.gone-everywhere', second, 404, `second hard DELETE of ${describe(e)}`);
  for (const d of removed.slice(1, 1 + SPOT_CHECKS)) {
    const r = await readEntity(s, d, { by: 'id', include: 'all' });
    s.expectError('delete.recursive-cascades', r, 404, `GET ${describe(d)}?include=all after the recursive hard delete of ${describe(e)}`);
  }
  return label;
}

/** Restores `e` (soft-deleted, ancestors active) and checks it and the children deleted with it. */
export async function restoreEntity(s: Session, m: Model, e: ModelEntity): Promise<string> {
  const c = s.checker;
  const rule = 'restore.reactivates';
  const ex = await s.send({ method: 'PUT', path: `${e.kind.path}/restore`, body: { id: e.id } });
  const body = asObject(ex.json);
  const expected = nextVersion(e.version);
  const ok =
    c.status(rule, ex, [200], `restore of ${describe(e)}`) &&
    c.check(
      rule,
      body?.id === e.id && body?.deleted === false && sameVersion(body?.version, expected),
      `the entity with deleted false and version ${expected}`,
      () => `id ${JSON.stringify(body?.id)} deleted ${JSON.stringify(body?.deleted)} version ${JSON.stringify(body?.version)}`,
      ex,
    );
  if (!ok) {
    markLimbo([e, ...m.descendants(e)]);
    return describe(e);
  }
  e.state = 'active';
  e.version = expected;
  const back = await readEntity(s, e, { by: 'id' });
  c.status(rule, back, [200], `GET ${describe(e)} after its restore`);
  const restored: { d: ModelEntity; expected: number | null }[] = [];
  for (const d of m.descendants(e)) {
    if (d.state !== 'deleted' && d.state !== 'limbo') continue;
    if (d.deletedWith === e) {
      restored.push({ d, expected: d.state === 'deleted' ? nextVersion(d.version) : null });
      d.state = 'active';
      d.version = null;
      d.deletedWith = null;
    } else {
      // Deleted on its own before: whether restoring the parent brings it back is not pinned.
      d.state = 'limbo';
    }
  }
  for (const { d, expected: dExpected } of restored.slice(0, SPOT_CHECKS)) {
    const r = await readEntity(s, d, { by: 'id' });
    const b = asObject(r.json);
    c.check(
      'restore.brings-back-children',
      r.status === 200 && b?.deleted === false,
      `GET ${describe(d)} (deleted with ${describe(e)}): 200 deleted false`,
      () => `${r.status} ${r.responseText.slice(0, 200)}`,
      r,
    );
    followVersion(s, d, dExpected, r, `${describe(d)}, restored with ${describe(e)}: version ${dExpected} (+0.1)`);
  }
  return describe(e);
}

abstract class PositionedDelete extends BaseCommand {
  constructor(
    readonly pos: number,
    readonly byName: boolean,
    readonly recursive: boolean,
  ) {
    super();
  }
  protected args() {
    return [this.pos, this.byName, this.recursive];
  }
  protected abstract target(m: Readonly<Model>): ModelEntity | undefined;
  override check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }
}

/** DELETE without hardDelete: soft delete (or 400 for a parent with active children, non-recursive). */
export class SoftDeleteCommand extends PositionedDelete {
  readonly label = 'softDelete';
  protected target(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.state === 'active' && m.ancestorsActive(e));
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (e) this.resolved = await softDeleteEntity(s, m, e, this.byName, this.recursive);
  }
}

/** DELETE with hardDelete=true (or 400 for a parent with active children, non-recursive). */
export class HardDeleteCommand extends PositionedDelete {
  readonly label = 'hardDelete';
  protected target(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.state === 'active' || e.state === 'deleted');
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (e) this.resolved = await hardDeleteEntity(s, m, e, this.byName, this.recursive);
  }
}

/** PUT <prefix>/restore {id} of a soft-deleted entity whose parent is active. */
export class RestoreCommand extends BaseCommand {
  readonly label = 'restore';
  constructor(readonly pos: number) {
    super();
  }
  protected args() {
    return [this.pos];
  }
  private target(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.state === 'deleted' && m.ancestorsActive(e));
  }
  override check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (e) this.resolved = await restoreEntity(s, m, e);
  }
}
