/**
 * Tasks (docs/behaviour.md "Tasks"; OpenMetadata 2.0's Task entity, which also holds what 1.x
 * called suggestions): a piece of work about an entity, assigned to users or teams, resolved or
 * closed. Its FQN is its `taskId` (`TASK-00001`), numbered by the server; its writes are recorded as
 * `taskCreated` and `taskUpdated` change events. Resolving a task is src/features/tasks/.
 */
import type { CatalogContext, ListFilter } from '../core/context.ts';
import type { Entity, EntityReference } from '../core/entity.ts';
import { referenceTo } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { principalIds } from '../features/tasks/assignments.ts';
import { findLive } from '../core/references.ts';
import { governed } from './shapes.ts';

const TASK_ID = /^TASK-(\d{5,})$/;
/** The open statuses (`statusGroup=open`); every other status is closed. */
export const OPEN_STATUSES: readonly string[] = ['Open', 'InProgress', 'Pending'];

const refs = (value: unknown): EntityReference[] => (Array.isArray(value) ? (value as EntityReference[]) : []);

/** Whether the task is assigned to one of `ids`. */
export const assignedTo = (task: Entity, ids: ReadonlySet<string>): boolean => refs(task.assignees).some((a) => ids.has(a.id));

/** Whether the entity the task is about is owned by one of `ids`. */
export function aboutOwnedBy(ctx: CatalogContext, task: Entity, ids: ReadonlySet<string>): boolean {
  const about = (task.about as EntityReference | undefined)?.id;
  const entity = about ? ctx.store.get(about)?.entity : undefined;
  return refs(entity?.owners).some((o) => ids.has(o.id));
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const equals =
  (field: string): ListFilter =>
  (value) => {
    const wanted = text(value);
    return wanted === undefined ? undefined : (e) => e[field] === wanted;
  };

export const task = governed('task', 'tasks', 'Task', {
  refFields: {
    assignees: { kinds: ['user', 'team'], by: 'name', many: true },
    reviewers: { kinds: ['user', 'team'], by: 'name', many: true },
  },
  defaults: { status: 'Open', priority: 'Medium', commentCount: 0 },
  immutableFields: ['taskId', 'createdBy', 'createdAt', 'about'],
  changeEventTypes: { entityCreated: 'taskCreated', entityUpdated: 'taskUpdated' },
  listFilters: {
    status: equals('status'),
    statusGroup: (value) =>
      value === 'open' ? (e) => OPEN_STATUSES.includes(String(e.status)) : value === 'closed' ? (e) => !OPEN_STATUSES.includes(String(e.status)) : undefined,
    category: equals('category'),
    type: equals('type'),
    priority: equals('priority'),
    assignee: (value, ctx) => {
      const name = text(value);
      if (name === undefined) return undefined;
      const ids = principalIds(ctx, name);
      return (e) => assignedTo(e, ids);
    },
    createdBy: (value) => {
      const name = text(value);
      return name === undefined ? undefined : (e) => (e.createdBy as EntityReference | undefined)?.name === name;
    },
    // The views of `/tasks/owned` and `/tasks/visible` (src/features/tasks/): by a user's name.
    ownedBy: (value, ctx) => {
      const name = text(value);
      if (name === undefined) return undefined;
      const ids = principalIds(ctx, name);
      return (e) => aboutOwnedBy(ctx, e, ids);
    },
    visibleTo: (value, ctx) => {
      const name = text(value);
      if (name === undefined) return undefined;
      const ids = principalIds(ctx, name);
      return (e) => assignedTo(e, ids) || aboutOwnedBy(ctx, e, ids);
    },
    aboutEntity: (value) => {
      const fqn = text(value);
      return fqn === undefined ? undefined : (e) => (e.about as EntityReference | undefined)?.fullyQualifiedName === fqn;
    },
  },
  // `about` + `aboutType`: the entity the task is about, by FQN (404 when there is none).
  resolveRequest(request, entity, ctx) {
    delete entity.aboutType;
    if (typeof request.about !== 'string') return;
    const type = typeof request.aboutType === 'string' ? request.aboutType : 'table';
    if (!ctx.kinds.all.some((k) => k.type === type)) throw CatalogError.badRequest(`Invalid aboutType ${type}`);
    const about = findLive(ctx, [type], 'fqn', request.about);
    entity.about = referenceTo(about.type, about.entity);
  },
  // Named by its task id: a request naming an existing task id updates it, any other is a new task.
  fqn(request, entity, ctx) {
    const named = TASK_ID.exec(request.name) ? ctx.store.getByFqn('task', request.name) : undefined;
    if (named) {
      entity.taskId = named.entity.taskId;
      return named.entity.fullyQualifiedName;
    }
    let last = 0;
    for (const stored of ctx.store.ofType('task')) last = Math.max(last, Number(TASK_ID.exec(String(stored.entity.taskId))?.[1] ?? 0));
    entity.taskId = `TASK-${String(last + 1).padStart(5, '0')}`;
    return entity.taskId as string;
  },
  beforeCreate(entity, ctx) {
    const user = ctx.store.getByFqn(ctx.kinds.principal.type, String(entity.updatedBy));
    if (user) entity.createdBy = referenceTo(user.type, user.entity);
    entity.createdAt = entity.updatedAt;
    entity.comments ??= [];
  },
});
