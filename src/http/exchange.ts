/**
 * The plain values the dispatcher (src/http/dispatcher.ts) takes and gives, with no transport in
 * them: a request as a transport hands it over (`PlainRequest`), a response as it goes back
 * (`PlainResponse`), and what a route's handler reads (`ApiRequest`) and writes (`Reply`). Every
 * transport (the express app, the in-process `fetch`) converts at its edge and adds nothing else.
 */
import type { RequestIdentity } from './authenticate.ts';
import type { BoundOperation } from './operation-validation.ts';

/** Header names in lower case, as Node and the WHATWG `Headers` give them. */
export type HeaderMap = Readonly<Record<string, string | undefined>>;

export interface PlainRequest {
  method: string;
  /** The path and query string as sent: `/api/v1/tables?limit=2`. */
  url: string;
  /** Scheme and host the client reached, `http://127.0.0.1:8585`: the base of every `href`. */
  origin: string;
  headers: HeaderMap;
  /** The body's bytes (or text) as received, already within the transport's size limit; none: undefined. */
  body?: Uint8Array | string | undefined;
}

export interface PlainResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** JSON or text; undefined for an answer without a body (204, 304, HEAD), or one given as `json`. */
  body?: string | undefined;
  /** With the dispatcher's `jsonValues`: a JSON answer's value instead of its text, shared with nothing. */
  json?: unknown;
}

/** What a handler reads: the request after authentication and validation. */
export interface ApiRequest {
  readonly method: string;
  readonly url: string;
  /** The path without its query string, as sent (not decoded). */
  readonly path: string;
  /** Query parameters (a repeated one as a list), coerced to their documented types. */
  readonly query: Record<string, unknown>;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  readonly headers: HeaderMap;
  /** The parsed body (JSON value or text); undefined without one. */
  body: unknown;
  /** Whether the request carried a body at all. */
  readonly hasBody: boolean;
  /** `<origin>/api`: the base of every `href`. */
  readonly baseUrl: string;
  /** Who sent it (set by authentication; the Admin API has none). */
  identity?: RequestIdentity;
  /** The documented operation its route serves. */
  operation?: BoundOperation;
}

/** The media type of a Content-Type header: `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
}

/** The identity authentication set; a route without it is a programming error. */
export function identityOf(req: ApiRequest): RequestIdentity {
  if (!req.identity) throw new Error('no identity: authentication did not run');
  return req.identity;
}

/** What a handler answers, built up and then turned into a PlainResponse by the dispatcher. */
export class Reply {
  statusCode = 200;
  readonly headers: Record<string, string> = {};
  /** `json`: a value to serialise and validate; `text`: a string sent as it is; `empty`: no body. */
  kind: 'none' | 'json' | 'text' | 'empty' = 'none';
  body: unknown;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  location(url: string): this {
    return this.header('location', url);
  }

  json(body: unknown): void {
    this.kind = 'json';
    this.body = body;
  }

  text(body: string, contentType: string): void {
    this.kind = 'text';
    this.body = body;
    this.header('content-type', contentType.includes('charset') ? contentType : `${contentType}; charset=utf-8`);
  }

  empty(): void {
    this.kind = 'empty';
    this.body = undefined;
  }
}

export type Handler = (req: ApiRequest, reply: Reply) => void | Promise<void>;
