/**
 * What can go wrong between the suite and a target before there is an answer to check: refused,
 * closed, too slow, not HTTP, endless. Each is an exit 2 ("cannot test this target"), never a
 * rule failure, a stack trace or a hang (conformance/README.md lists the messages).
 */

/** Why a request got no usable answer; probe.ts turns it into advice. */
export type TransportFailure = 'refused' | 'timeout' | 'closed' | 'not-http' | 'too-large' | 'other';

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

/** Per-request time limit when --timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Larger answers are not this API (a page of a list is kilobytes): stop reading, exit 2. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A fetch failure in words: the error codes of undici and Node, with what they mean. */
export function describeFailure(err: unknown, timeoutMs: number): { failure: TransportFailure; reason: string } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.cause?.code === 'UND_ERR_HEADERS_TIMEOUT' || e.cause?.code === 'UND_ERR_BODY_TIMEOUT') {
    return { failure: 'timeout', reason: `no answer within ${timeoutMs / 1000} s (--timeout)` };
  }
  const code = e.cause?.code ?? '';
  const detail = [code, e.cause?.message ?? e.message].filter(Boolean).join(': ');
  if (code === 'ECONNREFUSED') return { failure: 'refused', reason: `connection refused (${detail})` };
  if (code.startsWith('HPE_')) return { failure: 'not-http', reason: `the answer is not HTTP (${detail})` };
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || /other side closed|socket hang up/i.test(detail)) {
    return { failure: 'closed', reason: `the connection was closed without an answer (${detail})` };
  }
  return { failure: 'other', reason: detail || String(err) };
}

/** The body as text, at most MAX_RESPONSE_BYTES (an endless or huge answer is not this API). */
export async function readLimited(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new TransportError(`the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`, res.url, 'too-large');
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
