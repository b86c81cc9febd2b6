/**
 * Lineage (docs/behaviour.md "Lineage"): three containers A → B → C joined by two edges. Each edge
 * shows in the graphs of both its ends, downstream of the one and upstream of the other (read by
 * id and by FQN); a deleted edge leaves both graphs; a hard-deleted end takes its edges with it.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS } from '../kinds.ts';
import type { ModelEntity } from '../model.ts';
import { createEntity, entityPath } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';

interface Graph {
  ex: Exchange;
  /** Edges as `from>to` (ids). */
  upstream: string[];
  downstream: string[];
  nodes: string[];
}

const ref = (e: ModelEntity) => ({ id: e.id, type: e.kind.id });
const edge = (from: ModelEntity, to: ModelEntity) => `${from.id}>${to.id}`;

/** `GET /v1/lineage/<type>/<id>` (or `/name/<fqn>`), one hop each way. */
async function graphOf(s: Session, e: ModelEntity, by: 'id' | 'name'): Promise<Graph> {
  const at = by === 'id' ? e.id : `name/${encodeURIComponent(e.fqn)}`;
  const ex = await s.send({ method: 'GET', path: `/v1/lineage/${e.kind.id}/${at}`, query: { upstreamDepth: 1, downstreamDepth: 1 } });
  const body = asObject(ex.json);
  const edges = (field: string) =>
    (asArray(body?.[field]) ?? []).map((x) => {
      const o = asObject(x);
      return `${String(o?.fromEntity)}>${String(o?.toEntity)}`;
    });
  const nodes = (asArray(body?.nodes) ?? []).map((n) => String(asObject(n)?.id));
  return { ex, upstream: edges('upstreamEdges'), downstream: edges('downstreamEdges'), nodes };
}

const shown = (g: Graph) => `${g.ex.status} upstreamEdges ${JSON.stringify(g.upstream)}, downstreamEdges ${JSON.stringify(g.downstream)}, nodes ${JSON.stringify(g.nodes)}`;

/**
 * `GET /v1/events?entityUpdated=lineage` lists the events of each edge, in order (rule
 * events.lineage); a profile without lineage events lists none. Repeated for up to the settle
 * timeout, as a target may record its events a little after the write.
 */
async function checkLineageEvents(s: Session, edges: readonly { name: string; types: readonly string[] }[]): Promise<void> {
  const want = s.ctx.exp.lineageEvents;
  const deadline = Date.now() + (s.ctx.settleTimeoutMs ?? 5_000);
  for (;;) {
    const ex = await s.send({ method: 'GET', path: '/v1/events', query: { entityUpdated: 'lineage' } });
    const listed = (asArray(asObject(ex.json)?.data) ?? []).map(asObject);
    const typesOf = (name: string) => listed.filter((e) => e?.entityFullyQualifiedName === name && e.entityType === 'lineage').map((e) => String(e?.eventType));
    const ok = ex.status === 200 && edges.every((e) => JSON.stringify(typesOf(e.name)) === JSON.stringify(want ? e.types : []));
    if (ok || Date.now() > deadline) {
      s.checker.check(
        'events.lineage',
        ok,
        want
          ? `GET /v1/events?entityUpdated=lineage: ${edges.map((e) => `${e.name}: ${e.types.join(', ')}`).join('; ')}`
          : 'GET /v1/events?entityUpdated=lineage: no lineage events (the profile has none)',
        () => `${ex.status}: ${edges.map((e) => `${e.name}: ${JSON.stringify(typesOf(e.name))}`).join('; ')}`,
        ex,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const lineageGraph: Scenario = {
  name: 'lineage',
  rules: ['lineage.edge-both-ends', 'lineage.edge-delete', 'lineage.hard-delete-removes-edges', 'events.lineage'],
  async run(s, m) {
    const c = s.checker;
    const { entity: service } = await createEntity(s, m, KINDS.storageService, null, { checkFqn: false });
    if (!service) throw new SetupError('could not create a storage service');
    const made: ModelEntity[] = [];
    for (let i = 0; i < 3; i++) {
      const { entity } = await createEntity(s, m, KINDS.container, service, { checkFqn: false });
      if (!entity) throw new SetupError('could not create a container');
      made.push(entity);
    }
    const [up, mid, down] = made as [ModelEntity, ModelEntity, ModelEntity];
    for (const [from, to] of [
      [up, mid],
      [mid, down],
    ] as const) {
      const put = await s.send({ method: 'PUT', path: '/v1/lineage', body: { edge: { fromEntity: ref(from), toEntity: ref(to) } } });
      setupOk(put, [200], `add the lineage edge ${from.fqn} → ${to.fqn}`);
    }

    // Each edge in both ends' graphs, on the right side, by id and by FQN.
    const ab = edge(up, mid);
    const bc = edge(mid, down);
    for (const by of ['id', 'name'] as const) {
      const g = await graphOf(s, up, by);
      c.check(
        'lineage.edge-both-ends',
        g.ex.status === 200 && g.downstream.includes(ab) && !g.upstream.includes(ab) && g.nodes.includes(mid.id),
        `the lineage of ${up.fqn} (by ${by}): the edge ${ab} downstream, ${mid.fqn} a node`,
        () => shown(g),
        g.ex,
      );
      const h = await graphOf(s, mid, by);
      c.check(
        'lineage.edge-both-ends',
        h.ex.status === 200 && h.upstream.includes(ab) && h.downstream.includes(bc) && !h.downstream.includes(ab) && h.nodes.includes(up.id) && h.nodes.includes(down.id),
        `the lineage of ${mid.fqn} (by ${by}): ${ab} upstream, ${bc} downstream, both other containers nodes`,
        () => shown(h),
        h.ex,
      );
    }

    // A deleted edge leaves both graphs; the other edge stays.
    const del = await s.send({ method: 'DELETE', path: `/v1/lineage/container/${up.id}/container/${mid.id}` });
    if (!c.status('lineage.edge-delete', del, [200], `DELETE the lineage edge ${up.fqn} → ${mid.fqn}`)) return;
    const fromUp = await graphOf(s, up, 'id');
    c.check(
      'lineage.edge-delete',
      fromUp.ex.status === 200 && !fromUp.downstream.includes(ab) && !fromUp.nodes.includes(mid.id),
      `the lineage of ${up.fqn}: no edge ${ab}, no node ${mid.fqn}`,
      () => shown(fromUp),
      fromUp.ex,
    );
    const fromMid = await graphOf(s, mid, 'id');
    c.check(
      'lineage.edge-delete',
      fromMid.ex.status === 200 && !fromMid.upstream.includes(ab) && fromMid.downstream.includes(bc),
      `the lineage of ${mid.fqn}: no edge ${ab} upstream, ${bc} still downstream`,
      () => shown(fromMid),
      fromMid.ex,
    );
    if (!fromMid.downstream.includes(bc)) throw new SetupError(`the edge ${bc} is not in the lineage of ${mid.fqn}`);

    // The lineage changes as change events: the edge up → mid added then removed, mid → down put again (replaced).
    const again = await s.send({ method: 'PUT', path: '/v1/lineage', body: { edge: { fromEntity: ref(mid), toEntity: ref(down), description: 'put again' } } });
    setupOk(again, [200], `put the lineage edge ${mid.fqn} → ${down.fqn} again`);
    await checkLineageEvents(s, [
      { name: `${up.fqn}--upstream-->${mid.fqn}`, types: ['entityLineageAdded', 'entityLineageDeleted'] },
      { name: `${mid.fqn}--upstream-->${down.fqn}`, types: ['entityLineageAdded', 'entityLineageUpdated'] },
    ]);

    // A hard-deleted end takes its edges with it.
    const gone = await s.send({ method: 'DELETE', path: entityPath(down, 'id'), query: { hardDelete: true } });
    setupOk(gone, [200, 204], `hard delete ${down.fqn}`);
    down.state = 'gone';
    const after = await graphOf(s, mid, 'id');
    c.check(
      'lineage.hard-delete-removes-edges',
      after.ex.status === 200 && !after.downstream.includes(bc) && !after.nodes.includes(down.id),
      `after the hard delete of ${down.fqn}, the lineage of ${mid.fqn}: no edge ${bc}, no node ${down.id}`,
      () => shown(after),
      after.ex,
    );
    const detail = await s.send({ method: 'GET', path: `/v1/lineage/getLineageEdge/${mid.id}/${down.id}` });
    c.check(
      'lineage.hard-delete-removes-edges',
      detail.status === 404,
      `GET /v1/lineage/getLineageEdge of ${bc}: 404`,
      () => `${detail.status} ${detail.responseText.slice(0, 200)}`,
      detail,
    );
  },
};
