/**
 * Stale entities (docs/behaviour.md "Stale entities"; OpenMetadata 2.0's `PUT
 * /v1/<collection>/deleteStale`): for each kind of the interface that has it, a service holds three
 * entities, of which a connector saw one, and another service one more. A dry run reports the two
 * unseen ones and changes nothing; the call soft-deletes those two, and the seen one and the other
 * service's stay as they were. Profile row `deleteStale`: a 1.x target has no such call.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS, type KindId } from '../kinds.ts';
import { sameVersion, type Model, type ModelEntity } from '../model.ts';
import { createEntity, entityPath } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, type Scenario } from './support.ts';

const RULE = 'delete.stale-in-scope';

/** The interface's kinds a connector ingests under a service. */
const STALE_KINDS: readonly KindId[] = ['database', 'dashboard', 'container'];

/** The FQNs a BulkOperationResult reports (`successRequest[].request`), sorted. */
function reported(ex: Exchange): string[] {
  return (asArray(asObject(ex.json)?.successRequest) ?? []).map((r) => String(asObject(r)?.request)).sort();
}

/** Each entity read with include=all is deleted or not as `deleted` says, at the version the model holds (any version for a deleted one). */
async function checkStates(s: Session, entities: readonly ModelEntity[], deleted: boolean, after: string): Promise<void> {
  for (const e of entities) {
    const ex = await s.send({ method: 'GET', path: entityPath(e, 'id'), query: { include: 'all' } });
    const body = asObject(ex.json);
    s.checker.check(
      RULE,
      ex.status === 200 && body?.deleted === deleted && (deleted || sameVersion(body.version, e.version)),
      `${after}, ${e.fqn} is ${deleted ? 'soft-deleted' : `live at version ${String(e.version)}`}`,
      () => `${ex.status} deleted ${JSON.stringify(body?.deleted)}, version ${JSON.stringify(body?.version)}`,
      ex,
    );
  }
}

async function staleIn(s: Session, m: Model, kindId: KindId): Promise<void> {
  const kind = KINDS[kindId];
  const serviceKind = KINDS[kind.serviceKind!];
  const path = `${kind.path}/deleteStale`;
  const make = async (parent: ModelEntity | null, what: string) => {
    const { entity } = await createEntity(s, m, parent ? kind : serviceKind, parent, { checkFqn: false });
    if (!entity) throw new SetupError(`could not create ${what}`);
    return entity;
  };
  const scope = await make(null, `a ${serviceKind.id}`);
  const elsewhere = await make(null, `a second ${serviceKind.id}`);
  const [seen, ...stale] = [await make(scope, `a ${kind.id}`), await make(scope, `a ${kind.id}`), await make(scope, `a ${kind.id}`)] as [ModelEntity, ...ModelEntity[]];
  const outside = await make(elsewhere, `a ${kind.id} of the second service`);
  const want = stale.map((e) => e.fqn).sort();
  // `service` is the scope type a connector sends for a service of any kind.
  const request = (dryRun: boolean) => ({ method: 'PUT' as const, path, body: { scopeFqn: scope.fqn, scopeEntityType: 'service', seenFqns: [seen.fqn], dryRun } });

  const dry = await s.send(request(true));
  if (!s.checker.status(RULE, dry, [200], `PUT ${path} (dryRun) with ${seen.fqn} seen in ${scope.fqn}`)) return;
  s.checker.check(
    RULE,
    asObject(dry.json)?.dryRun === true && JSON.stringify(reported(dry)) === JSON.stringify(want),
    `the dry run reports ${want.join(', ')} as stale (dryRun true)`,
    () => `dryRun ${JSON.stringify(asObject(dry.json)?.dryRun)}, successRequest ${JSON.stringify(reported(dry))}`,
    dry,
  );
  await checkStates(s, [seen, ...stale, outside], false, 'after the dry run');

  const real = await s.send(request(false));
  if (!s.checker.status(RULE, real, [200], `PUT ${path} with ${seen.fqn} seen in ${scope.fqn}`)) return;
  s.checker.check(
    RULE,
    JSON.stringify(reported(real)) === JSON.stringify(want),
    `the call reports ${want.join(', ')} deleted`,
    () => `successRequest ${JSON.stringify(reported(real))}`,
    real,
  );
  for (const e of stale) {
    e.state = 'deleted';
    e.version = null;
  }
  await checkStates(s, stale, true, `after PUT ${path}`);
  await checkStates(s, [seen, outside], false, `after PUT ${path}`);
}

export const staleEntities: Scenario = {
  name: 'stale entities',
  rules: [RULE],
  async run(s, m) {
    if (!s.ctx.exp.deleteStale) {
      s.checker.note(RULE, 'not exercised: the profile has no deleteStale (OpenMetadata 1.x)');
      return;
    }
    const documented = STALE_KINDS.filter((k) => s.ctx.document.operations.some((op) => op.method === 'PUT' && op.path === `${KINDS[k].path}/deleteStale`));
    if (documented.length === 0) s.checker.note(RULE, 'not exercised: the document has no PUT <collection>/deleteStale');
    for (const kindId of documented) await staleIn(s, m, kindId);
  },
};
