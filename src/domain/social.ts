/**
 * Followers and votes (docs/behaviour.md "Followers and votes"): they never change the
 * entity's version; following twice is a no-op; up and down votes are exclusive per user.
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { ChangeDescription, ChangeEvent, Entity, EntityReference, Votes } from './entity.ts';
import { referenceTo } from './entity.ts';

export type VoteType = 'votedUp' | 'votedDown' | 'unVoted';

/** A user: an entity of the principal kind (src/kinds/user.ts) with this id, deleted or not (404). */
function knownUser(ctx: CatalogContext, userId: string): StoredEntity {
  const { type } = ctx.kinds.principal;
  const user = ctx.store.get(userId);
  if (!user || user.type !== type) throw CatalogError.notFound(type, userId);
  return user;
}

/** The follower must be a known user (404) that is not soft-deleted (400). */
function liveUser(ctx: CatalogContext, userId: string): StoredEntity {
  const user = knownUser(ctx, userId);
  if (user.entity.deleted) throw CatalogError.badRequest(`User ${userId} is deleted`);
  return user;
}

/** The user voting: the token's user (its id, and its name for the 404 should it be gone). */
export function voterOf(ctx: CatalogContext, userId: string, userName: string): StoredEntity {
  const voter = ctx.store.get(userId);
  if (!voter) throw CatalogError.notFound(ctx.kinds.principal.type, userName);
  return voter;
}

function replace(stored: StoredEntity, patch: Partial<Entity>): void {
  stored.entity = { ...stored.entity, ...patch };
}

export function addFollower(ctx: CatalogContext, stored: StoredEntity, userId: string): EntityReference[] {
  const user = liveUser(ctx, userId);
  const followers = (stored.entity.followers as EntityReference[] | undefined) ?? [];
  const ref = referenceTo(user.type, user.entity);
  if (!followers.some((f) => f.id === userId)) replace(stored, { followers: [...followers, ref] });
  return [ref];
}

export function removeFollower(ctx: CatalogContext, stored: StoredEntity, userId: string): EntityReference[] {
  const user = knownUser(ctx, userId);
  const followers = (stored.entity.followers as EntityReference[] | undefined) ?? [];
  replace(stored, { followers: followers.filter((f) => f.id !== userId) });
  return [referenceTo(user.type, user.entity)];
}

export function vote(stored: StoredEntity, voter: StoredEntity, type: VoteType): void {
  const current = (stored.entity.votes as Votes | undefined) ?? { upVotes: 0, downVotes: 0 };
  const ref = referenceTo(voter.type, voter.entity);
  const others = (list: EntityReference[] | undefined) => (list ?? []).filter((r) => r.id !== ref.id);
  const upVoters = [...others(current.upVoters), ...(type === 'votedUp' ? [ref] : [])];
  const downVoters = [...others(current.downVoters), ...(type === 'votedDown' ? [ref] : [])];
  replace(stored, { votes: { upVotes: upVoters.length, downVotes: downVoters.length, upVoters, downVoters } });
}

/** OpenMetadata's answer to follow, unfollow and vote: a ChangeEvent, version unchanged. */
export function changeEvent(ctx: CatalogContext, stored: StoredEntity, user: string, change: Omit<ChangeDescription, 'previousVersion'>, entity: Entity): ChangeEvent {
  const { version } = stored.entity;
  return {
    id: ctx.newId(),
    eventType: 'entityUpdated',
    entityType: stored.type,
    entityId: stored.entity.id,
    entityFullyQualifiedName: stored.entity.fullyQualifiedName,
    userName: user,
    timestamp: ctx.now(),
    previousVersion: version,
    currentVersion: version,
    changeDescription: { ...change, previousVersion: version },
    entity,
  };
}
