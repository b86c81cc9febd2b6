/**
 * A transparent reverse proxy in front of the unmodified reference server, for the conformance
 * self-test (./selftest.test.ts). With no fault active it forwards every request and every answer
 * as they are. Each active fault (./faults.ts) rewrites the request on its way in (method, path,
 * query, body, headers), the answer on its way out, or both, so that the server looks broken in one
 * precise way. Faults are switched in-process with `setFaults`, never over HTTP. The memory the
 * faults need (versions seen, soft-deleted ids, cascade prefixes, …) lives here, in `Memory`, and
 * starts empty at every switch.
 */
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Json = Record<string, unknown>;

/** The answer as it stands: from the server, or as the faults have rewritten it so far. */
interface Answer {
  status: number;
  text: string;
  /** `text` parsed as JSON; undefined when it is empty or not JSON. */
  body: unknown;
  /** The server's response headers (names in lower case), with the changes rewrites made. */
  headers: IncomingHttpHeaders;
}

/**
 * A replacement answer: a JSON `body` (none: an empty answer), or a raw `text` with its content
 * type; `headers` sets response headers (null removes one). The other headers stay the server's.
 */
export interface Rewritten {
  status: number;
  body?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string | null>;
}

/** Rewrites the answer, or leaves it (undefined). */
type Rewrite = (answer: Answer) => Rewritten | undefined;

/** What a request under /api/v1 addresses, parsed from the path the client sent. */
interface Target {
  /** `tables`, `services/storageServices`, `dataQuality/testCases`… */
  collection: string;
  /** '' the collection itself; `bulk`, `restore`, `name` (by FQN), `id`, `sub` (a path below an id), or `other`. */
  shape: '' | 'bulk' | 'restore' | 'name' | 'id' | 'sub' | 'other';
  id?: string;
  fqn?: string;
  /** The path below the id (`followers`, `results/latest`…) when shape is `sub`. */
  sub?: string;
}

/** One request through the proxy, as a fault sees it. */
export interface Exchange {
  /** The method, target, query and body as the client sent them (a fault's trigger). */
  readonly method: string;
  readonly target: Target | undefined;
  readonly query: URLSearchParams;
  /** The body: parsed JSON, else the text; undefined when empty. */
  readonly body: unknown;
  readonly memory: Memory;
  /** An Admin token of the server, for faults that grant rights. */
  readonly adminToken: string | undefined;
  /** What goes to the server: faults may change any of it. `body` undefined sends none. */
  readonly forward: { method: string; pathname: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: unknown };
  /** Rewrites the answer on its way back (rewrites run in the order given, each on the previous one's result). */
  reply(rewrite: Rewrite): void;
  /** Answers without asking the server (JSON body); the faults after this one do not run. */
  answer(status: number, body: unknown): void;
}

/** A deliberate misbehaviour; may hold the request (a promise) before it is forwarded. */
export type Fault = (exchange: Exchange) => void | Promise<void>;

/** What the faults remember across requests. The proxy records entities and soft deletes; each fault keeps its own lists. */
class Memory {
  readonly versions = new Map<string, number>();
  readonly entities = new Map<string, Json>();
  readonly idByFqn = new Map<string, string>();
  readonly softDeleted = new Set<string>();
  readonly restoredPrefixes: string[] = [];
  readonly cascadePrefixes: string[] = [];
  readonly childScopes = new Map<string, string>();
  readonly races = new Map<string, { raced: boolean; release: () => void }>();
  /** What a fault remembers that no other needs (the last sample data written...), by the fault's own key. */
  readonly notes = new Map<string, unknown>();

  /** Bookkeeping on every answer of the server, before any fault rewrites it. */
  observe(x: Exchange, answer: Answer): void {
    const body = asJson(answer.body);
    const id = body?.id;
    if (answer.status >= 300 || !body || typeof id !== 'string') return;
    if (this.entities.size > 50_000) this.entities.clear();
    if (typeof body.version === 'number') this.versions.set(id, body.version);
    if (typeof body.fullyQualifiedName === 'string') {
      this.entities.set(id, body);
      this.idByFqn.set(body.fullyQualifiedName, id);
    }
    const shape = x.target?.shape;
    if (x.method === 'DELETE' && (shape === 'id' || shape === 'name') && x.query.get('hardDelete') !== 'true' && body.deleted === true) this.softDeleted.add(id);
    if (x.method === 'PUT' && shape === 'restore') this.softDeleted.delete(id);
  }
}

export function asJson(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

const COLLECTION = /^\/api\/v1\/((?:services|dataQuality)\/[A-Za-z]+|[A-Za-z]+)(\/.*)?$/;

function parseTarget(pathname: string): Target | undefined {
  const m = COLLECTION.exec(pathname);
  if (!m) return undefined;
  const collection = m[1]!;
  const rest = m[2] ?? '';
  if (rest === '' || rest === '/') return { collection, shape: '' };
  if (rest === '/bulk') return { collection, shape: 'bulk' };
  if (rest === '/restore') return { collection, shape: 'restore' };
  if (rest.startsWith('/name/')) {
    try {
      return { collection, shape: 'name', fqn: decodeURIComponent(rest.slice(6)) };
    } catch {
      return { collection, shape: 'name' };
    }
  }
  const id = /^\/([0-9a-f-]{36})$/i.exec(rest)?.[1];
  if (id) return { collection, shape: 'id', id };
  const sub = /^\/([0-9a-f-]{36})\/(.+)$/i.exec(rest);
  if (sub) return { collection, shape: 'sub', id: sub[1], sub: sub[2] };
  return { collection, shape: 'other' };
}

/** Headers of one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

export interface FaultyProxyOptions {
  /** Origin of the server behind the proxy, e.g. `http://127.0.0.1:8585`. */
  upstream: string;
  /** The faults that `setFaults` may switch on, by id. */
  faults: Readonly<Record<string, Fault>>;
  /** An Admin token of the server (see `Exchange.adminToken`). */
  adminToken?: string;
}

export class FaultyProxy {
  private activeIds: ReadonlySet<string> = new Set();
  private memory = new Memory();
  private readonly upstream: URL;
  private readonly server = http.createServer((req, res) => {
    this.handle(req, res).catch((error: unknown) => {
      const text = `faulty proxy: ${error instanceof Error ? error.message : String(error)}`;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });

  private constructor(private readonly options: FaultyProxyOptions) {
    this.upstream = new URL(options.upstream);
  }

  /** Listens on a free port of 127.0.0.1. */
  static async start(options: FaultyProxyOptions): Promise<FaultyProxy> {
    const proxy = new FaultyProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  /** `http://127.0.0.1:<port>`: put `/api` after it for the suite's base URL. */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Switches exactly these faults on (none: a transparent proxy) and empties the memory. */
  setFaults(ids: Iterable<string>): void {
    const next = new Set(ids);
    const unknown = [...next].filter((id) => !Object.hasOwn(this.options.faults, id));
    if (unknown.length > 0) throw new Error(`no fault for ${unknown.join(', ')}`);
    this.activeIds = next;
    this.memory = new Memory();
  }

  get active(): readonly string[] {
    return [...this.activeIds];
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://proxy.invalid');
    const faults = url.pathname.startsWith('/api/')
      ? Object.entries(this.options.faults)
          .filter(([id]) => this.activeIds.has(id))
          .map(([, fault]) => fault)
      : [];
    const method = req.method ?? 'GET';
    const body = parseBody(raw, req.headers['content-type']);
    const rewrites: Rewrite[] = [];
    let direct: Upstream | undefined;
    const x: Exchange = {
      method,
      target: parseTarget(url.pathname),
      query: new URLSearchParams(url.searchParams),
      body,
      memory: this.memory,
      adminToken: this.options.adminToken,
      forward: { method, pathname: url.pathname, query: new URLSearchParams(url.searchParams), headers: withoutHopByHop(req.headers), body },
      reply: (rewrite) => void rewrites.push(rewrite),
      answer: (status, json) => {
        direct = { status, headers: { 'content-type': 'application/json; charset=utf-8' }, raw: Buffer.from(JSON.stringify(json)) };
      },
    };
    for (const fault of faults) {
      await fault(x);
      if (direct) break;
    }
    const upstream = direct ?? (await this.send(x, rawUrl, url, raw, req.headers['content-length'] !== undefined));
    if (faults.length === 0) return writeAsIs(res, upstream);

    let current: Answer = { status: upstream.status, text: upstream.raw.toString('utf8'), body: undefined, headers: withoutHopByHop(upstream.headers) };
    current.body = parseJson(current.text);
    x.memory.observe(x, current);
    let changed = false;
    let contentType: string | undefined;
    for (const rewrite of rewrites) {
      const out = rewrite(current);
      if (!out) continue;
      changed = true;
      const text = out.text ?? (out.body === undefined ? '' : JSON.stringify(out.body));
      const headers = { ...current.headers };
      for (const [name, value] of Object.entries(out.headers ?? {})) {
        if (value === null) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = value;
      }
      current = { status: out.status, text, body: out.text !== undefined ? undefined : out.body, headers };
      contentType = out.contentType;
    }
    if (!changed) return writeAsIs(res, upstream);
    // A rewritten answer: its ETag and length no longer hold.
    const headers: OutgoingHttpHeaders = { ...current.headers };
    for (const name of ['etag', 'content-type', 'content-length']) delete headers[name];
    if (current.text) {
      headers['content-type'] = contentType ?? 'application/json; charset=utf-8';
      headers['content-length'] = Buffer.byteLength(current.text);
    }
    res.writeHead(current.status, headers);
    res.end(current.text || undefined);
  }

  /** Forwards the request as the faults left it: the client's own bytes wherever no fault changed them. */
  private send(x: Exchange, rawUrl: string, url: URL, raw: Buffer, hadLength: boolean): Promise<Upstream> {
    const { forward } = x;
    const samePath = forward.pathname === url.pathname && forward.query.toString() === url.searchParams.toString();
    const qs = forward.query.toString();
    const path = samePath ? rawUrl : `${forward.pathname}${qs ? `?${qs}` : ''}`;
    const headers = { ...forward.headers };
    delete headers['content-length'];
    let body: Buffer | undefined = raw.length > 0 || hadLength ? raw : undefined;
    if (forward.body !== x.body) {
      if (forward.body === undefined) {
        body = undefined;
        delete headers['content-type'];
      } else {
        body = Buffer.from(JSON.stringify(forward.body));
        // A JSON Patch stays one.
        const sent = headers['content-type'];
        headers['content-type'] = typeof sent === 'string' && sent.includes('json') ? sent : 'application/json';
      }
    }
    if (body !== undefined) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const request = http.request(
        // agent false: one connection per request, so no reused socket can be closed under us by the server's keep-alive timeout.
        { hostname: this.upstream.hostname, port: this.upstream.port, method: forward.method, path, headers, agent: false },
        (response) => {
          const parts: Buffer[] = [];
          response.on('data', (chunk: Buffer) => parts.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, raw: Buffer.concat(parts) }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}

function writeAsIs(res: ServerResponse, upstream: Upstream): void {
  const headers: OutgoingHttpHeaders = withoutHopByHop(upstream.headers);
  // A chunked answer, now buffered, goes out with its length.
  if (headers['content-length'] === undefined && upstream.raw.length > 0) headers['content-length'] = upstream.raw.length;
  res.writeHead(upstream.status, headers);
  res.end(upstream.raw.length > 0 ? upstream.raw : undefined);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  return contentType?.includes('json') ? (parseJson(text) ?? text) : text;
}
