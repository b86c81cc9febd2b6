/**
 * Which change events an event subscription receives (docs/behaviour.md "Webhooks"): those about
 * the entity types of `filteringRules.resources` (`all`, or no rules at all: every type) that pass
 * each filter of `input.filters` — OpenMetadata's `filterByEventType` (`eventTypeList`),
 * `filterByFqn` (`fqnList`), `filterByEntityId` (`entityIdList`) and `filterByUpdaterName`
 * (`updateByUserList`), each with `effect` include (the event must match) or exclude (it must
 * not). Other filter names are kept but filter nothing.
 */
import type { ChangeEvent, Entity, Schemas } from '../../core/entity.ts';

export type EventSubscription = Schemas['EventSubscription'];
export type SubscriptionDestination = Schemas['SubscriptionDestination'];
type ArgumentsInput = Schemas['ArgumentsInput'];

/** Per filter name: the argument it reads and the value of the event it compares. */
const FILTERS: Readonly<Record<string, { argument: string; valueOf: (event: ChangeEvent) => string | undefined }>> = {
  filterByEventType: { argument: 'eventTypeList', valueOf: (e) => e.eventType },
  filterByFqn: { argument: 'fqnList', valueOf: (e) => e.entityFullyQualifiedName },
  filterByEntityId: { argument: 'entityIdList', valueOf: (e) => e.entityId },
  filterByUpdaterName: { argument: 'updateByUserList', valueOf: (e) => e.userName },
};

function passes(filter: ArgumentsInput, event: ChangeEvent): boolean {
  const known = FILTERS[filter.name ?? ''];
  if (!known) return true;
  const wanted = new Set((filter.arguments ?? []).filter((a) => a.name === known.argument).flatMap((a) => a.input ?? []));
  const value = known.valueOf(event);
  const hit = value !== undefined && wanted.has(value);
  return filter.effect === 'exclude' ? !hit : hit;
}

/** Whether the subscription (as stored) wants the event. */
export function subscriptionMatches(subscription: Entity, event: ChangeEvent): boolean {
  const { filteringRules, input } = subscription as Entity & EventSubscription;
  const resources = filteringRules?.resources;
  if (resources && !resources.some((r) => r === 'all' || r === event.entityType)) return false;
  return (input?.filters ?? []).every((filter) => passes(filter, event));
}

/** A destination the mock delivers to: an enabled webhook with an endpoint. */
export function isDeliverable(destination: SubscriptionDestination): boolean {
  return (destination.type === 'Webhook' || destination.type === 'Generic') && destination.enabled !== false && typeof destination.config?.endpoint === 'string';
}
