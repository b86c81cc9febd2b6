/**
 * The activity stream (docs/behaviour.md "Activity"; OpenMetadata 2.0's ActivityEvent): every
 * change event about an entity or a task becomes one activity event, so what a write did shows
 * in the activity of the entity, of its actor and of the users who own or follow it; a task's
 * activity is about the entity the task is about. Reactions and replies are kept with it. Like
 * the feed, the activity lives in the store (side data `activity`, replies in `activityReplies`),
 * bounded by `ctx.events.max`, oldest dropped first.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { ChangeDescription, ChangeEvent, Entity, EntityReference, Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { SideData } from '../../core/side-data.ts';
import { NO_ENTITY, sideValue } from '../../core/side-data.ts';
import { trimOldest } from '../../core/bounded.ts';

export type ActivityEvent = Schemas['ActivityEvent'];
type Post = Schemas['Post'];
type ReactionType = Schemas['Reaction']['reactionType'];

export const ACTIVITY: SideData<ActivityEvent> = sideValue<ActivityEvent>({ group: 'activity', owner: NO_ENTITY, schema: 'ActivityEvent' });
export const REPLIES: SideData<readonly Post[]> = sideValue<readonly Post[]>({ group: 'activityReplies', owner: NO_ENTITY, schema: 'ActivityReplies' });

const DAY = 86_400_000;
const NO_USER = '00000000-0000-0000-0000-000000000000';
const linkOf = (type: string, fqn: string): string => `<#E::${type}::${fqn}>`;

const TYPES: Readonly<Partial<Record<ChangeEvent['eventType'], ActivityEvent['eventType']>>> = {
  entityCreated: 'EntityCreated',
  taskCreated: 'EntityCreated',
  entityUpdated: 'EntityUpdated',
  taskUpdated: 'EntityUpdated',
  entityFieldsChanged: 'EntityUpdated',
  entitySoftDeleted: 'EntitySoftDeleted',
  entityDeleted: 'EntityDeleted',
  entityRestored: 'EntityRestored',
};

/** An update's activity type, by the first field it changed. */
const FIELD_TYPES: Readonly<Record<string, ActivityEvent['eventType']>> = {
  description: 'DescriptionUpdated',
  tags: 'TagsUpdated',
  owners: 'OwnerUpdated',
  domains: 'DomainUpdated',
  extension: 'CustomPropertyUpdated',
};

const clip = (value: unknown, max: number): string | undefined => {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? text.slice(0, max) : text;
};

function firstChange(change: ChangeDescription | undefined): { name: string; oldValue?: unknown; newValue?: unknown } | undefined {
  return change?.fieldsUpdated[0] ?? change?.fieldsAdded[0] ?? change?.fieldsDeleted[0];
}

function actorOf(ctx: CatalogContext, name: string | undefined): EntityReference {
  const user = name === undefined ? undefined : ctx.store.getByFqn(ctx.kinds.principal.type, name);
  return user ? referenceTo(user.type, user.entity) : { id: NO_USER, type: ctx.kinds.principal.type, name: name ?? 'system' };
}

/** The activity event of a change event; none for what is no entity (lineage). */
export function activityOf(ctx: CatalogContext, event: ChangeEvent): ActivityEvent | undefined {
  const entity = event.entity as Entity | undefined;
  const type = TYPES[event.eventType];
  if (!entity || !type || !ctx.kinds.all.some((k) => k.type === event.entityType)) return undefined;
  const change = firstChange(event.changeDescription);
  const eventType =
    type === 'EntityUpdated' && change
      ? (FIELD_TYPES[change.name] ?? (change.name.startsWith('columns.') && change.name.endsWith('.description') ? 'ColumnDescriptionUpdated' : 'EntityUpdated'))
      : type;
  const about = event.entityType === 'task' ? (entity.about as EntityReference | undefined) : undefined;
  const verb = eventType
    .replace(/^Entity/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const out: ActivityEvent = {
    id: ctx.newId(),
    eventType,
    entity: referenceTo(event.entityType, entity),
    about: about ? linkOf(about.type, about.fullyQualifiedName ?? about.name ?? about.id) : linkOf(event.entityType, entity.fullyQualifiedName),
    actor: actorOf(ctx, event.userName),
    timestamp: event.timestamp,
    summary: clip(`${event.userName ?? 'system'} ${verb} ${event.entityType} ${entity.fullyQualifiedName}`, 500)!,
    reactions: [],
  };
  if (Array.isArray(entity.domains) && entity.domains.length) out.domains = entity.domains as EntityReference[];
  if (change) {
    out.fieldName = clip(change.name, 256)!;
    const oldValue = clip(change.oldValue, 1000);
    const newValue = clip(change.newValue, 1000);
    if (oldValue !== undefined) out.oldValue = oldValue;
    if (newValue !== undefined) out.newValue = newValue;
  }
  if (event.changeDescription) out.changeDescription = event.changeDescription;
  return out;
}

/** Writes the activity from the context's change events from now on. */
export function keepActivity(ctx: CatalogContext): void {
  ctx.events.listeners.add((event) => {
    const activity = activityOf(ctx, event);
    if (!activity) return;
    ctx.store.setSide(ACTIVITY, activity.id, activity);
    trimOldest(ctx, ACTIVITY, ctx.events.max);
  });
}

export interface ActivityQuery {
  /** Only the last this many days. */
  days: number;
  test?: (activity: ActivityEvent) => boolean;
  /** Only about entities of this domain (FQN), or of one of these. */
  domains?: readonly string[] | undefined;
}

/** The activity a query selects, newest first. */
export function selectActivity(ctx: CatalogContext, query: ActivityQuery): ActivityEvent[] {
  const since = ctx.now() - query.days * DAY;
  const out: ActivityEvent[] = [];
  for (const [, activity] of ctx.store.sideValuesOf(ACTIVITY)) {
    if (activity.timestamp < since || (query.test && !query.test(activity))) continue;
    if (query.domains?.length && !(activity.domains ?? []).some((d) => query.domains!.includes(d.fullyQualifiedName ?? ''))) continue;
    out.push(activity);
  }
  return out.sort((a, b) => b.timestamp - a.timestamp);
}

/** Whether an activity is about the entity: its own change, or one of a task about it. */
export const isAbout = (activity: ActivityEvent, type: string, entity: Entity): boolean =>
  activity.entity.id === entity.id ||
  activity.about === linkOf(type, entity.fullyQualifiedName) ||
  (activity.about ?? '').startsWith(`${linkOf(type, entity.fullyQualifiedName).slice(0, -1)}::`);

/** Whether an activity's `about` is the entity link or inside it. */
export function isAboutLink(activity: ActivityEvent, link: string): boolean {
  const about = activity.about ?? '';
  const open = link.endsWith('>') ? link.slice(0, -1) : link;
  return about === link || about.startsWith(`${open}::`);
}

function activityNamed(ctx: CatalogContext, id: string): ActivityEvent {
  const activity = ctx.store.getSide(ACTIVITY, id);
  if (!activity) throw CatalogError.notFound('activity', id);
  return activity;
}

/** Adds (`on`) or removes a user's reaction; answers the activity. */
export function react(ctx: CatalogContext, id: string, reactionType: ReactionType, userName: string, on: boolean): ActivityEvent {
  const activity = activityNamed(ctx, id);
  const user = actorOf(ctx, userName);
  const others = (activity.reactions ?? []).filter((r) => !(r.reactionType === reactionType && r.user.id === user.id));
  const next = { ...activity, reactions: on ? [...others, { reactionType, user }] : others };
  ctx.store.setSide(ACTIVITY, id, next);
  return next;
}

/** The replies to an activity, oldest first. */
export function repliesOf(ctx: CatalogContext, id: string): readonly Post[] {
  activityNamed(ctx, id);
  return ctx.store.getSide(REPLIES, id) ?? [];
}

export function addReply(ctx: CatalogContext, id: string, message: string, from: string): Post {
  const replies = repliesOf(ctx, id);
  const post: Post = { id: ctx.newId(), message, from, postTs: ctx.now(), reactions: [] };
  ctx.store.setSide(REPLIES, id, [...replies, post]);
  return post;
}
