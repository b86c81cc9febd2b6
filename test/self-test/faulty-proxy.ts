/**
 * A transparent proxy in front of the unmodified reference server, for the conformance self-test
 * (./selftest.test.ts, ./drift.test.ts): a `fetch` the suite is given (`runConformance`'s and
 * `runDrift`'s `fetch` option) that forwards to the server's own `fetch`: an in-process catalog's
 * (src/app/in-process/catalog.ts), or Node's to a server on a port. With no fault active it
 * forwards every request and hands back the server's answer untouched. Each active fault
 * (./faults.ts) rewrites the request on its way in (method, path, query, body, headers), the answer
 * on its way out, or both, so that the server looks broken in one precise way. Faults are switched
 * with `setFaults`. The memory the faults need (versions seen, soft-deleted ids, cascade prefixes,
 * …) lives here, in `Memory`, and starts empty at every switch.
 */
import type { Fetch } from '../../conformance/http.ts';

export type Json = Record<string, unknown>;

/** Header names in lower case. */
type HeaderRecord = Record<string, string>;

/** The answer as it stands: from the server, or as the faults have rewritten it so far. */
interface Answer {
  status: number;
  text: string;
  /** `text` parsed as JSON; undefined when it is empty or not JSON. */
  body: unknown;
  /** The server's response headers (names in lower case), with the changes rewrites made. */
  headers: HeaderRecord;
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
  readonly forward: { method: string; pathname: string; query: URLSearchParams; headers: HeaderRecord; body: unknown };
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

/** Headers of one connection, never handed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

export interface FaultyProxyOptions {
  /** How requests reach the server behind the proxy: an in-process catalog's `fetch`, or Node's. */
  upstream: Fetch;
  /** The faults that `setFaults` may switch on, by id. */
  faults: Readonly<Record<string, Fault>>;
  /** An Admin token of the server (see `Exchange.adminToken`). */
  adminToken?: string;
}

export class FaultyProxy {
  private activeIds: ReadonlySet<string> = new Set();
  /** The active faults, in the order of the table. */
  private activeFaults: readonly Fault[] = [];
  private memory = new Memory();

  constructor(private readonly options: FaultyProxyOptions) {}

  /** The suite's `fetch`: the server's answer, or what the active faults make of it. */
  readonly fetch: Fetch = (input, init) => this.handle(input, init);

  /** Switches exactly these faults on (none: a transparent proxy) and empties the memory. */
  setFaults(ids: Iterable<string>): void {
    const next = new Set(ids);
    const unknown = [...next].filter((id) => !Object.hasOwn(this.options.faults, id));
    if (unknown.length > 0) throw new Error(`no fault for ${unknown.join(', ')}`);
    this.activeIds = next;
    this.activeFaults = Object.entries(this.options.faults)
      .filter(([id]) => next.has(id))
      .map(([, fault]) => fault);
    this.memory = new Memory();
  }

  get active(): readonly string[] {
    return [...this.activeIds];
  }

  private async handle(input: string, init: RequestInit): Promise<Response> {
    const url = new URL(input);
    const faults = url.pathname.startsWith('/api/') ? this.activeFaults : [];
    if (faults.length === 0) return this.options.upstream(input, init);
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') throw new TypeError('the faulty proxy forwards text bodies only');
    const method = init.method ?? 'GET';
    const headers = headersOf(init.headers);
    const body = parseBody(init.body ?? undefined, headers['content-type']);
    const rewrites: Rewrite[] = [];
    let direct: Answer | undefined;
    const x: Exchange = {
      method,
      target: parseTarget(url.pathname),
      query: new URLSearchParams(url.searchParams),
      body,
      memory: this.memory,
      adminToken: this.options.adminToken,
      forward: { method, pathname: url.pathname, query: new URLSearchParams(url.searchParams), headers, body },
      reply: (rewrite) => void rewrites.push(rewrite),
      answer: (status, json) => {
        const text = JSON.stringify(json);
        direct = { status, text, body: json, headers: { 'content-type': 'application/json; charset=utf-8' } };
      },
    };
    for (const fault of faults) {
      await fault(x);
      if (direct) break;
    }
    let current = direct ?? (await this.send(x, url, init));
    x.memory.observe(x, current);
    let rewritten = false;
    let contentType: string | undefined;
    for (const rewrite of rewrites) {
      const out = rewrite(current);
      if (!out) continue;
      rewritten = true;
      const text = out.text ?? (out.body === undefined ? '' : JSON.stringify(out.body));
      const headers = { ...current.headers };
      for (const [name, value] of Object.entries(out.headers ?? {})) {
        if (value === null) delete headers[name.toLowerCase()];
        else headers[name.toLowerCase()] = value;
      }
      current = { status: out.status, text, body: out.text !== undefined ? undefined : out.body, headers };
      contentType = out.contentType;
    }
    const answerHeaders = { ...current.headers };
    if (rewritten) {
      // A rewritten answer: its ETag and length no longer hold.
      for (const name of ['etag', 'content-type', 'content-length']) delete answerHeaders[name];
      if (current.text) {
        answerHeaders['content-type'] = contentType ?? 'application/json; charset=utf-8';
        answerHeaders['content-length'] = String(Buffer.byteLength(current.text));
      }
    }
    return new Response(current.text === '' ? null : current.text, { status: current.status, headers: answerHeaders });
  }

  /** Forwards the request as the faults left it: the client's own URL and body wherever no fault changed them. */
  private async send(x: Exchange, url: URL, init: RequestInit): Promise<Answer> {
    const { forward } = x;
    const qs = forward.query.toString();
    const samePath = forward.pathname === url.pathname && qs === url.searchParams.toString();
    const headers = { ...forward.headers };
    let body = typeof init.body === 'string' ? init.body : undefined;
    if (forward.body !== x.body) {
      if (forward.body === undefined) {
        body = undefined;
        delete headers['content-type'];
      } else {
        body = JSON.stringify(forward.body);
        // A JSON Patch stays one.
        const sent = headers['content-type'];
        headers['content-type'] = sent?.includes('json') ? sent : 'application/json';
      }
    }
    const res = await this.options.upstream(samePath ? url.href : `${url.origin}${forward.pathname}${qs ? `?${qs}` : ''}`, { ...init, method: forward.method, headers, body });
    const text = await res.text();
    const answerHeaders: HeaderRecord = {};
    res.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.includes(name)) answerHeaders[name] = value;
    });
    return { status: res.status, text, body: parseJson(text), headers: answerHeaders };
  }
}

/** Request headers as `fetch` takes them, names in lower case. */
function headersOf(init: HeadersInit | undefined): HeaderRecord {
  const out: HeaderRecord = {};
  new Headers(init).forEach((value, name) => (out[name] = value));
  return out;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function parseBody(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  return contentType?.includes('json') ? (parseJson(text) ?? text) : text;
}
