/**
 * Which webhook endpoints the server may call, and for how long (docs/behaviour.md "Webhooks" and
 * "Limits of one request"). A shared mock must not be a way into the network it sits in: it calls
 * `http` and `https` URLs only, on loopback hosts (127.0.0.0/8, ::1, `localhost`) unless the
 * operator lets it call others (`serve --webhook-allow <host-pattern>`, `ctx.limits.webhookHosts`).
 * The same check refuses a subscription when it is written (src/kinds/event-subscription.ts) and an
 * attempt when it is made (src/features/events/webhooks.ts), since the allowed hosts may have changed since.
 */
import ipaddr from 'ipaddr.js';
import picomatch from 'picomatch';
import type { Schemas } from '../../core/entity.ts';

type SubscriptionDestination = Schemas['SubscriptionDestination'];

/** The range of a destination's `timeout` the server keeps to, in seconds (default 10). */
export const TIMEOUT_RANGE_S = { min: 1, max: 60, default: 10 } as const;

/** The most of an answer's body read before it is dropped (only its status counts). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** The seconds an attempt may take: the destination's `timeout` within TIMEOUT_RANGE_S. */
export function timeoutOf(destination: SubscriptionDestination): number {
  const given = destination.timeout ?? TIMEOUT_RANGE_S.default;
  return Math.min(TIMEOUT_RANGE_S.max, Math.max(TIMEOUT_RANGE_S.min, given));
}

/** 127.0.0.0/8 (also IPv4-mapped in IPv6), ::1, `localhost` and names under it (RFC 6761). */
function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // A host name that is not an address is not loopback: no name is looked up.
  if (!ipaddr.isValid(host)) return false;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) as the IPv4 it carries.
  return ipaddr.process(host).range() === 'loopback';
}

/** The destinations the server calls: webhooks (and OpenMetadata's older `Generic`). */
export const isWebhook = (destination: SubscriptionDestination): boolean => destination.type === 'Webhook' || destination.type === 'Generic';

/**
 * Why the server may not call `endpoint`, or undefined when it may: not a URL, not `http` or
 * `https`, or a host outside loopback that no pattern of `allowHosts` (`*` any run of characters)
 * names.
 */
export function endpointProblem(endpoint: unknown, allowHosts: readonly string[]): string | undefined {
  if (typeof endpoint !== 'string') return 'config.endpoint is not a URL';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `config.endpoint ${endpoint} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `config.endpoint ${endpoint}: only http and https endpoints are called, not ${url.protocol.slice(0, -1)}`;
  // The URL parser has normalised the host: lower case, IPv4 in dotted decimal, IPv6 in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopback(host)) return undefined;
  if (allowHosts.some((pattern) => picomatch.isMatch(host, pattern, { nocase: true, dot: true }))) return undefined;
  return `config.endpoint ${endpoint}: ${host} is not a loopback host, and the server calls other hosts only when started with --webhook-allow <host-pattern> naming it`;
}

/** The first problem of the webhook destinations of a subscription, with its place, or undefined. */
export function destinationsProblem(destinations: readonly SubscriptionDestination[], allowHosts: readonly string[]): { index: number; problem: string } | undefined {
  for (const [index, destination] of destinations.entries()) {
    if (!isWebhook(destination) || destination.config?.endpoint === undefined) continue;
    const problem = endpointProblem(destination.config.endpoint, allowHosts);
    if (problem) return { index, problem };
  }
  return undefined;
}
