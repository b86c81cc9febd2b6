/**
 * The activity feed (docs/behaviour.md "Activity feed"): the followers' notifications as
 * OpenMetadata's FeedResource serves threads — list, count, get, patch (mark read), delete.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { Operation } from 'fast-json-patch';
import type { CatalogContext } from '../../core/context.ts';
import type { FeedFilterType, FeedQuery, Thread } from './feed.ts';
import { addPost, changePost, countThreads, deleteThread, getThread, pageOfThreads, patchThread, postOf, selectThreads, startThread } from './feed.ts';
import type { Schemas } from '../../core/entity.ts';
import { ApiError } from '../../http/errors.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { pathParam, queryInt, queryValue } from '../../http/request-helpers.ts';

const withHref = (req: ApiRequest, thread: Thread): Thread => ({ ...thread, href: `${req.baseUrl}/v1/feed/${thread.id}` });

const text = (req: ApiRequest, name: string): string | undefined => {
  const value = queryValue(req, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const flag = (req: ApiRequest, name: string): boolean | undefined => {
  const value = queryValue(req, name);
  return value === undefined || value === '' ? undefined : value === true || value === 'true';
};

/** The filters the list and the count share. */
function feedQuery(req: ApiRequest, resolvedParameter: string): FeedQuery {
  return {
    userId: text(req, 'userId'),
    filterType: text(req, 'filterType') as FeedFilterType | undefined,
    entityLink: text(req, 'entityLink'),
    type: text(req, 'type'),
    resolved: flag(req, resolvedParameter),
  };
}

export function mountFeedRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  router.get('/api/v1/feed', (req, reply) => {
    const threads = selectThreads(ctx, feedQuery(req, 'resolved'));
    const { data, paging } = pageOfThreads(threads, queryInt(req, 'limit', 10), text(req, 'before'), text(req, 'after'));
    reply.json({ data: data.map((t) => withHref(req, t)), paging });
  });

  router.get('/api/v1/feed/count', (req, reply) => {
    reply.json({ data: countThreads(ctx, feedQuery(req, 'isResolved')) });
  });

  router.get('/api/v1/feed/:id', (req, reply) => {
    reply.json(withHref(req, getThread(ctx, pathParam(req, 'id'))));
  });

  router.patch('/api/v1/feed/:id', (req, reply) => {
    reply.json(withHref(req, patchThread(ctx, pathParam(req, 'id'), req.body as Operation[], identityOf(req).user)));
  });

  router.post('/api/v1/feed', (req, reply) => {
    const body = req.body as Schemas['CreateThread'];
    reply.status(201).json(withHref(req, startThread(ctx, body, body.from ?? identityOf(req).user)));
  });

  router.post('/api/v1/feed/:id/posts', (req, reply) => {
    const body = req.body as Schemas['CreateReply'];
    reply.json(withHref(req, addPost(ctx, pathParam(req, 'id'), body.message, body.from ?? identityOf(req).user)));
  });

  // A post's message is changed by its writer; a post is deleted by its writer or an Admin.
  const requireWriter = (req: ApiRequest, deleting: boolean) => {
    const { user, roles } = identityOf(req);
    const post = postOf(ctx, pathParam(req, 'id'), pathParam(req, 'postId'));
    if (post.from !== user && !(deleting && roles.includes('Admin'))) throw ApiError.forbidden(user, deleting ? 'Delete' : 'EditAll');
  };
  router.patch('/api/v1/feed/:id/posts/:postId', (req, reply) => {
    const operations = req.body as Operation[];
    if (operations.some((op) => op.path === '/message')) requireWriter(req, false);
    reply.json(changePost(ctx, pathParam(req, 'id'), pathParam(req, 'postId'), operations, identityOf(req).user));
  });
  router.delete('/api/v1/feed/:id/posts/:postId', (req, reply) => {
    requireWriter(req, true);
    reply.json(changePost(ctx, pathParam(req, 'id'), pathParam(req, 'postId'), undefined, identityOf(req).user));
  });

  router.delete('/api/v1/feed/:id', (req, reply) => {
    reply.json(withHref(req, deleteThread(ctx, pathParam(req, 'id'))));
  });
}
