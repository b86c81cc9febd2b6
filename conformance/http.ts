/**
 * A small HTTP client for the target: one call = one recorded Exchange (request and response),
 * which is what failure reports print as curl commands.
 */
import { ConnectionPool, DEFAULT_TIMEOUT_MS, sendRequest, type RawResponse } from './transport.ts';

export { TransportError } from './transport.ts';
export type { TransportFailure } from './transport.ts';

/** Which credentials a request carries. `invalid:*` tokens are built by the suite itself. */
export type AuthMode = 'admin' | 'restricted' | 'none' | { header: string; label: string; secret?: boolean };

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path under the base URL, starting with `/v1/`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
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
}

let seqCounter = 0;

/** The characters URLSearchParams writes unencoded (application/x-www-form-urlencoded). */
const FORM_SAFE = /^[A-Za-z0-9*._-]*$/;

export class HttpClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly pool = new ConnectionPool();

  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get hasRestrictedToken(): boolean {
    return this.opts.restrictedToken !== undefined && this.opts.restrictedToken !== '';
  }

  get adminToken(): string {
    return this.opts.token;
  }

  url(path: string, query?: RequestSpec['query']): string {
    let qs = '';
    for (const k in query) {
      const v = query[k];
      if (v === undefined) continue;
      const value = String(v);
      // What URLSearchParams leaves as is goes as is; anything else is encoded by it (form encoding).
      const pair = FORM_SAFE.test(k) && FORM_SAFE.test(value) ? `${k}=${value}` : new URLSearchParams([[k, value]]).toString();
      qs += qs ? `&${pair}` : pair;
    }
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

    let res: RawResponse;
    try {
      res = await sendRequest(url, spec.method, headers, requestBody, this.timeoutMs, this.pool);
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
}

/** A plain JSON object, or undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}
