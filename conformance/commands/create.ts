import { asObject } from '../http.ts';
import { createEntity, parentFor, tagOf } from '../ops.ts';
import { describe, type Model, type ModelEntity } from '../model.ts';
import type { Session } from '../session.ts';
import { expectUnchanged, scopeOf } from '../side-effects.ts';
import { BaseCommand, pickKind } from './base.ts';

/**
 * POST a new entity (creating its service first when needed); optionally reuse a name from another
 * scope, or give it a name with a dot (quoted in fully qualified names).
 */
export class CreateCommand extends BaseCommand {
  readonly label = 'create';
  constructor(
    readonly kindIndex: number,
    readonly parentPos: number,
    readonly nest: boolean,
    readonly reuseName: boolean,
    readonly dotted = false,
  ) {
    super();
  }
  protected args() {
    return [this.kindIndex, this.parentPos, this.nest, this.reuseName, this.dotted];
  }

  async run(m: Model, s: Session): Promise<void> {
    const kind = pickKind(s, this.kindIndex);
    if (!kind) return;
    const parent = await parentFor(s, m, kind, this.parentPos, this.nest);
    if (parent === undefined) return;
    let name: string | undefined;
    let rule: string | undefined;
    if (this.reuseName && parent) {
      const usedHere = new Set(
        m
          .children(parent)
          .filter((e) => e.state !== 'gone')
          .map((e) => e.name),
      );
      const other = m.pick(this.parentPos, (e) => e.kind === kind && e.parent !== parent && e.state !== 'gone' && !usedHere.has(e.name));
      if (other) {
        name = other.name;
        rule = 'uniqueness.same-name-in-other-scope-allowed';
      }
    }
    if (name === undefined && this.dotted) name = `${m.freshName(tagOf(kind))}.v2`;
    const { entity } = await createEntity(s, m, kind, parent, { name, rule });
    this.resolved = entity ? `${describe(entity)}${rule ? ' (name reused from another scope)' : ''}` : kind.id;
  }
}

/** The rule a duplicate POST of `e` falls under, by scope. */
function duplicateRule(e: ModelEntity): string {
  if (e.kind.role === 'service') return 'uniqueness.duplicate-post-409-service';
  if (e.kind.role === 'classification') return 'uniqueness.duplicate-post-409-classification';
  if (e.parent?.kind.role === 'child') return 'uniqueness.duplicate-post-409-nested';
  return 'uniqueness.duplicate-post-409-child';
}

/** POST an entity whose name exists (active or soft-deleted) in its scope: 409. */
export class DuplicateCreateCommand extends BaseCommand {
  readonly label = 'duplicateCreate';
  constructor(readonly pos: number) {
    super();
  }
  protected args() {
    return [this.pos];
  }
  private target(m: Readonly<Model>): ModelEntity | undefined {
    return m.pick(this.pos, (e) => (e.state === 'active' || e.state === 'deleted') && m.ancestorsActive(e));
  }
  override check(m: Readonly<Model>): boolean {
    return this.target(m) !== undefined;
  }

  async run(m: Model, s: Session): Promise<void> {
    const e = this.target(m);
    if (e) this.resolved = await duplicateCreate(s, m, e);
  }
}

/** POSTs the create body of `e` again: 409 in its scope, and nothing changed. */
export async function duplicateCreate(s: Session, m: Model, e: ModelEntity): Promise<string> {
  const rule = duplicateRule(e);
  const ex = await s.send({ method: 'POST', path: e.kind.path, body: e.body });
  s.expectError(rule, ex, 409, `POST of ${describe(e)} again (${e.state})`);
  await expectUnchanged(s, m, ex, { entities: [e], scopes: scopeOf(e) });
  // A wrongly accepted duplicate may have changed the entity: let a read resolve it.
  if (ex.status < 300 && asObject(ex.json)?.id === e.id) e.version = null;
  return `${describe(e)} (${e.state})`;
}
