/**
 * What `catalog-kit drift` compares of two answers to the same request, one from each server.
 * Values each server makes up on its own are not compared literally:
 *
 * - ids (UUIDs, in any string: hrefs, references, Location), ETags, versions and paging cursors are
 *   mapped by position: the first id one server showed stands for the first id the other showed,
 *   and so on, so `0.1 → 0.2` on one side and `0.1 → 0.1` on the other differ, while two servers
 *   numbering alike do not;
 * - timestamps only have to be timestamps where the other server has one (two writes in one
 *   millisecond share a timestamp on one server and not on the other);
 * - each side's base URL, run prefix (the namespace of its names) and token user are put in
 *   words the two sides share; JSON inside a string (the entities of a version history) is
 *   compared as JSON;
 * - the fields a profile declares free (`driftFreeFields` of openapi/profiles.json: message
 *   texts) are compared by presence only.
 */
import type { Exchange } from '../http.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const VERSION_KEYS = new Set(['version', 'previousVersion', 'currentVersion']);
/** Keys holding epoch milliseconds. */
const TIME_KEY = /(At|Ts|Time|timestamp)$/;
const CURSOR_KEYS = new Set(['after', 'before']);
/** Epoch milliseconds from 2001 to 2286, whatever the key. */
const isEpochMs = (v: number) => Number.isInteger(v) && v > 1e12 && v < 1e13;

type Slot = 'id' | 'etag' | 'version' | 'cursor';

/** One side of a drift run: what makes its answers its own. */
export interface SideNames {
  /** The base URL requests go to (`http://host:port/api`). */
  baseUrl: string;
  /** The prefix of every name the side's run creates. */
  runPrefix: string;
  /** The token's user, as the side's answers name it (`updatedBy`). */
  userName: string | null;
}

/** An answer (and the request it answers) in the words both sides share. */
export interface NormalisedExchange {
  request: string;
  status: number;
  media: string;
  etag: string | undefined;
  location: string | undefined;
  body: unknown;
}

/** Puts one side's exchanges in shared words; keeps its own numbering of ids, ETags, versions and cursors. */
export class Normaliser {
  private readonly slots: Record<Slot, Map<string, number>> = { id: new Map(), etag: new Map(), version: new Map(), cursor: new Map() };
  private readonly origin: string;

  constructor(
    private readonly names: SideNames,
    private readonly freeFields: ReadonlySet<string>,
  ) {
    this.origin = new URL(names.baseUrl).origin;
  }

  private slot(kind: Slot, value: string): string {
    const map = this.slots[kind];
    let n = map.get(value);
    if (n === undefined) map.set(value, (n = map.size + 1));
    return `{${kind} ${n}}`;
  }

  string(s: string): string {
    if (this.names.userName !== null && s === this.names.userName) return '{user}';
    return s
      .split(this.names.baseUrl)
      .join('{base}')
      .split(this.origin)
      .join('{origin}')
      .split(this.names.runPrefix)
      .join('{run}')
      .replace(UUID, (id) => this.slot('id', id.toLowerCase()));
  }

  value(v: unknown, key = ''): unknown {
    if (v === undefined) return undefined;
    if (this.freeFields.has(key)) return '{free}';
    if (typeof v === 'number') {
      if (VERSION_KEYS.has(key)) return this.slot('version', String(v));
      if (TIME_KEY.test(key) || isEpochMs(v)) return '{time}';
      return v;
    }
    if (typeof v === 'string') {
      if (CURSOR_KEYS.has(key)) return this.slot('cursor', v);
      // JSON inside a string (a version of the history, a change's old and new values) is compared as JSON.
      if (/^\s*[[{]/.test(v)) {
        try {
          return `{json ${JSON.stringify(this.value(JSON.parse(v) as unknown))}}`;
        } catch {
          // not JSON after all: a string like any other
        }
      }
      return this.string(v);
    }
    if (Array.isArray(v)) return v.map((item) => this.value(item));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[this.string(k)] = this.value((v as Record<string, unknown>)[k], k);
      return out;
    }
    return v;
  }

  exchange(ex: Exchange): NormalisedExchange {
    let requestBody = '';
    if (ex.requestBody !== undefined) {
      try {
        requestBody = JSON.stringify(this.value(JSON.parse(ex.requestBody)));
      } catch {
        requestBody = this.string(ex.requestBody);
      }
    }
    const etag = ex.responseHeaders.etag;
    const location = ex.responseHeaders.location;
    return {
      request: `${ex.method} ${this.string(ex.url)}${requestBody ? ` ${requestBody}` : ''}`,
      status: ex.status,
      media: ex.responseContentType.split(';')[0]!.trim().toLowerCase(),
      etag: etag === undefined ? undefined : this.slot('etag', etag),
      location: location === undefined ? undefined : this.string(location),
      body: ex.json !== undefined ? this.value(ex.json) : this.string(ex.responseText),
    };
  }
}

/** One thing that differs between the two answers: where, and each side's value as it came. */
export interface Difference {
  /** `status`, `content type`, `ETag`, `Location`, `request`, or the body's path (`body.owners[0].name`). */
  where: string;
  target: string;
  reference: string;
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v)));

function at(value: unknown, path: readonly (string | number)[]): unknown {
  let node = value;
  for (const part of path) node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[part] : undefined;
  return node;
}

/** The paths under which two normalised values differ (at most `limit`). */
function diffPaths(a: unknown, b: unknown, path: (string | number)[], out: (string | number)[][], limit: number): void {
  if (out.length >= limit) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push([...path, 'length']);
    for (let i = 0; i < Math.min(a.length, b.length); i++) diffPaths(a[i], b[i], [...path, i], out, limit);
    return;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) diffPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...path, k], out, limit);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
}

const pathText = (path: readonly (string | number)[]) => path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : `${s}.${p}`), 'body');

/** What differs between the target's answer and the reference's to the same request (nothing: []). */
export function compareExchanges(t: Exchange, tn: NormalisedExchange, r: Exchange, rn: NormalisedExchange, limit = 8): Difference[] {
  const out: Difference[] = [];
  if (tn.request !== rn.request) out.push({ where: 'request', target: `${t.method} ${t.url}`, reference: `${r.method} ${r.url}` });
  if (tn.status !== rn.status) out.push({ where: 'status', target: String(t.status), reference: String(r.status) });
  if (tn.media !== rn.media) out.push({ where: 'content type', target: t.responseContentType || '(none)', reference: r.responseContentType || '(none)' });
  if (tn.etag !== rn.etag) out.push({ where: 'ETag', target: show(t.responseHeaders.etag), reference: show(r.responseHeaders.etag) });
  if (tn.location !== rn.location) out.push({ where: 'Location', target: show(t.responseHeaders.location), reference: show(r.responseHeaders.location) });
  const paths: (string | number)[][] = [];
  diffPaths(tn.body, rn.body, [], paths, limit);
  const tRaw = t.json !== undefined ? t.json : t.responseText;
  const rRaw = r.json !== undefined ? r.json : r.responseText;
  for (const path of paths) {
    const last = path.at(-1);
    const raw = (side: unknown) => (last === 'length' ? at(side, path.slice(0, -1)) : at(side, path));
    const value = (side: unknown) => {
      const v = raw(side);
      return last === 'length' ? (Array.isArray(v) ? String(v.length) : '(absent)') : show(v);
    };
    out.push({ where: pathText(path), target: value(tRaw), reference: value(rRaw) });
  }
  return out;
}
