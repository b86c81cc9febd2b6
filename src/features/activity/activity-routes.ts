/**
 * The activity stream's operations (docs/behaviour.md "Activity"; OpenMetadata 2.0's
 * ActivityResource, the web UI's `ui/rest/activityAPI.ts`): lists by filter, by entity, by actor, of
 * the token's user (`my-feed`, `following`), by entity link, the count, reactions and replies.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { EntityReference, Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findByFqn, findById, pathParam, queryInt, queryValue } from '../../http/request-helpers.ts';
import { pageInTimeOrder } from '../../core/time-paging.ts';
import { principalIds } from '../tasks/assignments.ts';
import type { ActivityEvent } from './activity.ts';
import { addReply, isAbout, isAboutLink, react, repliesOf, selectActivity } from './activity.ts';

const text = (req: ApiRequest, name: string): string | undefined => {
  const value = queryValue(req, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function mountActivityRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const base = '/api/v1/activity';
  const page = (req: ApiRequest, test?: (a: ActivityEvent) => boolean) => {
    const domain = text(req, 'domain') ?? text(req, 'domains');
    const all = selectActivity(ctx, { days: queryInt(req, 'days', 30), test, domains: domain?.split(',').map((d) => d.trim()) });
    return { data: all.slice(0, queryInt(req, 'limit', 50)), paging: { total: all.length } };
  };
  const kindNamed = (type: string) => {
    if (!ctx.kinds.all.some((k) => k.type === type)) throw CatalogError.badRequest(`Unknown entity type ${type}`);
    return ctx.kinds.of(type);
  };

  router.get(base, (req, reply) => {
    const [type, id, actor] = [text(req, 'entityType'), text(req, 'entityId'), text(req, 'actorId')];
    reply.json(
      page(
        req,
        (a) =>
          (type === undefined || a.entity.type === type || (a.about ?? '').startsWith(`<#E::${type}::`)) &&
          (id === undefined || a.entity.id === id) &&
          (actor === undefined || a.actor.id === actor),
      ),
    );
  });

  router.get(`${base}/entity/:entityType/name/:fqn`, (req, reply) => {
    const type = pathParam(req, 'entityType');
    const stored = findByFqn(ctx, kindNamed(type), pathParam(req, 'fqn'), 'all');
    reply.json(page(req, (a) => isAbout(a, type, stored.entity)));
  });

  router.get(`${base}/entity/:entityType/:id`, (req, reply) => {
    const type = pathParam(req, 'entityType');
    const stored = findById(ctx, kindNamed(type), pathParam(req, 'id'), 'all');
    reply.json(page(req, (a) => isAbout(a, type, stored.entity)));
  });

  router.get(`${base}/user/:userId`, (req, reply) => {
    const user = findById(ctx, ctx.kinds.principal, pathParam(req, 'userId'), 'all');
    reply.json(page(req, (a) => a.actor.id === user.entity.id));
  });

  /** The ids of the entities the token's user follows (`following`) or, with `owned`, also owns (or one of their teams does). */
  const entitiesOf = (req: ApiRequest, owned: boolean): ReadonlySet<string> => {
    const name = identityOf(req).user;
    const me = ctx.store.getByFqn(ctx.kinds.principal.type, name);
    const ids = owned ? principalIds(ctx, name) : new Set<string>();
    const out = new Set<string>();
    for (const kind of ctx.kinds.all) {
      for (const stored of ctx.store.ofType(kind.type)) {
        const follows = me && ((stored.entity.followers as EntityReference[] | undefined) ?? []).some((f) => f.id === me.entity.id);
        const owns = owned && ((stored.entity.owners as EntityReference[] | undefined) ?? []).some((o) => ids.has(o.id));
        if (follows || owns) out.add(`<#E::${kind.type}::${stored.entity.fullyQualifiedName}>`);
      }
    }
    return out;
  };
  router.get(`${base}/my-feed`, (req, reply) => {
    const mine = entitiesOf(req, true);
    const me = ctx.store.getByFqn(ctx.kinds.principal.type, identityOf(req).user)?.entity.id;
    reply.json(page(req, (a) => mine.has(a.about ?? '') || a.actor.id === me));
  });
  router.get(`${base}/following`, (req, reply) => {
    const followed = entitiesOf(req, false);
    reply.json(page(req, (a) => followed.has(a.about ?? '')));
  });

  router.get(`${base}/about`, (req, reply) => {
    const link = text(req, 'entityLink') ?? '';
    reply.json(page(req, (a) => isAboutLink(a, link)));
  });

  router.get(`${base}/count`, (req, reply) => {
    reply.json(page(req).paging.total);
  });

  router.put(`${base}/:id/reaction/:reactionType`, (req, reply) => {
    reply.json(react(ctx, pathParam(req, 'id'), pathParam(req, 'reactionType') as Schemas['Reaction']['reactionType'], identityOf(req).user, true));
  });
  router.delete(`${base}/:id/reaction/:reactionType`, (req, reply) => {
    reply.json(react(ctx, pathParam(req, 'id'), pathParam(req, 'reactionType') as Schemas['Reaction']['reactionType'], identityOf(req).user, false));
  });

  router.get(`${base}/:id/replies`, (req, reply) => {
    const replies = repliesOf(ctx, pathParam(req, 'id'));
    reply.json(pageInTimeOrder(replies, (r) => ({ ts: r.postTs ?? 0, id: r.id }), 'oldest-first', queryInt(req, 'limit', 10), text(req, 'before'), text(req, 'after')));
  });
  router.post(`${base}/:id/replies`, (req, reply) => {
    const body = req.body as Schemas['CreateReply'];
    reply.status(201).json(addReply(ctx, pathParam(req, 'id'), body.message, body.from ?? identityOf(req).user));
  });
}
