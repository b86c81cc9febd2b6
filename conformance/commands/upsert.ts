import { asObject } from '../http.ts';
import { createBody, type Kind } from '../kinds.ts';
import { describe, nextVersion, sameVersion, type Model, type ModelEntity } from '../model.ts';
import { createEntity, expectedFqn, parentFor, readEntity, serviceOf, tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { BaseCommand, pickKind } from './base.ts';

export type UpsertVariant = 'create' | 'same' | 'change' | 'deleted';

/** PUT of an existing entity: same body, changed description, or a soft-deleted one (restored by PUT). */
export async function upsertExisting(s: Session, m: Model, e: ModelEntity, variant: Exclude<UpsertVariant, 'create'>): Promise<string> {
  const c = s.checker;
  const body = variant === 'change' ? { ...e.body, description: `${String(e.body.description)} +` } : e.body;
  const ex = await s.send({ method: 'PUT', path: e.kind.path, body });
  const what = `PUT of existing ${describe(e)} (${variant === 'change' ? 'changed description' : variant === 'same' ? 'same body' : 'soft-deleted'})`;
  c.check('upsert.never-409', ex.status !== 409, `${what}: not 409`, () => `409 ${ex.responseText}`, ex);
  const got = asObject(ex.json);
  const label = `${describe(e)} (${variant})`;
  if (variant === 'same') {
    const ok =
      c.status('upsert.idempotent', ex, [200], what) &&
      c.check(
        'upsert.idempotent',
        got?.id === e.id && sameVersion(got?.version, e.version),
        `same id ${e.id}, same version ${e.version}`,
        () => `id ${JSON.stringify(got?.id)} version ${JSON.stringify(got?.version)}`,
        ex,
      );
    if (!ok) e.version = null;
    return label;
  }
  if (variant === 'change') {
    const expected = nextVersion(e.version);
    const ok =
      c.status('upsert.updates-in-place', ex, [200], what) &&
      c.check(
        'upsert.updates-in-place',
        got?.id === e.id && got?.description === body.description && sameVersion(got?.version, expected),
        `same id ${e.id}, the new description, version ${expected}`,
        () => `id ${JSON.stringify(got?.id)} description ${JSON.stringify(got?.description)} version ${JSON.stringify(got?.version)}`,
        ex,
      );
    e.body = body;
    e.version = ok ? expected : null;
    return label;
  }
  // Soft-deleted: PUT restores and updates (docs/behaviour.md "Upsert").
  const ok =
    c.status('upsert.restores-soft-deleted', ex, [200], what) &&
    c.check(
      'upsert.restores-soft-deleted',
      got?.id === e.id && got?.deleted === false,
      `same id ${e.id}, deleted false`,
      () => `id ${JSON.stringify(got?.id)} deleted ${JSON.stringify(got?.deleted)}`,
      ex,
    );
  if (!ok) {
    e.state = 'limbo';
    return label;
  }
  // The same body: the restore is the only change (docs/behaviour.md "Upsert").
  const expected = nextVersion(e.version);
  if (expected !== null) {
    c.check('versions.arithmetic', sameVersion(got?.version, expected), `${what}: version ${expected} (+0.1 for the restore)`, () => `version ${JSON.stringify(got?.version)}`, ex);
  }
  e.state = 'active';
  e.version = typeof got?.version === 'number' ? got.version : null;
  e.deletedWith = null;
  // OpenMetadata restores the children too; the contract does not say: let reads resolve them.
  for (const d of m.descendants(e)) if (d.state === 'deleted') d.state = 'limbo';
  const back = await readEntity(s, e, { by: 'id' });
  c.status('upsert.restores-soft-deleted', back, [200], `GET ${describe(e)} after the PUT that restored it`);
  return label;
}

/** PUT <collection>/bulk with `newCount` new items under `parent` and changed copies of `existing`. */
export async function bulkUpsert(s: Session, m: Model, kind: Kind, parent: ModelEntity | null, newCount: number, existing: ModelEntity[]): Promise<string> {
  const rule = 'bulk.upserts-each';
  const c = s.checker;
  const items = existing.map((e) => ({
    body: { ...e.body, description: `${String(e.body.description)} (bulk)` } as Record<string, unknown>,
    fqn: e.fqn,
    existing: e as ModelEntity | undefined,
    parent: e.parent,
  }));
  const service = parent ? serviceOf(parent) : null;
  for (let i = 0; i < newCount; i++) {
    const name = m.freshName(`${tagOf(kind)}b`);
    if (kind.role !== 'child') s.registerRoot(kind, name);
    items.push({
      body: createBody(kind, name, 'created by catalog-kit conform (bulk)', service ? { serviceFqn: service.fqn } : undefined),
      fqn: expectedFqn(kind, name, service),
      existing: undefined,
      parent: service,
    });
  }
  const label = `${kind.id}: ${items.map((i) => `${i.fqn}${i.existing ? ' (existing)' : ''}`).join(', ')}`;
  const ex = await s.send({ method: 'PUT', path: `${kind.path}/bulk`, body: items.map((i) => i.body) });
  const what = `PUT ${kind.path}/bulk of ${items.length} item(s)`;
  if (s.ctx.exp.bulkResultShape) {
    if (c.status(rule, ex, [200], what)) {
      c.check(
        rule,
        asObject(ex.json)?.numberOfRowsPassed === items.length,
        `a BulkOperationResult with numberOfRowsPassed ${items.length}`,
        () => ex.responseText.slice(0, 300),
        ex,
      );
    }
  } else {
    c.status(rule, ex, [200, 201, 207], what);
  }
  for (const item of items) {
    const r = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(item.fqn)}` });
    const b = asObject(r.json);
    const ok = c.check(
      rule,
      r.status === 200 && b?.description === item.body.description && (!item.existing || b?.id === item.existing.id),
      `GET ${item.fqn} after the bulk: 200 with the sent description${item.existing ? ` and id ${item.existing.id}` : ''}`,
      () => `${r.status} id ${JSON.stringify(b?.id)} description ${JSON.stringify(b?.description)}`,
      r,
    );
    if (item.existing) {
      const expected = nextVersion(item.existing.version);
      if (ok && expected !== null) {
        c.check(
          'versions.arithmetic',
          sameVersion(b?.version, expected),
          `${item.fqn} after the bulk changed its description: version ${expected} (+0.1)`,
          () => `version ${JSON.stringify(b?.version)}`,
          r,
        );
      }
      item.existing.body = item.body;
      item.existing.version = ok && typeof b?.version === 'number' ? b.version : null;
    } else if (r.status === 200 && typeof b?.id === 'string') {
      if (kind.role !== 'child') s.registerRoot(kind, String(item.body.name), b.id);
      const e = m.add({
        kind,
        name: String(item.body.name),
        fqn: item.fqn,
        id: b.id,
        parent: item.parent,
        root: item.parent,
        state: 'active',
        version: typeof b.version === 'number' ? b.version : null,
        body: item.body,
        deletedWith: null,
        following: false,
        vote: 'unVoted',
      });
      if (!e.root) e.root = e;
    }
  }
  return label;
}

/** PUT at the collection path: create, no-change, change, or restore-by-PUT. */
export class UpsertCommand extends BaseCommand {
  readonly label = 'upsert';
  constructor(
    readonly variant: UpsertVariant,
    readonly pos: number,
    readonly kindIndex: number,
  ) {
    super();
  }
  protected args() {
    return [this.variant, this.pos, this.kindIndex];
  }
  private target(m: Readonly<Model>): ModelEntity | undefined {
    if (this.variant === 'deleted') return m.pick(this.pos, (e) => e.state === 'deleted' && m.ancestorsActive(e));
    return m.pick(this.pos, (e) => e.state === 'active' && m.ancestorsActive(e));
  }
  override check(m: Readonly<Model>): boolean {
    return this.variant === 'create' || this.target(m) !== undefined;
  }

  async run(m: Model, s: Session): Promise<void> {
    if (this.variant === 'create') {
      const kind = pickKind(s, this.kindIndex);
      if (!kind) return;
      const parent = await parentFor(s, m, kind, this.pos, this.pos % 3 === 0);
      if (parent === undefined) return;
      const { entity } = await createEntity(s, m, kind, parent, { method: 'PUT', rule: 'upsert.creates', checkFqn: false });
      this.resolved = entity ? describe(entity) : kind.id;
      return;
    }
    const e = this.target(m);
    if (e) this.resolved = await upsertExisting(s, m, e, this.variant);
  }
}

/** PUT <collection>/bulk with new and existing items; every item must be readable afterwards. */
export class BulkUpsertCommand extends BaseCommand {
  readonly label = 'bulkUpsert';
  constructor(
    readonly kindIndex: number,
    readonly parentPos: number,
    readonly newCount: number,
    readonly existingPositions: number[],
  ) {
    super();
  }
  protected args() {
    return [this.kindIndex, this.parentPos, this.newCount, this.existingPositions];
  }

  async run(m: Model, s: Session): Promise<void> {
    const kind = pickKind(s, this.kindIndex, (k) => k.bulk);
    if (!kind) return;
    const parent = await parentFor(s, m, kind, this.parentPos, false);
    if (parent === undefined) return;
    const existing: ModelEntity[] = [];
    for (const pos of this.existingPositions) {
      const e = m.pick(pos, (x) => x.kind === kind && x.state === 'active' && m.ancestorsActive(x));
      if (e && !existing.includes(e)) existing.push(e);
    }
    const count = existing.length === 0 ? Math.max(1, this.newCount) : this.newCount;
    this.resolved = await bulkUpsert(s, m, kind, parent, count, existing);
  }
}
