/**
 * What can go wrong between the suite and a target before there is an answer to check: refused,
 * closed, too slow, not HTTP, endless, not a URL. Each is an exit 2 ("cannot test this target"),
 * never a rule failure, a stack trace or a hang (conformance/README.md lists the messages). The
 * requests go through a WHATWG `fetch` (Node's is undici): this maps its errors to those cases.
 */

/** Why a request got no usable answer; probe.ts turns it into advice. */
export type TransportFailure = 'refused' | 'timeout' | 'closed' | 'not-http' | 'too-large' | 'bad-url' | 'other';

/** The target did not answer (refused, reset, timed out, not HTTP): not a rule failure. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly failure: TransportFailure = 'other',
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

interface ErrorLike {
  name?: string;
  code?: unknown;
  message?: string;
  cause?: unknown;
}

/**
 * A fetch error in words. undici rejects with `TypeError: fetch failed` whose `cause` has the
 * socket's code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET "other side closed", the parser's HPE_*);
 * the request's AbortSignal.timeout rejects with a `TimeoutError`; a URL it cannot parse is a
 * TypeError whose cause is ERR_INVALID_URL.
 */
export function describeFetchError(err: unknown, timeoutMs: number): { failure: TransportFailure; reason: string } {
  const chain: ErrorLike[] = [];
  for (let e = err as ErrorLike | undefined; e && typeof e === 'object' && chain.length < 5; e = e.cause as ErrorLike | undefined) chain.push(e);
  if (chain.some((e) => e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')) {
    return { failure: 'timeout', reason: `no answer within ${timeoutMs / 1000} s (--timeout)` };
  }
  const coded = chain.find((e) => typeof e.code === 'string') ?? chain.at(-1) ?? {};
  const code = typeof coded.code === 'string' ? coded.code : '';
  const detail = [code, coded.message].filter(Boolean).join(': ') || String(err);
  if (code === 'ECONNREFUSED') return { failure: 'refused', reason: `connection refused (${detail})` };
  if (code.startsWith('HPE_')) return { failure: 'not-http', reason: `the answer is not HTTP (${detail})` };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || /other side closed|socket hang up/i.test(detail)) {
    return { failure: 'closed', reason: `the connection was closed without an answer (${detail})` };
  }
  if (code === 'ERR_INVALID_URL' || /Failed to parse URL/i.test(chain[0]?.message ?? '')) return { failure: 'bad-url', reason: `not a URL (${detail})` };
  return { failure: 'other', reason: detail };
}
