/**
 * What a task's own operations do (docs/behaviour.md "Tasks"): resolve, close, comment, count. Each
 * change of a task is a JSON Patch of it through the lifecycle, so it gets a new version and a
 * `taskUpdated` event; an approved description update or suggestion is also written to the entity
 * it is about, a change of that entity with its own version and event.
 */
import type { Operation } from 'fast-json-patch';
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { Entity, EntityReference, Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { patchEntity } from '../../core/lifecycle.ts';

type ResolveTask = Schemas['ResolveTask'];
type TaskComment = Schemas['TaskComment'];
type TaskCount = Schemas['TaskCount'];

const OPEN = new Set(['Open', 'InProgress', 'Pending']);
const STATUS_OF: Readonly<Record<string, string>> = { Approved: 'Approved', AutoApproved: 'Approved', Rejected: 'Rejected', AutoRejected: 'Rejected', Cancelled: 'Cancelled' };
/** Task types whose approval writes a description. */
const DESCRIPTION_TYPES = new Set(['DescriptionUpdate', 'Suggestion']);

function userRef(ctx: CatalogContext, name: string): EntityReference {
  const user = ctx.store.getByFqn(ctx.kinds.principal.type, name);
  if (!user) throw CatalogError.notFound(ctx.kinds.principal.type, name);
  return referenceTo(user.type, user.entity);
}

function requireOpen(task: StoredEntity): void {
  if (!OPEN.has(String(task.entity.status))) throw CatalogError.badRequest(`Task ${String(task.entity.taskId)} is already ${String(task.entity.status)}`);
}

/** The description a resolution writes, and where: the entity, or a column named by `columns.<name>`. */
function descriptionChange(task: Entity, body: ResolveTask): { value: string; column?: string } | undefined {
  const payload = (task.payload ?? {}) as Record<string, unknown>;
  if (!DESCRIPTION_TYPES.has(String(task.type))) return undefined;
  if (task.type === 'Suggestion' && payload.suggestionType !== undefined && payload.suggestionType !== 'SuggestDescription' && payload.suggestionType !== 'Description')
    return undefined;
  const value = body.newValue ?? payload.newDescription ?? payload.suggestedValue;
  if (typeof value !== 'string') return undefined;
  const path = typeof payload.fieldPath === 'string' ? /^columns\.(.+)$/.exec(payload.fieldPath)?.[1] : undefined;
  return path === undefined ? { value } : { value, column: path };
}

/** Writes an approved description to the entity the task is about. */
function applyDescription(ctx: CatalogContext, task: Entity, change: { value: string; column?: string }, user: string): void {
  const about = task.about as EntityReference | undefined;
  const target = about ? ctx.store.get(about.id) : undefined;
  if (!about || !target || target.entity.deleted) throw CatalogError.badRequest(`Task ${String(task.taskId)} is about no live entity`);
  const kind = ctx.kinds.of(target.type);
  if (change.column === undefined) {
    patchEntity(ctx, kind, target, [{ op: 'add', path: '/description', value: change.value }], user);
    return;
  }
  const columns = (target.entity.columns as { name: string }[] | undefined) ?? [];
  const at = columns.findIndex((c) => c.name === change.column);
  if (at < 0) throw CatalogError.badRequest(`Invalid column name ${change.column}`);
  patchEntity(ctx, kind, target, [{ op: 'add', path: `/columns/${at}/description`, value: change.value }], user);
}

/** `POST /v1/tasks/{id}/resolve`. */
export function resolveTask(ctx: CatalogContext, kind: Kind, task: StoredEntity, body: ResolveTask, user: string): StoredEntity {
  requireOpen(task);
  const type = body.resolutionType ?? 'Completed';
  const status = STATUS_OF[type] ?? 'Completed';
  if (status === 'Approved' || status === 'Completed') {
    const change = descriptionChange(task.entity, body);
    if (change) applyDescription(ctx, task.entity, change, user);
  }
  const resolution = {
    type,
    resolvedBy: userRef(ctx, user),
    resolvedAt: ctx.now(),
    ...(body.comment !== undefined ? { comment: body.comment } : {}),
    ...(body.newValue !== undefined ? { newValue: body.newValue } : {}),
  };
  const ops: Operation[] = [
    { op: 'replace', path: '/status', value: status },
    { op: 'add', path: '/resolution', value: resolution },
  ];
  if (body.payload !== undefined) ops.push({ op: 'add', path: '/payload', value: { ...((task.entity.payload as object | undefined) ?? {}), ...body.payload } });
  return patchEntity(ctx, kind, task, ops, user);
}

/** `POST /v1/tasks/{id}/close`. */
export function closeTask(ctx: CatalogContext, kind: Kind, task: StoredEntity, comment: string | undefined, user: string): StoredEntity {
  requireOpen(task);
  const resolution = { type: 'Cancelled', resolvedBy: userRef(ctx, user), resolvedAt: ctx.now(), ...(comment !== undefined ? { comment } : {}) };
  return patchEntity(
    ctx,
    kind,
    task,
    [
      { op: 'replace', path: '/status', value: 'Cancelled' },
      { op: 'add', path: '/resolution', value: resolution },
    ],
    user,
  );
}

const commentsOf = (task: StoredEntity): TaskComment[] => (task.entity.comments as TaskComment[] | undefined) ?? [];

/** `POST /v1/tasks/{id}/comments`. */
export function addComment(ctx: CatalogContext, kind: Kind, task: StoredEntity, message: string, user: string): StoredEntity {
  const comment: TaskComment = { id: ctx.newId(), message, author: userRef(ctx, user), createdAt: ctx.now() };
  return withComments(ctx, kind, task, [...commentsOf(task), comment], user);
}

/** The task with these comments and their count, as a new version. */
function withComments(ctx: CatalogContext, kind: Kind, task: StoredEntity, comments: TaskComment[], user: string): StoredEntity {
  return patchEntity(
    ctx,
    kind,
    task,
    [
      { op: 'add', path: '/comments', value: comments },
      { op: 'add', path: '/commentCount', value: comments.length },
    ],
    user,
  );
}

/** The comment's author's name; 404 when the task has no such comment. */
export function commentAuthor(task: StoredEntity, commentId: string): string | undefined {
  const comment = commentsOf(task).find((c) => c.id === commentId);
  if (!comment) throw new CatalogError('notFound', `Comment ${commentId} of task ${String(task.entity.taskId)} not found`);
  return comment.author.name;
}

/** `PATCH` (a new message) or `DELETE` (none) `/v1/tasks/{id}/comments/{commentId}` (who may: the routes check). */
export function changeComment(ctx: CatalogContext, kind: Kind, task: StoredEntity, commentId: string, message: string | undefined, user: string): StoredEntity {
  const comments = commentsOf(task);
  const at = comments.findIndex((c) => c.id === commentId);
  if (at < 0) throw new CatalogError('notFound', `Comment ${commentId} of task ${String(task.entity.taskId)} not found`);
  const next = message === undefined ? comments.filter((_, i) => i !== at) : comments.map((c, i) => (i === at ? { ...c, message } : c));
  return withComments(ctx, kind, task, next, user);
}

/** `GET /v1/tasks/count`: the given tasks by status group. */
export function countTasks(tasks: readonly Entity[]): TaskCount {
  const count: TaskCount = { open: 0, inProgress: 0, completed: 0, total: tasks.length };
  for (const task of tasks) {
    if (task.status === 'InProgress') count.inProgress++;
    else if (OPEN.has(String(task.status))) count.open++;
    else count.completed++;
  }
  return count;
}
