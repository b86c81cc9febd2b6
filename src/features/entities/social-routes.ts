/**
 * Followers and votes (docs/behaviour.md "Followers and votes"). The `contract` profile answers
 * with the entity, the `openmetadata` profile with a ChangeEvent (docs/behaviour.md "Profiles").
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { ChangeEvent } from '../../core/entity.ts';
import { addFollower, removeFollower, vote, voterOf } from '../../core/social.ts';
import type { VoteType } from '../../core/social.ts';
import { identityOf, mediaTypeOf } from '../../http/exchange.ts';
import { ApiError } from '../../http/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { findById, pathParam, renderFor } from '../../http/request-helpers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The follower body: a JSON string (what clients send) or, profile `contract`, bare UUID text. */
function followerId(ctx: CatalogContext, req: ApiRequest): string {
  if (req.hasBody && mediaTypeOf(req.headers['content-type']) === 'text/plain' && !ctx.profile.followerBodyMayBeText) {
    throw new ApiError(415, 'Unsupported Content-Type text/plain: send the user id as a JSON string');
  }
  const body: unknown = req.body;
  const id = typeof body === 'string' ? body.trim().replace(/^"(.*)"$/, '$1') : undefined;
  if (!id || !UUID.test(id)) throw ApiError.badRequest('The body must be the user id as a JSON string, e.g. "6f1e…"');
  return id;
}

export function mountSocialRoutes(router: OperationRoutes, ctx: CatalogContext, def: Kind): void {
  const prefix = `/api/v1/${def.collection}`;
  const target = (req: ApiRequest) => findById(ctx, def, pathParam(req, 'id'), 'non-deleted');

  /** The entity (profile `contract`) or the recorded change event with the entity as rendered (`openmetadata`). */
  const answer = (req: ApiRequest, reply: Reply, stored: StoredEntity, event: ChangeEvent) => {
    reply.header('X-OpenMetadata-Change', 'entityFieldsChanged');
    const entity = renderFor(ctx, def, req, stored);
    if (ctx.profile.socialResponse === 'entity') return reply.json(entity);
    reply.json({ ...event, entity });
  };

  if (def.followable) {
    router.put(`${prefix}/:id/followers`, (req, reply) => {
      const stored = target(req);
      answer(req, reply, stored, addFollower(ctx, stored, followerId(ctx, req), identityOf(req).user));
    });
    router.delete(`${prefix}/:id/followers/:userId`, (req, reply) => {
      const stored = target(req);
      answer(req, reply, stored, removeFollower(ctx, stored, pathParam(req, 'userId'), identityOf(req).user));
    });
  }
  if (def.votable) {
    router.put(`${prefix}/:id/vote`, (req, reply) => {
      const stored = target(req);
      const type = (req.body as { updatedVoteType: VoteType }).updatedVoteType;
      const { userId, user } = identityOf(req);
      answer(req, reply, stored, vote(ctx, stored, voterOf(ctx, userId, user), type));
    });
  }
}
