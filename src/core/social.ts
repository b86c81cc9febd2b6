/**
 * Followers and votes (docs/behaviour.md "Followers and votes"): they never change the
 * entity's version; following twice is a no-op; up and down votes are exclusive per user. Each
 * call records its change event (`entityUpdated`, version unchanged: docs/behaviour.md "Events"),
 * which is also OpenMetadata's answer to it.
 */
import { CatalogError } from './errors.ts';
import type { StoredEntity } from './entity-store.ts';
import type { CatalogContext } from './context.ts';
import type { ChangeDescription, ChangeEvent, Entity, EntityReference, Votes } from './entity.ts';
import { referenceTo } from './entity.ts';
import { recordChange } from './change-events.ts';

export type VoteType = 'votedUp' | 'votedDown' | 'unVoted';
type FieldChange = ChangeDescription['fieldsAdded'][number];

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

/** Adds a follower (`actor`: who asks, by default the follower); the recorded event lists it in `fieldsAdded`. */
export function addFollower(ctx: CatalogContext, stored: StoredEntity, userId: string, actor?: string): ChangeEvent {
  const user = liveUser(ctx, userId);
  const followers = (stored.entity.followers as EntityReference[] | undefined) ?? [];
  const ref = referenceTo(user.type, user.entity);
  if (!followers.some((f) => f.id === userId)) replace(stored, { followers: [...followers, ref] });
  return socialEvent(ctx, stored, actor ?? user.entity.name, { fieldsAdded: [{ name: 'followers', newValue: [ref] }] });
}

/** Removes a follower (`actor`: who asks, by default that user); the recorded event lists it in `fieldsDeleted`. */
export function removeFollower(ctx: CatalogContext, stored: StoredEntity, userId: string, actor?: string): ChangeEvent {
  const user = knownUser(ctx, userId);
  const followers = (stored.entity.followers as EntityReference[] | undefined) ?? [];
  replace(stored, { followers: followers.filter((f) => f.id !== userId) });
  return socialEvent(ctx, stored, actor ?? user.entity.name, { fieldsDeleted: [{ name: 'followers', oldValue: [referenceTo(user.type, user.entity)] }] });
}

export function vote(ctx: CatalogContext, stored: StoredEntity, voter: StoredEntity, type: VoteType): ChangeEvent {
  const current = (stored.entity.votes as Votes | undefined) ?? { upVotes: 0, downVotes: 0 };
  const ref = referenceTo(voter.type, voter.entity);
  const others = (list: EntityReference[] | undefined) => (list ?? []).filter((r) => r.id !== ref.id);
  const upVoters = [...others(current.upVoters), ...(type === 'votedUp' ? [ref] : [])];
  const downVoters = [...others(current.downVoters), ...(type === 'votedDown' ? [ref] : [])];
  replace(stored, { votes: { upVotes: upVoters.length, downVotes: downVoters.length, upVoters, downVoters } });
  return socialEvent(ctx, stored, voter.entity.name, { fieldsUpdated: [{ name: 'votes', newValue: type }] });
}

/** OpenMetadata's ChangeEvent for follow, unfollow and vote (version unchanged), recorded. */
function socialEvent(
  ctx: CatalogContext,
  stored: StoredEntity,
  user: string,
  change: { fieldsAdded?: FieldChange[]; fieldsUpdated?: FieldChange[]; fieldsDeleted?: FieldChange[] },
): ChangeEvent {
  const { version } = stored.entity;
  return recordChange(ctx, {
    eventType: 'entityUpdated',
    stored,
    user,
    previousVersion: version,
    changeDescription: { fieldsAdded: change.fieldsAdded ?? [], fieldsUpdated: change.fieldsUpdated ?? [], fieldsDeleted: change.fieldsDeleted ?? [], previousVersion: version },
  });
}
