/**
 * Change events (docs/behaviour.md "Events"): every write that changes an entity — create, update
 * (PUT, PATCH), soft delete, restore, hard delete, follow, unfollow, vote — records exactly one
 * ChangeEvent in OpenMetadata's shape (changeEvent.json), about the entity the request names. The
 * domain's write functions (src/core/lifecycle.ts, social.ts) call `recordChange` once their
 * change is in the store, so a refused request records nothing; a request that changes nothing (an
 * unchanged PUT or PATCH, a soft delete of a deleted entity) records nothing either.
 *
 * The events live in the store, in a side data area keyed by event id (src/core/side-data.ts), so
 * reset, the state export and import and the `--data` journal cover them; at most
 * `ctx.events.max` are kept, the oldest dropped first. Each recorded event then goes to the
 * listeners of the context (the followers' feed, src/features/events/feed.ts; the webhook sender,
 * src/features/events/webhooks.ts): nothing here waits for a delivery.
 */
import type { CatalogContext } from './context.ts';
import type { ChangeDescription, ChangeEvent, Entity } from './entity.ts';
import { render } from './projection.ts';
import type { StoredEntity } from './entity-store.ts';
import type { SideData } from './side-data.ts';
import { NO_ENTITY, sideValue } from './side-data.ts';
import { trimOldest } from './bounded.ts';

type ChangeEventType = ChangeEvent['eventType'];

/** The recorded events, by event id, oldest first. */
export const EVENTS: SideData<ChangeEvent> = sideValue<ChangeEvent>({ group: 'changeEvents', owner: NO_ENTITY, schema: 'ChangeEvent' });

/** A committed change, as the write that made it describes it. */
export interface EntityChange {
  readonly eventType: ChangeEventType;
  /** The entity as stored after the change (for a hard delete: as it was when removed). */
  readonly stored: StoredEntity;
  /** The user who made the change (the token's user). */
  readonly user: string;
  /** The version before the change; the current one when the write keeps the version. */
  readonly previousVersion: number;
  /** What changed; absent for a create or a hard delete (changeEvent.json). */
  readonly changeDescription?: ChangeDescription;
}

/** Records one change event, keeps the log bounded, tells the listeners; returns the event. */
export function recordChange(ctx: CatalogContext, change: EntityChange): ChangeEvent {
  const { stored } = change;
  const entity: Entity = stored.entity;
  const renamed =
    change.eventType === 'entityCreated' || change.eventType === 'entityUpdated'
      ? ctx.kinds.all.find((k) => k.type === stored.type)?.changeEventTypes?.[change.eventType]
      : undefined;
  const event: ChangeEvent = {
    id: ctx.newId(),
    eventType: renamed ?? change.eventType,
    entityType: stored.type,
    entityId: entity.id,
    entityFullyQualifiedName: entity.fullyQualifiedName,
    userName: change.user,
    timestamp: ctx.now(),
    previousVersion: change.previousVersion,
    currentVersion: entity.version,
    ...(change.changeDescription ? { changeDescription: change.changeDescription } : {}),
    // The stored entity is never changed in place (a write replaces it), so this is a snapshot.
    entity,
  };
  return recordEvent(ctx, event);
}

/** Records an event made elsewhere (a lineage edge's, src/features/lineage/edges.ts): stored, bounded, told to the listeners. */
export function recordEvent(ctx: CatalogContext, event: ChangeEvent): ChangeEvent {
  ctx.store.setSide(EVENTS, event.id, event);
  trimOldest(ctx, EVENTS, ctx.events.max);
  for (const listener of ctx.events.listeners) {
    try {
      listener(event);
    } catch {
      // A listener only queues; its failure is not the write's (docs/behaviour.md "Events").
    }
  }
  return event;
}

/** `GET /v1/events` filters: per event type, `*` (every kind) or a comma list of entity types; events at or after `timestamp`. */
export interface EventQuery {
  entityCreated?: string | undefined;
  entityUpdated?: string | undefined;
  entityRestored?: string | undefined;
  entityDeleted?: string | undefined;
  timestamp?: number | undefined;
}

/** The event types each filter parameter selects: `entityDeleted` covers soft and hard deletes (ChangeEventRepository.list). */
const PARAMETER_TYPES: Readonly<Record<keyof Omit<EventQuery, 'timestamp'>, readonly ChangeEventType[]>> = {
  entityCreated: ['entityCreated', 'taskCreated'],
  entityUpdated: ['entityUpdated', 'taskUpdated'],
  entityRestored: ['entityRestored'],
  entityDeleted: ['entityDeleted', 'entitySoftDeleted'],
};

/** The lineage events (entity type `lineage`) are listed with the updates: OpenMetadata 2.0 has no parameter of their own. */
const LINEAGE_TYPES: readonly ChangeEventType[] = ['entityLineageAdded', 'entityLineageUpdated', 'entityLineageDeleted'];

/** `*` → every kind; `table,dashboard` → those; absent or empty → none. */
function entityTypesOf(value: string | undefined): ((type: string) => boolean) | undefined {
  if (value === undefined) return undefined;
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (types.includes('*')) return () => true;
  if (types.length === 0) return undefined;
  const wanted = new Set(types);
  return (type) => wanted.has(type);
}

/**
 * The events a `GET /v1/events` asks for (EventResource.get): for each event type, the entity types
 * its parameter names; a type whose parameter is absent is not listed. In timestamp order, oldest
 * first (EntityUtil.compareChangeEvent), ties in the order recorded.
 */
export function listEvents(ctx: CatalogContext, query: EventQuery): ChangeEvent[] {
  const accepts = new Map<ChangeEventType, (type: string) => boolean>();
  for (const [parameter, eventTypes] of Object.entries(PARAMETER_TYPES) as [keyof typeof PARAMETER_TYPES, readonly ChangeEventType[]][]) {
    const test = entityTypesOf(query[parameter]);
    if (test) for (const eventType of parameter === 'entityUpdated' ? [...eventTypes, ...LINEAGE_TYPES] : eventTypes) accepts.set(eventType, test);
  }
  if (accepts.size === 0) return [];
  const since = query.timestamp ?? 0;
  const out: ChangeEvent[] = [];
  for (const [, event] of ctx.store.sideValuesOf(EVENTS)) {
    if (event.timestamp >= since && accepts.get(event.eventType)?.(event.entityType)) out.push(event);
  }
  // Recorded in order; a clock set back (tests, an import) is the only way out of order. The sort is stable.
  return out.sort((a, b) => a.timestamp - b.timestamp);
}

/**
 * The event with its entity as a GET of every field shows it (`href` from `base`, the `/api` URL;
 * secrets masked in the `contract` profile): what `GET /v1/events` lists and a webhook receives.
 */
export function renderEvent(ctx: CatalogContext, event: ChangeEvent, base: string): ChangeEvent {
  const kind = ctx.kinds.all.find((k) => k.type === event.entityType);
  if (!kind || event.entity === undefined) return event;
  const snapshot: StoredEntity = { entity: event.entity as Entity, type: event.entityType, parentId: undefined, history: [], deletedBy: undefined };
  return { ...event, entity: render(ctx, kind, snapshot, 'all', base) };
}
