/**
 * The team membership calls (docs/behaviour.md "Users and teams"; OpenMetadata's TeamResource
 * `updateTeamUsers` and `deleteTeamUser`, the web UI's `ui/rest/teamsAPI.ts`): `PUT
 * /v1/teams/{id}/users` makes the listed users the team's members, `DELETE
 * /v1/teams/{id}/users/{userId}` ends one membership. Each answers the team with its `users`.
 * Served in both profiles; registered before the generic entity routes.
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { EntityReference } from '../../core/entity.ts';
import { setMembership } from '../../core/memberships.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam, renderFor } from '../../http/request-helpers.ts';

export function mountTeamMemberRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const [TEAM, USER] = [ctx.kinds.of('team'), ctx.kinds.of('user')];
  const kinds = { user: USER, team: TEAM };
  const answer = (req: ApiRequest, reply: Reply, id: string) => reply.json(renderFor(ctx, TEAM, req, findById(ctx, TEAM, id, 'all'), new Set(['users'])));

  router.put('/api/v1/teams/:id/users', (req, reply) => {
    const team = findById(ctx, TEAM, pathParam(req, 'id'), 'non-deleted');
    const wanted = (req.body as EntityReference[]).map((ref) => findById(ctx, USER, ref.id, 'non-deleted'));
    const wantedIds = new Set(wanted.map((u) => u.entity.id));
    const current = (renderFor(ctx, TEAM, req, team, new Set(['users'])).users as EntityReference[] | undefined) ?? [];
    const by = identityOf(req).user;
    for (const ref of current) {
      const member = ctx.store.get(ref.id);
      if (member && !wantedIds.has(ref.id)) setMembership(ctx, kinds, member, team, false, by);
    }
    for (const member of wanted) setMembership(ctx, kinds, member, team, true, by);
    answer(req, reply, team.entity.id);
  });

  router.delete('/api/v1/teams/:id/users/:userId', (req, reply) => {
    const team = findById(ctx, TEAM, pathParam(req, 'id'), 'non-deleted');
    const member = findById(ctx, USER, pathParam(req, 'userId'), 'all');
    setMembership(ctx, kinds, member, team, false, identityOf(req).user);
    answer(req, reply, team.entity.id);
  });
}
