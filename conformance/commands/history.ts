/**
 * PATCH (rule patch.applies, with its versions under versions.arithmetic) and the version history
 * (rule versions.history): what an entity became, and what it was.
 */
import { asArray, asObject } from '../http.ts';
import { describe, nextVersion, sameVersion, type Model, type ModelEntity } from '../model.ts';
import { entityPath, readEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import { expectUnchanged, scopeOf } from '../side-effects.ts';
import { BaseCommand } from './base.ts';

export type PatchVariant = 'change' | 'same' | 'major' | 'patchDeleted' | 'softDeleted' | 'failedTest';

export const PATCH_VARIANTS: readonly PatchVariant[] = ['change', 'same', 'major', 'patchDeleted', 'softDeleted', 'failedTest'];

/** Fields whose change is a major one, by kind (docs/behaviour.md "Versions"). */
const MAJOR_FIELDS: Partial<Record<string, { field: string; value: (old: unknown) => unknown }>> = {
  mlmodel: { field: 'algorithm', value: (old) => `${String(old ?? 'custom')}-v2` },
};

const round1 = (v: number) => Math.round(v * 10) / 10;

/** Which entity a variant applies to: a major change needs a kind that has one; a soft-deleted one for `softDeleted`. */
function patchTarget(m: Readonly<Model>, variant: PatchVariant, pos: number): ModelEntity | undefined {
  if (variant === 'softDeleted') return m.pick(pos, (e) => e.state === 'deleted');
  if (variant === 'major') return m.pick(pos, (e) => e.state === 'active' && MAJOR_FIELDS[e.kind.id] !== undefined);
  return m.pick(pos, (e) => e.state === 'active' && m.ancestorsActive(e));
}

/**
 * PATCHes `e` by id or by name and checks the answer, a later read (patch.applies) and the version
 * (versions.arithmetic: +0.1, unchanged for a patch that changes nothing, +1.0 for a major change).
 * A patch of `deleted`, or of a soft-deleted entity, is refused (400, 404) and changes nothing.
 */
export async function patchEntity(s: Session, m: Model, e: ModelEntity, variant: PatchVariant, byName: boolean): Promise<string> {
  const c = s.checker;
  const rule = 'patch.applies';
  const major = MAJOR_FIELDS[e.kind.id];
  let ops: unknown[];
  let changes: Record<string, unknown> = {};
  switch (variant) {
    case 'change':
    case 'softDeleted':
      changes = { description: `${String(e.body.description ?? '')} (patched)` };
      ops = [{ op: 'add', path: '/description', value: changes.description }];
      break;
    case 'same':
      ops = [{ op: 'add', path: '/description', value: e.body.description ?? '' }];
      break;
    case 'major':
      if (!major) return `${describe(e)}: no major change known for its kind`;
      changes = { [major.field]: major.value(e.body[major.field]) };
      ops = [{ op: 'add', path: `/${major.field}`, value: changes[major.field] }];
      break;
    case 'patchDeleted':
      ops = [{ op: 'replace', path: '/deleted', value: true }];
      break;
    case 'failedTest':
      // A change, then a test that fails: RFC 6902 section 5 stops the whole patch.
      ops = [
        { op: 'add', path: '/description', value: `${String(e.body.description ?? '')} (must not be applied)` },
        { op: 'test', path: '/name', value: `${e.name}-not-its-name` },
      ];
      break;
  }
  const ex = await s.send({
    method: 'PATCH',
    path: entityPath(e, byName ? 'name' : 'id'),
    body: ops,
    contentType: 'application/json-patch+json',
  });
  const what = `PATCH ${describe(e)} by ${byName ? 'name' : 'id'} (${variant}: ${JSON.stringify(ops)})`;
  const label = `${describe(e)} ${variant} by ${byName ? 'name' : 'id'}`;
  if (variant === 'failedTest') {
    const failed = 'patch.failed-test-applies-nothing';
    if (!s.expectError(failed, ex, 400, `${what}: the test fails`)) {
      if (ex.status < 300) e.version = null;
      return label;
    }
    const after = await readEntity(s, e, { by: 'id' });
    const now = asObject(after.json);
    c.check(
      failed,
      after.status === 200 && now?.description === (e.body.description ?? now?.description) && sameVersion(now?.version, e.version),
      `${describe(e)} as before the refused patch: description ${JSON.stringify(e.body.description)}, version ${e.version}`,
      () => `${after.status} description ${JSON.stringify(now?.description)}, version ${JSON.stringify(now?.version)}`,
      after,
    );
    return label;
  }
  if (variant === 'patchDeleted' || variant === 'softDeleted') {
    const status = variant === 'patchDeleted' ? 400 : 404;
    s.expectError(rule, ex, status, `${what}${variant === 'softDeleted' ? ' of a soft-deleted entity' : ''}`);
    if (ex.status === status) await expectUnchanged(s, m, ex, { entities: [e], scopes: scopeOf(e) });
    else if (ex.status < 300) e.version = null;
    return label;
  }
  const body = asObject(ex.json);
  const ok =
    c.status(rule, ex, [200], what) &&
    c.check(
      rule,
      body?.id === e.id && Object.entries(changes).every(([k, v]) => body?.[k] === v),
      `${what}: the entity ${e.id} with ${JSON.stringify(changes)}`,
      () =>
        `id ${JSON.stringify(body?.id)} ${Object.keys(changes)
          .map((k) => `${k} ${JSON.stringify(body?.[k])}`)
          .join(' ')}`,
      ex,
    );
  if (!ok) {
    e.version = null;
    return label;
  }
  const expected = e.version === null ? null : variant === 'same' ? e.version : variant === 'major' ? round1(e.version + 1) : nextVersion(e.version);
  if (expected !== null) {
    c.check(
      'versions.arithmetic',
      sameVersion(body?.version, expected),
      `${what}: version ${expected} (${variant === 'same' ? 'unchanged: nothing changed' : variant === 'major' ? '+1.0: a major change' : '+0.1'})`,
      () => `version ${JSON.stringify(body?.version)}`,
      ex,
    );
  }
  e.version = typeof body?.version === 'number' ? body.version : null;
  Object.assign(e.body, changes);
  if (Object.keys(changes).length > 0) {
    const read = await readEntity(s, e, { by: byName ? 'id' : 'name' });
    const got = asObject(read.json);
    c.check(
      rule,
      read.status === 200 && Object.entries(changes).every(([k, v]) => got?.[k] === v),
      `GET ${describe(e)} after the PATCH shows ${JSON.stringify(changes)}`,
      () =>
        `${read.status} ${Object.keys(changes)
          .map((k) => `${k} ${JSON.stringify(got?.[k])}`)
          .join(' ')}`,
      read,
    );
  }
  return label;
}

/** Version numbers step by 0.1 (minor) or 1.0 (major). */
const isStep = (newer: number, older: number) => [0.1, 1].some((d) => Math.abs(newer - older - d) < 1e-9);

/**
 * GET <collection>/{id}/versions: every version of `e`, newest first, the first being the current
 * one (by the model, or a read), the last 0.1, each step +0.1 or +1.0; /versions/{v} answers the
 * entity as it was at v; an unknown version gives 404.
 */
export async function checkHistory(s: Session, e: ModelEntity, pick: number): Promise<void> {
  const rule = 'versions.history';
  const c = s.checker;
  if (e.state !== 'active' && e.state !== 'deleted') return;
  const base = `${e.kind.path}/${e.id}/versions`;
  const ex = await s.send({ method: 'GET', path: base });
  if (!c.status(rule, ex, [200], `GET ${base} of ${describe(e)}`)) return;
  const raw = asArray(asObject(ex.json)?.versions) ?? [];
  const snapshots = raw.map((v) => {
    try {
      return asObject(typeof v === 'string' ? JSON.parse(v) : v);
    } catch {
      return undefined;
    }
  });
  const versions = snapshots.map((v) => v?.version);
  let current = e.version;
  if (current === null) {
    const read = await readEntity(s, e, { by: 'id', include: 'all' });
    const v = asObject(read.json)?.version;
    current = typeof v === 'number' ? v : null;
  }
  const problems: string[] = [];
  if (versions.length === 0) problems.push('no versions');
  if (snapshots.some((v) => v?.id !== e.id)) problems.push(`a snapshot of another entity (ids ${JSON.stringify(snapshots.map((v) => v?.id))})`);
  if (versions.some((v) => typeof v !== 'number')) problems.push('a snapshot without a numeric version');
  else {
    const numbers = versions as number[];
    if (current !== null && !sameVersion(numbers[0], current)) problems.push(`the first is ${numbers[0]}, not the current version ${current}`);
    if (!sameVersion(numbers.at(-1), 0.1)) problems.push(`the last is ${numbers.at(-1)}, not 0.1`);
    for (let i = 1; i < numbers.length; i++) {
      if (!isStep(numbers[i - 1]!, numbers[i]!)) problems.push(`${numbers[i - 1]} follows ${numbers[i]}: not newest first by +0.1 or +1.0 steps`);
    }
  }
  const ok = c.check(
    rule,
    problems.length === 0,
    `GET ${base}: every version of ${describe(e)}, newest first, from ${current ?? 'the current one'} down to 0.1`,
    () => `versions ${JSON.stringify(versions)}: ${problems.slice(0, 3).join('; ')}`,
    ex,
  );
  if (!ok || versions.length === 0) return;
  const index = pick % versions.length;
  const wanted = versions[index] as number;
  const one = await s.send({ method: 'GET', path: `${base}/${wanted}` });
  const body = asObject(one.json);
  const snapshot = snapshots[index];
  c.check(
    rule,
    one.status === 200 && body?.id === e.id && sameVersion(body?.version, wanted) && body?.description === snapshot?.description,
    `GET ${base}/${wanted}: ${describe(e)} as it was at ${wanted} (description ${JSON.stringify(snapshot?.description)})`,
    () => `${one.status} id ${JSON.stringify(body?.id)} version ${JSON.stringify(body?.version)} description ${JSON.stringify(body?.description)}`,
    one,
  );
  const unknown = await s.send({ method: 'GET', path: `${base}/99.9` });
  s.expectError(rule, unknown, 404, `GET ${base}/99.9 (a version ${describe(e)} never had)`);
}

/** PATCH of a random entity, by id or by name. */
export class PatchCommand extends BaseCommand {
  readonly label = 'patch';
  constructor(
    readonly variant: PatchVariant,
    readonly pos: number,
    readonly byName: boolean,
  ) {
    super();
  }
  protected args() {
    return [this.variant, this.pos, this.byName];
  }
  override check(m: Readonly<Model>): boolean {
    return patchTarget(m, this.variant, this.pos) !== undefined;
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = patchTarget(m, this.variant, this.pos);
    if (e) this.resolved = await patchEntity(s, m, e, this.variant, this.byName);
  }
}

/** The version history of a random entity. */
export class VersionsCommand extends BaseCommand {
  readonly label = 'versions';
  constructor(
    readonly pos: number,
    readonly pick: number,
  ) {
    super();
  }
  protected args() {
    return [this.pos, this.pick];
  }
  private target(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.state === 'active' || e.state === 'deleted');
  }
  override check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }
  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (!e) return;
    this.resolved = `${describe(e)} (${e.state}, version ${e.version})`;
    await checkHistory(s, e, this.pick);
  }
}
