/**
 * Change events and webhooks (docs/behaviour.md "Events", "Webhooks"): `GET /v1/events`, as
 * OpenMetadata's EventResource serves it — per event type a list of entity types (`*` for all),
 * events at or after `timestamp`, oldest first, each with its entity as a GET of every field shows
 * it — and what OpenMetadata's EventSubscriptionResource serves beside the subscriptions
 * themselves (the generic routes of their kind): each destination's delivery status, the events
 * record, and the test message.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import { listEvents, renderEvent } from '../../core/change-events.ts';
import type { SubscriptionDestination } from './subscriptions.ts';
import type { WebhookSender } from './webhooks.ts';
import { testDestinations } from './webhooks.ts';
import { ApiError } from '../../http/errors.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { findByFqn, findById, pathParam, queryValue } from '../../http/request-helpers.ts';

const text = (req: ApiRequest, name: string): string | undefined => {
  const value = queryValue(req, name);
  return typeof value === 'string' ? value : undefined;
};

const destinationsOf = (stored: StoredEntity): SubscriptionDestination[] => (stored.entity.destinations as SubscriptionDestination[] | undefined) ?? [];

export function mountEventRoutes(router: OperationRoutes, ctx: CatalogContext, webhooks: WebhookSender): void {
  const eventSubscription = ctx.kinds.of('eventsubscription');
  router.get('/api/v1/events', (req, reply) => {
    const timestamp = queryValue(req, 'timestamp');
    const events = listEvents(ctx, {
      entityCreated: text(req, 'entityCreated'),
      entityUpdated: text(req, 'entityUpdated'),
      entityRestored: text(req, 'entityRestored'),
      entityDeleted: text(req, 'entityDeleted'),
      timestamp: timestamp === undefined || timestamp === '' ? undefined : Number(timestamp),
    });
    const base = req.baseUrl;
    reply.json({ data: events.map((event) => renderEvent(ctx, event, base)), paging: { total: events.length } });
  });

  const prefix = `/api/v1/${eventSubscription.collection}`;
  const byId = (req: ApiRequest) => findById(ctx, eventSubscription, pathParam(req, 'id'), 'non-deleted');
  const byName = (req: ApiRequest) => findByFqn(ctx, eventSubscription, pathParam(req, 'fqn'), 'non-deleted');

  const status = (req: ApiRequest, stored: StoredEntity) => {
    const id = pathParam(req, 'destinationId');
    const destination = destinationsOf(stored).find((d) => d.id === id);
    if (!destination) throw new ApiError(404, `Destination ${id} of ${eventSubscription.type} ${stored.entity.fullyQualifiedName} not found`);
    return webhooks.status(stored.entity, destination);
  };
  router.get(`${prefix}/:id/status/:destinationId`, (req, reply) => reply.json(status(req, byId(req))));
  router.get(`${prefix}/name/:fqn/status/:destinationId`, (req, reply) => reply.json(status(req, byName(req))));

  const destinations = (stored: StoredEntity) => destinationsOf(stored).map((d) => ({ ...d, statusDetails: webhooks.status(stored.entity, d) }));
  router.get(`${prefix}/:id/destinations`, (req, reply) => reply.json(destinations(byId(req))));
  router.get(`${prefix}/name/:fqn/destinations`, (req, reply) => reply.json(destinations(byName(req))));

  router.get(`${prefix}/id/:id/eventsRecord`, (req, reply) => reply.json(webhooks.eventsRecord(byId(req).entity.id)));
  router.get(`${prefix}/name/:fqn/eventsRecord`, (req, reply) => reply.json(webhooks.eventsRecord(byName(req).entity.id)));

  router.post(`${prefix}/testDestination`, async (req, reply) => {
    reply.json(await testDestinations(ctx, (req.body as { destinations: SubscriptionDestination[] }).destinations));
  });
}
