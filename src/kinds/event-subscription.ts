/**
 * Event subscriptions (docs/behaviour.md "Webhooks"): which change events go to which webhook, as
 * OpenMetadata's EventSubscription (type `eventsubscription`, served at `/v1/events/subscriptions`).
 * A create request names the entity types it wants in `resources`, which the entity keeps as
 * `filteringRules.resources` (OpenMetadata's EventSubscriptionMapper), and each destination gets an
 * id — derived from the subscription's name and the destination's place, so a PUT of the same
 * request changes nothing. `filteringRules` is shown with `fields=filteringRules`. A delete is
 * always for good, as OpenMetadata's. A webhook's endpoint must be one the server may call
 * (src/features/events/destinations.ts). The deliveries themselves are src/features/events/webhooks.ts.
 */
import { sha1 } from '../platform/digest.ts';
import { hex } from '../platform/encoding.ts';
import type { CreateRequest, Schemas } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { destinationsProblem } from '../features/events/destinations.ts';
import { governed } from './shapes.ts';

/** A UUID (version 5 layout) from a text: the same text, the same id. */
function stableId(text: string): string {
  const h = hex(sha1(text));
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16).padStart(2, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

export const eventSubscription = governed('eventsubscription', 'events/subscriptions', 'EventSubscription', {
  relationshipFields: ['filteringRules'],
  emptyArrays: ['owners', 'domains'],
  defaults: { destinations: [] },
  hardDeleteOnly: true,
  fromRequest(request) {
    const { resources, ...rest } = request as CreateRequest & { resources?: string[]; destinations?: Record<string, unknown>[] };
    const out: CreateRequest = { ...rest };
    if (resources !== undefined) out.filteringRules = { resources: [...resources], rules: [], actions: [] };
    const destinations = (request as { destinations?: Record<string, unknown>[] }).destinations;
    if (destinations !== undefined) {
      out.destinations = destinations.map((destination, index) => ({ id: stableId(`${request.name}\0${index}`), ...destination }));
    }
    return out;
  },
  // Only endpoints the server may call (src/features/events/destinations.ts): http or https, on loopback unless `--webhook-allow` names the host.
  beforeWrite(entity, ctx) {
    const found = destinationsProblem((entity.destinations as Schemas['SubscriptionDestination'][] | undefined) ?? [], ctx.limits.webhookHosts);
    if (found) throw CatalogError.badRequest(found.problem, [{ path: `destinations.${found.index}.config.endpoint`, message: found.problem }]);
  },
});
