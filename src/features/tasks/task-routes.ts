/**
 * The task operations beyond the generic entity routes (docs/behaviour.md "Tasks"; OpenMetadata
 * 2.0's TaskResource, the web UI's `ui/rest/tasksAPI.ts`): the lists of the token's user
 * (`assigned`, `owned`, `visible`, `created`), the counts, resolve, close and comments. Registered
 * before the generic routes, which serve list, create, upsert, get, patch, delete and versions.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { listEntities } from '../../core/listing.ts';
import { parseFields, render } from '../../core/projection.ts';
import { ApiError } from '../../http/errors.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam, queryInclude, queryInt, queryValue, renderFor } from '../../http/request-helpers.ts';
import { addComment, changeComment, closeTask, commentAuthor, countTasks, resolveTask } from './tasks.ts';

/** The query parameter each view of the token's user sets to the user's name. */
const VIEWS: Readonly<Record<string, string>> = { assigned: 'assignee', owned: 'ownedBy', visible: 'visibleTo', created: 'createdBy' };

export function mountTaskRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const TASK = ctx.kinds.of('task');
  const user = (req: ApiRequest) => identityOf(req).user;
  const live = (req: ApiRequest) => findById(ctx, TASK, pathParam(req, 'id'), 'non-deleted');
  const answer = (req: ApiRequest, stored: ReturnType<typeof live>) => renderFor(ctx, TASK, req, stored);

  for (const [view, parameter] of Object.entries(VIEWS)) {
    router.get(`/api/v1/tasks/${view}`, (req, reply) => {
      const fields = parseFields(ctx, TASK, queryValue(req, 'fields'));
      const before = queryValue(req, 'before');
      const after = queryValue(req, 'after');
      const { items, paging } = listEntities(ctx, TASK, {
        include: queryInclude(req),
        limit: queryInt(req, 'limit', 10),
        ...(typeof before === 'string' ? { before } : {}),
        ...(typeof after === 'string' ? { after } : {}),
        filters: { ...req.query, [parameter]: user(req) },
      });
      reply.json({ data: items.map((s) => render(ctx, TASK, s, fields, req.baseUrl)), paging });
    });
  }

  router.get('/api/v1/tasks/count', (req, reply) => {
    const view = queryValue(req, 'view');
    const filters: Record<string, unknown> = { ...req.query };
    if (typeof view === 'string' && VIEWS[view]) filters[VIEWS[view]] = user(req);
    const { items } = listEntities(ctx, TASK, { include: 'non-deleted', limit: 1_000_000, filters });
    reply.json(countTasks(items.map((s) => s.entity)));
  });

  router.post('/api/v1/tasks/:id/resolve', (req, reply) => {
    reply.json(answer(req, resolveTask(ctx, TASK, live(req), req.body as Schemas['ResolveTask'], user(req))));
  });

  router.post('/api/v1/tasks/:id/close', (req, reply) => {
    const comment = queryValue(req, 'comment');
    reply.json(answer(req, closeTask(ctx, TASK, live(req), typeof comment === 'string' ? comment : undefined, user(req))));
  });

  router.post('/api/v1/tasks/:id/comments', (req, reply) => {
    reply.json(answer(req, addComment(ctx, TASK, live(req), (req.body as Schemas['TaskCommentRequest']).message, user(req))));
  });

  // A comment is edited by its author only, and deleted by its author or an Admin.
  const change = (req: ApiRequest, message: string | undefined) => {
    const task = live(req);
    const commentId = pathParam(req, 'commentId');
    const { user: name, roles } = identityOf(req);
    if (commentAuthor(task, commentId) !== name && !(message === undefined && roles.includes('Admin'))) {
      throw ApiError.forbidden(name, message === undefined ? 'Delete' : 'EditAll');
    }
    return answer(req, changeComment(ctx, TASK, task, commentId, message, name));
  };
  router.patch('/api/v1/tasks/:id/comments/:commentId', (req, reply) => reply.json(change(req, (req.body as Schemas['TaskCommentRequest']).message)));
  router.delete('/api/v1/tasks/:id/comments/:commentId', (req, reply) => reply.json(change(req, undefined)));
}
