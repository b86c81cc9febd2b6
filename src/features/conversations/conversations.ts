/**
 * Conversations (docs/behaviour.md "Conversations"; OpenMetadata 2.0's `/v1/conversations`): a
 * message about an entity, with replies and reactions. They live in the store (side data
 * `conversations`, replies in `conversationReplies`), bounded by `ctx.events.max` like the feed,
 * oldest dropped first. Who may change what (authors, Admins) the routes check.
 */
import type { Operation } from 'fast-json-patch';
import { patchedFields } from '../../core/json-patch.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { EntityReference, Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { readEntityLink } from '../../core/entity-link.ts';
import { CatalogError } from '../../core/errors.ts';
import type { SideData } from '../../core/side-data.ts';
import { NO_ENTITY, sideValue } from '../../core/side-data.ts';
import { trimOldest } from '../../core/bounded.ts';
import { detailsText } from '../../openapi/validation-details.ts';

export type Conversation = Schemas['Conversation'];
type Post = Schemas['Post'];
type ReactionType = Schemas['Reaction']['reactionType'];

export const CONVERSATIONS: SideData<Conversation> = sideValue<Conversation>({ group: 'conversations', owner: NO_ENTITY, schema: 'Conversation' });
export const CONVERSATION_REPLIES: SideData<readonly Post[]> = sideValue<readonly Post[]>({ group: 'conversationReplies', owner: NO_ENTITY, schema: 'ConversationReplies' });

const NO_USER = '00000000-0000-0000-0000-000000000000';

function userRef(ctx: CatalogContext, name: string): EntityReference {
  const user = ctx.store.getByFqn(ctx.kinds.principal.type, name);
  return user ? referenceTo(user.type, user.entity) : { id: NO_USER, type: ctx.kinds.principal.type, name };
}

export function getConversation(ctx: CatalogContext, id: string): Conversation {
  const found = ctx.store.getSide(CONVERSATIONS, id);
  if (!found) throw CatalogError.notFound('conversation', id);
  return found;
}

/** `POST /v1/conversations`: about the entity the link names (404 when there is none). */
export function startConversation(ctx: CatalogContext, about: string, message: string, user: string): Conversation {
  const link = readEntityLink(about);
  if (!link || !ctx.kinds.all.some((k) => k.type === link.type)) throw CatalogError.badRequest(`Invalid entityLink ${about}`);
  const entity = ctx.store.getByFqn(link.type, link.fqn);
  if (!entity || entity.entity.deleted) throw CatalogError.notFound(link.type, link.fqn);
  const now = ctx.now();
  const conversation: Conversation = {
    id: ctx.newId(),
    about,
    entityRef: referenceTo(entity.type, entity.entity),
    message,
    createdBy: user,
    createdAt: now,
    updatedBy: user,
    updatedAt: now,
    resolved: false,
    reactions: [],
    replyCount: 0,
  };
  ctx.store.setSide(CONVERSATIONS, conversation.id, conversation);
  trimOldest(ctx, CONVERSATIONS, ctx.events.max);
  return conversation;
}

export interface ConversationQuery {
  entityLink?: string | undefined;
  /** Whose: the user's own (`OWNER`), about what they follow (`FOLLOWS`), both, or mentioning them. */
  user?: { id: string; name: string; filterType: string } | undefined;
  resolved: boolean;
  startTs?: number | undefined;
  endTs?: number | undefined;
}

/** The conversations a query selects, newest first. */
export function selectConversations(ctx: CatalogContext, query: ConversationQuery): Conversation[] {
  const open = query.entityLink?.endsWith('>') ? query.entityLink.slice(0, -1) : query.entityLink;
  const followed = (c: Conversation): boolean => {
    const entity = c.entityRef ? ctx.store.get(c.entityRef.id)?.entity : undefined;
    return ((entity?.followers as EntityReference[] | undefined) ?? []).some((f) => f.id === query.user?.id);
  };
  const mentions = (c: Conversation): boolean =>
    [c.message, ...(ctx.store.getSide(CONVERSATION_REPLIES, c.id) ?? []).map((r) => r.message)].some((m) => m.includes(`@${query.user!.name}`));
  const out: Conversation[] = [];
  for (const [, c] of ctx.store.sideValuesOf(CONVERSATIONS)) {
    if (c.resolved !== query.resolved) continue;
    if (query.entityLink !== undefined && c.about !== query.entityLink && !c.about.startsWith(`${open}::`)) continue;
    if (query.startTs !== undefined && c.createdAt < query.startTs) continue;
    if (query.endTs !== undefined && c.createdAt > query.endTs) continue;
    if (query.user) {
      const type = query.user.filterType;
      const own = c.createdBy === query.user.name;
      const keep = type === 'FOLLOWS' ? followed(c) : type === 'OWNER_OR_FOLLOWS' ? own || followed(c) : type === 'MENTIONS' ? mentions(c) : own;
      if (!keep) continue;
    }
    out.push(c);
  }
  return out.sort((a, b) => b.createdAt - a.createdAt);
}

/** `PATCH /v1/conversations/{id}`: `message`, `resolved`, `reactions`. */
export function patchConversation(ctx: CatalogContext, id: string, operations: Operation[], user: string): Conversation {
  const current = getConversation(ctx, id);
  const next = patchedFields(current, operations, ['message', 'resolved', 'reactions'], ctx.limits.documentBytes, 'conversation');
  const problems = ctx.validators.validate('Conversation', next);
  if (problems.length) throw CatalogError.badRequest(`Invalid conversation after patch: ${detailsText(problems)}`, problems);
  if (JSON.stringify(next) === JSON.stringify(current)) return current;
  const updated = { ...next, updatedBy: user, updatedAt: Math.max(ctx.now(), current.updatedAt ?? 0) };
  ctx.store.setSide(CONVERSATIONS, id, updated);
  return updated;
}

/** `DELETE /v1/conversations/{id}`: gone, with its replies. */
export function deleteConversation(ctx: CatalogContext, id: string): Conversation {
  const current = getConversation(ctx, id);
  ctx.store.setSide(CONVERSATIONS, id, undefined);
  ctx.store.setSide(CONVERSATION_REPLIES, id, undefined);
  return current;
}

function withReaction<T extends { reactions?: Schemas['Reaction'][] }>(ctx: CatalogContext, value: T, reactionType: ReactionType, user: string, on: boolean): T {
  const ref = userRef(ctx, user);
  const others = (value.reactions ?? []).filter((r) => !(r.reactionType === reactionType && r.user.id === ref.id));
  return { ...value, reactions: on ? [...others, { reactionType, user: ref }] : others };
}

export function reactToConversation(ctx: CatalogContext, id: string, reactionType: ReactionType, user: string, on: boolean): Conversation {
  const next = withReaction(ctx, getConversation(ctx, id), reactionType, user, on);
  ctx.store.setSide(CONVERSATIONS, id, next);
  return next;
}

export function repliesOf(ctx: CatalogContext, id: string): readonly Post[] {
  getConversation(ctx, id);
  return ctx.store.getSide(CONVERSATION_REPLIES, id) ?? [];
}

export function replyOf(ctx: CatalogContext, id: string, replyId: string): Post {
  const reply = repliesOf(ctx, id).find((r) => r.id === replyId);
  if (!reply) throw CatalogError.notFound('reply', replyId);
  return reply;
}

function writeReplies(ctx: CatalogContext, id: string, replies: readonly Post[]): void {
  ctx.store.setSide(CONVERSATION_REPLIES, id, replies.length ? replies : undefined);
  const conversation = getConversation(ctx, id);
  ctx.store.setSide(CONVERSATIONS, id, { ...conversation, replyCount: replies.length, updatedAt: Math.max(ctx.now(), conversation.updatedAt ?? 0) });
}

export function addConversationReply(ctx: CatalogContext, id: string, message: string, from: string): Post {
  const post: Post = { id: ctx.newId(), message, from, postTs: ctx.now(), reactions: [] };
  writeReplies(ctx, id, [...repliesOf(ctx, id), post]);
  return post;
}

/** Replaces a reply (`next`) or removes it (undefined); answers what it was or became. */
export function changeReply(ctx: CatalogContext, id: string, replyId: string, change: (reply: Post) => Post | undefined): Post {
  const reply = replyOf(ctx, id, replyId);
  const next = change(reply);
  writeReplies(
    ctx,
    id,
    repliesOf(ctx, id).flatMap((r) => (r.id !== replyId ? [r] : next ? [next] : [])),
  );
  return next ?? reply;
}

export function patchReply(ctx: CatalogContext, reply: Post, operations: Operation[]): Post {
  const next = patchedFields(reply, operations, ['message', 'reactions'], ctx.limits.documentBytes, 'reply');
  const problems = ctx.validators.validate('Post', next);
  if (problems.length) throw CatalogError.badRequest(`Invalid reply after patch: ${detailsText(problems)}`, problems);
  return next;
}

export const reactToReply = (ctx: CatalogContext, reply: Post, reactionType: ReactionType, user: string, on: boolean): Post => withReaction(ctx, reply, reactionType, user, on);
