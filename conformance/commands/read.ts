import type { Exchange } from '../http.ts';
import { asObject } from '../http.ts';
import { describe, sameVersion, type Model, type ModelEntity } from '../model.ts';
import { readEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import { BaseCommand } from './base.ts';

/** Problems of a read body compared with the model entity. */
function readProblems(body: Record<string, unknown> | undefined, e: ModelEntity, deleted: boolean): string[] {
  if (!body) return ['the body is not a JSON object'];
  const p: string[] = [];
  if (body.id !== e.id) p.push(`id ${JSON.stringify(body.id)} instead of ${e.id}`);
  if (body.fullyQualifiedName !== e.fqn) p.push(`fullyQualifiedName ${JSON.stringify(body.fullyQualifiedName)} instead of ${e.fqn}`);
  if (body.deleted !== deleted) p.push(`deleted ${JSON.stringify(body.deleted)} instead of ${deleted}`);
  if (!sameVersion(body.version, e.version)) p.push(`version ${JSON.stringify(body.version)} instead of ${e.version}`);
  return p;
}

/** GET by id and by name, checked against the state the model says the entity is in. */
export class GetCommand extends BaseCommand {
  readonly label = 'get';
  constructor(
    readonly pos: number,
    readonly byName: boolean,
  ) {
    super();
  }
  protected args() {
    return [this.pos, this.byName];
  }
  override check(m: Readonly<Model>): boolean {
    return m.entities.length > 0;
  }

  async run(m: Model, s: Session): Promise<void> {
    const e = m.pick(this.pos, () => true);
    if (!e) return;
    this.resolved = `${describe(e)} (${e.state})`;
    await verifyState(s, e, this.byName);
  }
}

/** Reads `e` and checks what its model state implies; resolves `limbo`. */
export async function verifyState(s: Session, e: ModelEntity, byName: boolean): Promise<void> {
  const c = s.checker;
  const primary = byName ? 'name' : 'id';
  const secondary = byName ? 'id' : 'name';
  switch (e.state) {
    case 'active': {
      const rule = 'read.get-by-id-and-name-agree';
      const reads: Exchange[] = [];
      for (const by of [primary, secondary] as const) {
        const ex = await readEntity(s, e, { by });
        reads.push(ex);
        if (!c.status(rule, ex, [200], `GET ${describe(e)} by ${by}`)) return;
        const problems = readProblems(asObject(ex.json), e, false);
        if (!c.check(rule, problems.length === 0, `GET by ${by} returns ${describe(e)} as last written`, () => problems.join('; '), ex)) return;
      }
      if (e.version === null) {
        const v = asObject(reads[0]?.json)?.version;
        e.version = typeof v === 'number' ? v : null;
      }
      return;
    }
    case 'deleted': {
      const hidden = await readEntity(s, e, { by: primary });
      s.expectError('soft-delete.hidden-by-default', hidden, 404, `GET soft-deleted ${describe(e)} by ${primary} without include`);
      const include = byName ? 'all' : 'deleted';
      const shown = await readEntity(s, e, { by: secondary, include });
      if (!c.status('soft-delete.visible-with-include', shown, [200], `GET soft-deleted ${describe(e)} by ${secondary}?include=${include}`)) return;
      const problems = readProblems(asObject(shown.json), e, true);
      c.check('soft-delete.visible-with-include', problems.length === 0, `the soft-deleted entity, deleted true`, () => problems.join('; '), shown);
      if (e.version === null) {
        const v = asObject(shown.json)?.version;
        e.version = typeof v === 'number' ? v : null;
      }
      return;
    }
    case 'gone': {
      for (const by of [primary, secondary] as const) {
        const ex = await readEntity(s, e, { by, include: 'all' });
        s.expectError('hard-delete.gone-everywhere', ex, 404, `GET hard-deleted ${describe(e)} by ${by}?include=all`);
      }
      return;
    }
    case 'limbo': {
      const ex = await readEntity(s, e, { by: 'id', include: 'all' });
      const body = asObject(ex.json);
      if (ex.status === 200 && body) {
        e.state = body.deleted === true ? 'deleted' : 'active';
        e.version = typeof body.version === 'number' ? body.version : null;
        if (e.state === 'active') e.deletedWith = null;
      } else if (ex.status === 404) {
        e.state = 'gone';
      }
      return;
    }
  }
}
