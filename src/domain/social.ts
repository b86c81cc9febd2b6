/**
 * Followers and votes (contract "Followers and votes"; observed §1.6–1.7): they never change the
 * entity's version; following twice is a no-op; up and down votes are exclusive per user.
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { ChangeDescription, ChangeEvent, Entity, EntityReference, Votes } from './entity.ts';
import { referenceTo } from './entity.ts';

export type VoteType = 'votedUp' | 'votedDown' | 'unVoted';

/** The follower must be a known user (404) that is not soft-deleted (400, observed §1.6). */
function liveUser(ctx: CatalogContext, userId: string): StoredEntity {
  const user = ctx.store.get(userId);
  if (!user || user.type !== 'user') throw CatalogError.notFound('user', userId);
  if (user.entity.deleted) throw CatalogError.badRequest(`User ${userId} is deleted`);
  return user;
}

function replace(stored: StoredEntity, patch: Partial<Entity>): void {
  stored.entity = { ...stored.entity, ...patch };
}

export function addFollower(ctx: CatalogContext, stored: StoredEntity, userId: string): EntityReference[] {
  const user = liveUser(ctx, userId);
  const followers = (stored.entity.followers as EntityReference[] | undefined) ?? [];
  const ref = referenceTo('user', user.entity);
  if (!followers.some((f) => f.id === userId)) replace(stored, { followers: [...followers, ref] });
  return [ref];
}

export function removeFollower(ctx: CatalogContext, stored: StoredEntity, userId: string): EntityReference[] {
  const user = ctx.store.get(userId);
  if (!user || user.type !== 'user') throw CatalogError.notFound('user', userId);
  const followers = (stored.entity.followers as EntityReference[] | undefined) ?? [];
  replace(stored, { followers: followers.filter((f) => f.id !== userId) });
  return [referenceTo('user', user.entity)];
}

export function vote(stored: StoredEntity, voter: StoredEntity, type: VoteType): void {
  const current = (stored.entity.votes as Votes | undefined) ?? { upVotes: 0, downVotes: 0 };
  const ref = referenceTo('user', voter.entity);
  const others = (list: EntityReference[] | undefined) => (list ?? []).filter((r) => r.id !== ref.id);
  const upVoters = [...others(current.upVoters), ...(type === 'votedUp' ? [ref] : [])];
  const downVoters = [...others(current.downVoters), ...(type === 'votedDown' ? [ref] : [])];
  replace(stored, { votes: { upVotes: upVoters.length, downVotes: downVoters.length, upVoters, downVoters } });
}

/** OpenMetadata's answer to follow, unfollow and vote (observed §1.6): a ChangeEvent, version unchanged. */
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
