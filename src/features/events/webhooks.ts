/**
 * Webhook delivery (docs/behaviour.md "Webhooks"), as OpenMetadata's GenericPublisher sends
 * events: each change event an enabled subscription wants (src/features/events/subscriptions.ts) is sent,
 * as the JSON of the ChangeEvent, to each of its enabled webhook destinations — POST (or PUT, per
 * `httpMethod`) to `config.endpoint` with `config.queryParams` and `config.headers`, and, with a
 * `config.secretKey`, the header `X-OM-Signature: sha256=<hex HMAC-SHA256 of the body>`.
 *
 * Nothing of it runs in the request that made the change: the listener only appends the event to
 * the destination's queue (at most `maxPending`, beyond which an event is counted failed) and a
 * background loop per destination sends them one at a time, in order, each to an endpoint the
 * server may call (src/features/events/destinations.ts: http or https, loopback unless allowed), reading at
 * most 64 KiB of the answer. A failed attempt (no answer within the destination's `timeout`, kept
 * to 1–60 s, or an answer outside 2xx; redirects are not followed) is tried again after
 * `retryDelayMs`, doubling each time, up to the subscription's `retries`; then the event is
 * counted failed and the next one goes. Each destination's status
 * (SubscriptionStatus) and the subscription's counts are kept in the store beside it, so they go
 * with it and are exported with the state; the queues are not (a restart forgets what waited).
 */
import { hmacSha256 } from '../../platform/digest.ts';
import { hex } from '../../platform/encoding.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { ChangeEvent, Entity, Schemas } from '../../core/entity.ts';
import type { SideData } from '../../core/side-data.ts';
import { sideValue } from '../../core/side-data.ts';
import { renderEvent } from '../../core/change-events.ts';
import { endpointProblem, isWebhook, MAX_ANSWER_BYTES, TIMEOUT_RANGE_S, timeoutOf } from './destinations.ts';
import type { EventSubscription, SubscriptionDestination } from './subscriptions.ts';
import { isDeliverable, subscriptionMatches } from './subscriptions.ts';

export type SubscriptionStatus = Schemas['SubscriptionStatus'];
export type EventsRecord = Schemas['EventsRecord'];
export type Delivery = Schemas['EventSubscriptionDelivery'];
type TestDestinationStatus = Schemas['TestDestinationStatus'];

/** Each subscription's delivery statuses and counts, beside it in the store. */
/** The entity type of event subscriptions (src/kinds/event-subscription.ts). */
const SUBSCRIPTION = 'eventsubscription';

const DELIVERY: SideData<Delivery> = sideValue<Delivery>({ group: 'eventSubscriptionDelivery', owner: SUBSCRIPTION, schema: 'EventSubscriptionDelivery' });

/** The header OpenMetadata signs webhook payloads in (RestUtil.SIGNATURE_HEADER). */
const SIGNATURE_HEADER = 'X-OM-Signature';

/** `sha256=<hex>`: the HMAC-SHA256 of the exact body, keyed with the destination's secret. */
function signature(secretKey: string, body: string): string {
  return `sha256=${hex(hmacSha256(secretKey, body))}`;
}

/** What GenericPublisher.sendTestMessage sends. */
const TEST_MESSAGE = JSON.stringify({ message: 'This is a test message from catalog-kit to confirm your webhook destination is configured correctly.' });

export interface WebhookOptions {
  /** The wait before the first retry, doubled for each further one, at most a minute (default 1,000 ms). */
  retryDelayMs?: number;
  /** Events one destination may hold waiting; beyond, a new event is counted failed (default 1,000). */
  maxPending?: number;
  /** The `/api` URL of `href`s in payloads (default `http://127.0.0.1:8585/api`; the running server sets its own). */
  baseUrl?: string;
  /** Host patterns outside loopback webhooks may call (`serve --webhook-allow`; src/features/events/destinations.ts): the app keeps them in `ctx.limits.webhookHosts`. */
  allowHosts?: readonly string[];
}

interface Queue {
  readonly subscriptionId: string;
  readonly destinationId: string;
  readonly events: ChangeEvent[];
  running: boolean;
}

interface Outcome {
  ok: boolean;
  statusCode?: number;
  reason: string;
}

const MAX_DELAY_MS = 60_000;
const DEFAULT_RETRIES = 3;

/**
 * Reads at most MAX_ANSWER_BYTES of an answer's body, then drops the rest (and with it the
 * connection): only the status counts, and a destination answering a huge body must not make the
 * server hold it.
 */
async function drop(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > MAX_ANSWER_BYTES) break;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => undefined);
}

/** Sends one body to a destination's endpoint, if the server may call it (src/features/events/destinations.ts); never throws. */
async function send(destination: SubscriptionDestination, body: string, signal: AbortSignal, allowHosts: readonly string[]): Promise<Outcome> {
  const config: Partial<Schemas['Webhook']> = destination.config ?? {};
  // Checked again at each attempt: the subscription may have been stored under other `--webhook-allow` patterns.
  const refused = endpointProblem(config.endpoint, allowHosts);
  if (refused) return { ok: false, reason: refused };
  const seconds = timeoutOf(destination);
  try {
    const url = new URL(config.endpoint!);
    for (const [name, value] of Object.entries(config.queryParams ?? {})) url.searchParams.append(name, value);
    const headers: Record<string, string> = { ...config.headers, 'Content-Type': 'application/json' };
    if (config.secretKey) headers[SIGNATURE_HEADER] = signature(config.secretKey, body);
    const timeout = AbortSignal.timeout(seconds * 1000);
    const res = await fetch(url, { method: config.httpMethod ?? 'POST', headers, body, redirect: 'manual', signal: AbortSignal.any([signal, timeout]) });
    await drop(res.body);
    if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status, reason: `HTTP ${res.status}` };
    return { ok: false, statusCode: res.status, reason: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${seconds} s` : (cause?.code ?? cause?.message ?? String(error));
    return { ok: false, reason };
  }
}

/** The delivery state of a subscription: its stored statuses and counts, none yet when absent. */
function deliveryOf(ctx: CatalogContext, subscriptionId: string): Delivery {
  return ctx.store.getSide(DELIVERY, subscriptionId) ?? { statuses: {}, successfulEventsCount: 0, failedEventsCount: 0 };
}

export class WebhookSender {
  private readonly queues = new Map<string, Queue>();
  private readonly retryDelayMs: number;
  private readonly maxPending: number;
  private readonly aborts = new AbortController();
  private readonly waits = new Set<() => void>();
  private stopped = false;
  /** The `/api` URL of `href`s in the payloads. */
  baseUrl: string;

  constructor(
    private readonly ctx: CatalogContext,
    options: WebhookOptions = {},
  ) {
    this.retryDelayMs = options.retryDelayMs ?? 1_000;
    this.maxPending = options.maxPending ?? 1_000;
    this.baseUrl = options.baseUrl ?? 'http://127.0.0.1:8585/api';
    ctx.events.listeners.add(this.listener);
  }

  /** Stops for good: nothing more is queued or sent, what is in flight is aborted, waits end. */
  stop(): void {
    this.stopped = true;
    this.ctx.events.listeners.delete(this.listener);
    this.aborts.abort();
    for (const wake of this.waits) wake();
    this.waits.clear();
    this.queues.clear();
  }

  /** Events waiting (or being sent) for the destinations of a subscription. */
  pending(subscriptionId: string): number {
    let n = 0;
    for (const queue of this.queues.values()) if (queue.subscriptionId === subscriptionId) n += queue.events.length;
    return n;
  }

  /** OpenMetadata's EventsRecord of a subscription. */
  eventsRecord(subscriptionId: string): EventsRecord {
    const { successfulEventsCount, failedEventsCount } = deliveryOf(this.ctx, subscriptionId);
    const pendingEventsCount = this.pending(subscriptionId);
    return { totalEventsCount: successfulEventsCount + failedEventsCount + pendingEventsCount, pendingEventsCount, successfulEventsCount, failedEventsCount };
  }

  /** A destination's status: as kept, `disabled` when it or its subscription is, `active` before its first delivery. */
  status(subscription: Entity, destination: SubscriptionDestination): SubscriptionStatus {
    if (subscription.enabled === false || destination.enabled === false) return { status: 'disabled' };
    return deliveryOf(this.ctx, subscription.id).statuses?.[destination.id ?? ''] ?? { status: 'active' };
  }

  private readonly listener = (event: ChangeEvent): void => {
    if (this.stopped) return;
    for (const stored of this.ctx.store.ofType(SUBSCRIPTION)) {
      const subscription = stored.entity;
      if (subscription.deleted || subscription.enabled === false || !subscriptionMatches(subscription, event)) continue;
      for (const destination of (subscription.destinations as SubscriptionDestination[] | undefined) ?? []) {
        if (!isDeliverable(destination) || destination.id === undefined) continue;
        this.enqueue(subscription.id, destination.id, event);
      }
    }
  };

  private enqueue(subscriptionId: string, destinationId: string, event: ChangeEvent): void {
    const key = `${subscriptionId}/${destinationId}`;
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = { subscriptionId, destinationId, events: [], running: false }));
    if (queue.events.length >= this.maxPending) {
      this.recordFailure(queue, { ok: false, reason: `delivery queue full (${this.maxPending} events waiting)` });
      return;
    }
    queue.events.push(event);
    if (!queue.running) {
      queue.running = true;
      // Not in the request that made the change: the loop starts once that request is answered.
      setTimeout(() => void this.drain(queue), 0);
    }
  }

  /** The subscription and destination of a queue as they are now, if both still exist and are enabled. */
  private target(queue: Queue): { subscription: Entity; destination: SubscriptionDestination } | undefined {
    const stored = this.ctx.store.get(queue.subscriptionId);
    if (!stored || stored.type !== SUBSCRIPTION || stored.entity.deleted || stored.entity.enabled === false) return undefined;
    const destination = ((stored.entity.destinations as SubscriptionDestination[] | undefined) ?? []).find((d) => d.id === queue.destinationId);
    return destination && isDeliverable(destination) ? { subscription: stored.entity, destination } : undefined;
  }

  private async drain(queue: Queue): Promise<void> {
    try {
      while (!this.stopped && queue.events.length > 0) {
        let target = this.target(queue);
        if (!target) break;
        const event = queue.events[0]!;
        const body = JSON.stringify(renderEvent(this.ctx, event, this.baseUrl));
        for (let attempt = 0; ; attempt++) {
          const outcome = await send(target.destination, body, this.aborts.signal, this.ctx.limits.webhookHosts);
          if (this.stopped) return;
          if (outcome.ok) {
            this.recordSuccess(queue);
            break;
          }
          const retries = (target.subscription as Entity & EventSubscription).retries ?? DEFAULT_RETRIES;
          if (attempt >= retries) {
            this.recordFailure(queue, outcome);
            break;
          }
          const delay = Math.min(this.retryDelayMs * 2 ** attempt, MAX_DELAY_MS);
          this.recordRetry(queue, outcome, delay);
          await this.wait(delay);
          if (this.stopped) return;
          target = this.target(queue);
          if (!target) break;
        }
        if (!target) break;
        queue.events.shift();
      }
      // The subscription or destination is gone or disabled: what waited for it goes too.
      queue.events.length = 0;
    } finally {
      queue.running = false;
      if (this.queues.get(`${queue.subscriptionId}/${queue.destinationId}`) === queue && queue.events.length === 0) {
        this.queues.delete(`${queue.subscriptionId}/${queue.destinationId}`);
      }
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waits.add(wake);
    });
  }

  /** Replaces a subscription's delivery state, unless the subscription is gone (its side data went with it). */
  private update(queue: Queue, change: (delivery: Delivery, status: SubscriptionStatus) => { delivery?: Partial<Delivery>; status: SubscriptionStatus }): void {
    if (!this.ctx.store.get(queue.subscriptionId)) return;
    const delivery = deliveryOf(this.ctx, queue.subscriptionId);
    const before = delivery.statuses?.[queue.destinationId] ?? {};
    const { delivery: counts, status } = change(delivery, before);
    this.ctx.store.setSide(DELIVERY, queue.subscriptionId, { ...delivery, ...counts, statuses: { ...delivery.statuses, [queue.destinationId]: status } });
  }

  private recordSuccess(queue: Queue): void {
    const now = this.ctx.now();
    this.update(queue, (delivery, before) => ({
      delivery: { successfulEventsCount: delivery.successfulEventsCount + 1 },
      status: { ...withoutRetry(before), status: 'active', lastSuccessfulAt: now, timestamp: now },
    }));
  }

  private recordRetry(queue: Queue, outcome: Outcome, delayMs: number): void {
    const now = this.ctx.now();
    this.update(queue, (_delivery, before) => ({ status: { ...before, ...failure(outcome, now), status: 'awaitingRetry', nextAttempt: now + delayMs } }));
  }

  private recordFailure(queue: Queue, outcome: Outcome): void {
    const now = this.ctx.now();
    this.update(queue, (delivery, before) => ({
      delivery: { failedEventsCount: delivery.failedEventsCount + 1 },
      status: { ...withoutRetry(before), ...failure(outcome, now), status: 'failed' },
    }));
  }
}

function withoutRetry(status: SubscriptionStatus): SubscriptionStatus {
  const { nextAttempt: _next, ...rest } = status;
  return rest;
}

function failure(outcome: Outcome, now: number): SubscriptionStatus {
  return { lastFailedAt: now, lastFailedReason: outcome.reason, ...(outcome.statusCode !== undefined ? { lastFailedStatusCode: outcome.statusCode } : {}), timestamp: now };
}

/**
 * `POST /v1/events/subscriptions/testDestination`: the test message to each webhook destination,
 * signed like an event; each destination comes back with its outcome in `statusDetails`.
 */
export async function testDestinations(ctx: CatalogContext, destinations: SubscriptionDestination[]): Promise<SubscriptionDestination[]> {
  return Promise.all(
    destinations.map(async (destination): Promise<SubscriptionDestination> => {
      let status: TestDestinationStatus;
      if (!isWebhook(destination)) {
        status = { status: 'Failed', reason: `the mock sends test messages to Webhook destinations only, not ${destination.type}`, timestamp: ctx.now() };
      } else if (typeof destination.config?.endpoint !== 'string') {
        status = { status: 'Failed', reason: 'the destination has no config.endpoint', timestamp: ctx.now() };
      } else {
        const outcome = await send(destination, TEST_MESSAGE, AbortSignal.timeout(TIMEOUT_RANGE_S.max * 1000), ctx.limits.webhookHosts);
        status = {
          status: outcome.ok ? 'Success' : 'Failed',
          ...(outcome.ok ? {} : { reason: outcome.reason }),
          ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
          timestamp: ctx.now(),
        };
      }
      return { ...destination, statusDetails: status };
    }),
  );
}
