/**
 * Concurrent duplicate creates. Sent with Promise.all from this process: the target sees them
 * close together; whatever order it processes them in, exactly one may succeed (style principle 11).
 */
import { asObject } from '../http.ts';
import { createBody, KINDS, type Kind } from '../kinds.ts';
import type { Model } from '../model.ts';
import { createEntity, tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import type { Scenario } from './support.ts';

const RACERS = 6;

async function race(s: Session, m: Model, kind: Kind, serviceFqn?: string): Promise<void> {
  const rule = 'concurrency.duplicate-create-one-wins';
  const name = m.freshName(`${tagOf(kind)}race`);
  if (kind.role !== 'child') s.registerRoot(kind, name);
  const body = createBody(kind, name, 'raced by catalog-kit conform', serviceFqn ? { serviceFqn } : undefined);
  const answers = await Promise.all(Array.from({ length: RACERS }, () => s.send({ method: 'POST', path: kind.path, body })));
  const won = answers.filter((a) => s.ctx.exp.createStatuses.includes(a.status));
  const lost = answers.filter((a) => a.status === 409);
  const ok = s.checker.check(
    rule,
    won.length === 1 && lost.length === RACERS - 1,
    `${RACERS} concurrent POSTs of ${kind.id} ${name}: exactly one ${s.ctx.exp.createStatuses.join('/')}, ${RACERS - 1} × 409`,
    () => `statuses ${answers.map((a) => a.status).join(', ')}`,
    won[1] ?? answers.find((a) => a.status !== 409 && !won.includes(a)) ?? answers[0],
  );
  if (!ok) return;
  const winner = asObject(won[0]?.json);
  const read = await s.send({ method: 'GET', path: `${kind.path}/name/${encodeURIComponent(serviceFqn ? `${serviceFqn}.${name}` : name)}` });
  s.checker.check(
    rule,
    read.status === 200 && asObject(read.json)?.id === winner?.id,
    `GET ${name} returns the winner ${String(winner?.id)}`,
    () => `${read.status} ${read.responseText.slice(0, 200)}`,
    read,
  );
  if (kind.role !== 'child' && typeof winner?.id === 'string') s.registerRoot(kind, name, winner.id);
}

export const concurrentCreates: Scenario = {
  name: 'concurrent-creates',
  rules: ['concurrency.duplicate-create-one-wins'],
  async run(s, m) {
    await race(s, m, KINDS.storageService);
    const { entity: service } = await createEntity(s, m, KINDS.storageService, null);
    if (service) await race(s, m, KINDS.container, service.fqn);
    await race(s, m, KINDS.classification);
  },
};
