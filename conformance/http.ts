/**
 * The suite's client of the target: one call = one recorded Exchange (request and response), which
 * is what failure reports print as curl commands. Requests go through a WHATWG `fetch`: Node's own
 * (undici, connections kept alive) by default, or any function that answers like it (an in-process
 * catalog's `fetch`), given as `ClientOptions.fetch`.
 */
import { describeFetchError, TransportError } from './fetch-errors.ts';

export { TransportError } from './fetch-errors.ts';
export type { TransportFailure } from './fetch-errors.ts';

/** What the suite needs of `fetch`: `globalThis.fetch` is one, and so is an in-process catalog's. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Per-request time limit when --timeout is not given. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Larger answers are not this API (a page of a list is kilobytes): stop reading, exit 2. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Which credentials a request carries. `invalid:*` tokens are built by the suite itself. */
export type AuthMode = 'admin' | 'restricted' | 'none' | { header: string; label: string; secret?: boolean };

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path under the base URL, starting with `/v1/`. */
  path: string;
  /** Query parameters; an array repeats the parameter once per value (`search_after=a&search_after=b`). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** JSON body (serialised with JSON.stringify). */
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). Wins over `body`. */
  rawBody?: string;
  contentType?: string;
  auth?: AuthMode;
  /** Further request headers (e.g. `If-Match`), sent as given. */
  headers?: Record<string, string>;
}

export interface Exchange {
  seq: number;
  method: string;
  url: string;
  /** How the request was authenticated, for the curl rendering (`$CK_TOKEN`...). */
  authLabel: string;
  /** The literal Authorization header when it is not a secret (missing/invalid tokens). */
  authHeader?: string;
  contentType?: string;
  /** The further request headers the spec gave (`If-Match`...), for the curl rendering. */
  requestHeaders?: Record<string, string>;
  requestBody?: string;
  status: number;
  responseContentType: string;
  /** Response headers, names in lower case. */
  responseHeaders: Record<string, string>;
  responseText: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: unknown;
  /** The documented operation the request addressed (`GET /v1/containers/{id}`), once observed. */
  operation?: string;
}

/** The run was interrupted (Ctrl-C): stop sending, clean up. */
export class AbortedError extends Error {
  constructor() {
    super('interrupted');
    this.name = 'AbortedError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  token: string;
  restrictedToken?: string;
  timeoutMs?: number;
  /** Checked before every request; set when the run is interrupted. */
  isAborted?: () => boolean;
  /** How requests are sent (default `globalThis.fetch`). */
  fetch?: Fetch;
}

let seqCounter = 0;

export class HttpClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: Fetch;

  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  get hasRestrictedToken(): boolean {
    return this.opts.restrictedToken !== undefined && this.opts.restrictedToken !== '';
  }

  get adminToken(): string {
    return this.opts.token;
  }

  url(path: string, query?: RequestSpec['query']): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) {
      if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
      else if (v !== undefined) params.set(k, String(v));
    }
    const qs = params.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    if (this.opts.isAborted?.()) throw new AbortedError();
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    const auth = spec.auth ?? 'admin';
    let authLabel: string;
    let authHeader: string | undefined;
    if (auth === 'admin') {
      headers.authorization = `Bearer ${this.opts.token}`;
      authLabel = 'admin';
    } else if (auth === 'restricted') {
      headers.authorization = `Bearer ${this.opts.restrictedToken ?? ''}`;
      authLabel = 'restricted';
    } else if (auth === 'none') {
      authLabel = 'none';
    } else {
      headers.authorization = auth.header;
      authLabel = auth.label;
      if (!auth.secret) authHeader = auth.header;
    }
    let requestBody: string | undefined;
    if (spec.rawBody !== undefined) requestBody = spec.rawBody;
    else if (spec.body !== undefined) requestBody = JSON.stringify(spec.body);
    const contentType = requestBody !== undefined ? (spec.contentType ?? 'application/json') : undefined;
    if (contentType) headers['content-type'] = contentType;

    let res: { status: number; headers: Record<string, string>; text: string };
    try {
      res = await this.exchange(url, spec.method, headers, requestBody);
    } catch (err) {
      if (this.opts.isAborted?.()) throw new AbortedError();
      throw err;
    }
    const text = res.text;
    const responseContentType = res.headers['content-type'] ?? '';
    let json: unknown;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return {
      seq: ++seqCounter,
      method: spec.method,
      url,
      authLabel,
      authHeader,
      contentType,
      ...(spec.headers ? { requestHeaders: spec.headers } : {}),
      requestBody,
      status: res.status,
      responseContentType,
      responseHeaders: res.headers,
      responseText: text,
      json,
    };
  }

  /**
   * One request and its whole answer within the time limit; the body at most MAX_RESPONSE_BYTES.
   * Redirects are answers like any other (the suite checks them), not followed.
   */
  private async exchange(url: string, method: string, headers: Record<string, string>, body: string | undefined) {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let answered = false;
    try {
      const res = await this.fetch(url, { method, headers, body, signal, redirect: 'manual' });
      answered = true;
      const names: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        names[name] = names[name] === undefined ? value : `${names[name]}, ${value}`;
      });
      return { status: res.status, headers: names, text: await readText(res, url) };
    } catch (err) {
      if (err instanceof TransportError) throw new TransportError(`${method} ${url}: ${err.message}`, url, err.failure);
      const { failure, reason } = describeFetchError(err, this.timeoutMs);
      throw new TransportError(answered ? `${method} ${url}: reading the response failed: ${reason}` : `${method} ${url} failed: ${reason}`, url, failure);
    }
  }
}

/** The body as UTF-8 text, given up past MAX_RESPONSE_BYTES (an endless answer is not read into memory). */
async function readText(res: Response, url: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new TransportError(`the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`, url, 'too-large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A plain JSON object, or undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}
