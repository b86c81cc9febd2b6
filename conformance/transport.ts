/**
 * What can go wrong between the suite and a target before there is an answer to check: refused,
 * closed, too slow, not HTTP, endless. Each is an exit 2 ("cannot test this target"), never a
 * rule failure, a stack trace or a hang (conformance/README.md lists the messages).
 */
import http from 'node:http';
import https from 'node:https';

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

/** A request failure in words: the error codes of Node's HTTP client and of the socket, with what they mean. */
function describeFailure(err: unknown, timeoutMs: number): { failure: TransportFailure; reason: string } {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return { failure: 'timeout', reason: `no answer within ${timeoutMs / 1000} s (--timeout)` };
  const code = e.code ?? e.cause?.code ?? '';
  const detail = [code, e.message ?? e.cause?.message].filter(Boolean).join(': ');
  if (code === 'ECONNREFUSED') return { failure: 'refused', reason: `connection refused (${detail})` };
  if (code.startsWith('HPE_')) return { failure: 'not-http', reason: `the answer is not HTTP (${detail})` };
  if (code === 'ECONNRESET' || code === 'EPIPE' || /other side closed|socket hang up/i.test(detail)) {
    return { failure: 'closed', reason: `the connection was closed without an answer (${detail})` };
  }
  return { failure: 'other', reason: detail || String(err) };
}

/** What came back: the status, the headers (names in lower case) and the body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One keep-alive pool per client and scheme; idle sockets never keep the process alive (Node unrefs them). */
export function agents(): { http: http.Agent; https: https.Agent } {
  // Idle sockets are dropped after 4 s when the server gives no Keep-Alive hint (Node follows a hint).
  return { http: new http.Agent({ keepAlive: true, timeout: 4000 }), https: new https.Agent({ keepAlive: true, timeout: 4000 }) };
}

/**
 * Sends one request with Node's HTTP client (a fraction of fetch's CPU per request, which counts
 * against a remote target: README.md "Conformance suite"). The whole exchange, body included, must
 * end within `timeoutMs`; the body may not exceed MAX_RESPONSE_BYTES. Failures are TransportErrors
 * whose message starts with `<METHOD> <url>`.
 */
export function sendRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  pool: { http: http.Agent; https: https.Agent },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const outgoing: Record<string, string | number> = { ...headers };
    if (body !== undefined) outgoing['content-length'] = Buffer.byteLength(body);
    let answered = false;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err instanceof TransportError) return reject(new TransportError(`${method} ${url}: ${err.message}`, url, err.failure));
      const { failure, reason } = describeFailure(err, timeoutMs);
      reject(new TransportError(answered ? `${method} ${url}: reading the response failed: ${reason}` : `${method} ${url} failed: ${reason}`, url, failure));
    };
    const req = (secure ? https : http).request(target, { method, headers: outgoing, agent: secure ? pool.https : pool.http }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
        if (bytes > MAX_RESPONSE_BYTES) {
          fail(new TransportError(`the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`, url, 'too-large'));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('aborted', () => fail(Object.assign(new Error('the connection was closed in the middle of the answer'), { code: 'ECONNRESET' })));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(() => {
      const timeout = Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
      fail(timeout);
      req.destroy(timeout);
    }, timeoutMs);
    req.on('error', fail);
    req.end(body);
  });
}
