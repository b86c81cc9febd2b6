/**
 * The conversation operations (docs/behaviour.md "Conversations"; OpenMetadata 2.0's
 * ConversationResource, the web UI's `ui/rest/conversationsAPI.ts`). A message is changed by its
 * author only; a conversation or reply is deleted by its author or an Admin.
 */
import type { Operation } from 'fast-json-patch';
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { ApiError } from '../../http/errors.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam, queryInt, queryValue } from '../../http/request-helpers.ts';
import { pageInTimeOrder } from '../../core/time-paging.ts';
import {
  addConversationReply,
  changeReply,
  deleteConversation,
  getConversation,
  patchConversation,
  patchReply,
  reactToConversation,
  reactToReply,
  repliesOf,
  replyOf,
  selectConversations,
  startConversation,
} from './conversations.ts';

type ReactionType = Schemas['Reaction']['reactionType'];

const text = (req: ApiRequest, name: string): string | undefined => {
  const value = queryValue(req, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const number = (req: ApiRequest, name: string): number | undefined => {
  const value = queryValue(req, name);
  return value === undefined || value === '' ? undefined : Number(value);
};

/** Where a reply stands among its conversation's, oldest first. */
const replyKey = (r: Schemas['Post']) => ({ ts: r.postTs ?? 0, id: r.id });

/** Refuses a change of what `author` wrote by someone else (an Admin may delete). */
function requireAuthor(req: ApiRequest, author: string, deleting: boolean): void {
  const { user, roles } = identityOf(req);
  if (author !== user && !(deleting && roles.includes('Admin'))) throw ApiError.forbidden(user, deleting ? 'Delete' : 'EditAll');
}

/** Whether a JSON Patch changes the message (only its author may). */
const touchesMessage = (operations: Operation[]): boolean => operations.some((op) => op.path === '/message' || ('from' in op && op.from === '/message'));

export function mountConversationRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const base = '/api/v1/conversations';
  const withHref = (req: ApiRequest, c: ReturnType<typeof getConversation>) => ({ ...c, href: `${req.baseUrl}/v1/conversations/${c.id}` });
  const user = (req: ApiRequest) => identityOf(req).user;

  router.get(base, (req, reply) => {
    const userId = text(req, 'userId');
    const who = userId === undefined ? undefined : findById(ctx, ctx.kinds.principal, userId, 'all').entity;
    const all = selectConversations(ctx, {
      entityLink: text(req, 'entityLink'),
      user: who ? { id: who.id, name: who.name, filterType: text(req, 'filterType') ?? 'OWNER' } : undefined,
      resolved: queryValue(req, 'resolved') === true || queryValue(req, 'resolved') === 'true',
      startTs: number(req, 'startTs'),
      endTs: number(req, 'endTs'),
    });
    const { data, paging } = pageInTimeOrder(all, (c) => ({ ts: c.createdAt, id: c.id }), 'newest-first', queryInt(req, 'limit', 10), text(req, 'before'), text(req, 'after'));
    reply.json({ data: data.map((c) => withHref(req, c)), paging });
  });

  router.post(base, (req, reply) => {
    const body = req.body as Schemas['CreateConversation'];
    reply.status(201).json(withHref(req, startConversation(ctx, body.about, body.message, body.from ?? user(req))));
  });

  router.get(`${base}/:id`, (req, reply) => reply.json(withHref(req, getConversation(ctx, pathParam(req, 'id')))));

  router.patch(`${base}/:id`, (req, reply) => {
    const operations = req.body as Operation[];
    if (touchesMessage(operations)) requireAuthor(req, getConversation(ctx, pathParam(req, 'id')).createdBy, false);
    reply.json(withHref(req, patchConversation(ctx, pathParam(req, 'id'), operations, user(req))));
  });

  router.delete(`${base}/:id`, (req, reply) => {
    requireAuthor(req, getConversation(ctx, pathParam(req, 'id')).createdBy, true);
    reply.json(withHref(req, deleteConversation(ctx, pathParam(req, 'id'))));
  });

  router.put(`${base}/:id/reaction/:reactionType`, (req, reply) => {
    reply.json(withHref(req, reactToConversation(ctx, pathParam(req, 'id'), pathParam(req, 'reactionType') as ReactionType, user(req), true)));
  });
  router.delete(`${base}/:id/reaction/:reactionType`, (req, reply) => {
    reply.json(withHref(req, reactToConversation(ctx, pathParam(req, 'id'), pathParam(req, 'reactionType') as ReactionType, user(req), false)));
  });

  router.get(`${base}/:id/replies`, (req, reply) => {
    const replies = repliesOf(ctx, pathParam(req, 'id'));
    reply.json(pageInTimeOrder(replies, replyKey, 'oldest-first', queryInt(req, 'limit', 10), text(req, 'before'), text(req, 'after')));
  });
  router.post(`${base}/:id/replies`, (req, reply) => {
    const body = req.body as Schemas['CreateReply'];
    reply.status(201).json(addConversationReply(ctx, pathParam(req, 'id'), body.message, body.from ?? user(req)));
  });

  router.patch(`${base}/:id/replies/:replyId`, (req, reply) => {
    const [id, replyId] = [pathParam(req, 'id'), pathParam(req, 'replyId')];
    const operations = req.body as Operation[];
    if (touchesMessage(operations)) requireAuthor(req, replyOf(ctx, id, replyId).from, false);
    reply.json(changeReply(ctx, id, replyId, (r) => patchReply(ctx, r, operations)));
  });
  router.delete(`${base}/:id/replies/:replyId`, (req, reply) => {
    const [id, replyId] = [pathParam(req, 'id'), pathParam(req, 'replyId')];
    requireAuthor(req, replyOf(ctx, id, replyId).from, true);
    reply.json(changeReply(ctx, id, replyId, () => undefined));
  });

  router.put(`${base}/:id/replies/:replyId/reaction/:reactionType`, (req, reply) => {
    reply.json(changeReply(ctx, pathParam(req, 'id'), pathParam(req, 'replyId'), (r) => reactToReply(ctx, r, pathParam(req, 'reactionType') as ReactionType, user(req), true)));
  });
  router.delete(`${base}/:id/replies/:replyId/reaction/:reactionType`, (req, reply) => {
    reply.json(changeReply(ctx, pathParam(req, 'id'), pathParam(req, 'replyId'), (r) => reactToReply(ctx, r, pathParam(req, 'reactionType') as ReactionType, user(req), false)));
  });
}
