/**
 * Where a failure's requests start being needed: the earliest write of its sequence that set up
 * what the failing request refers to, followed back through what that write refers to in turn
 * (a duplicate POST needs the first create of the name, which needs the create of its service).
 * A report prints every request from there to the failure, none cut out, so the curl lines alone
 * reproduce it; the requests before it set up nothing the failure touches.
 */
import type { Exchange } from '../http.ts';
import { asObject } from '../http.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const IS_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Request body fields that name another entity by its fully qualified name. */
const REFERENCE_FIELDS = ['service', 'database', 'databaseSchema', 'apiCollection', 'classification', 'parent', 'entity'];

/** `a."b.c".d` → `a`, `a."b.c"`, `a."b.c".d`. */
function fqnPrefixes(fqn: string): string[] {
  const parts = fqn.match(/"[^"]*"|[^.]+/g) ?? [];
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** What a request refers to: the ids in its URL and body, and the names (with their parents) it addresses. */
function refersTo(ex: Exchange): Set<string> {
  const out = new Set<string>();
  const url = new URL(ex.url);
  for (const id of `${url.pathname}${url.search} ${ex.requestBody ?? ''}`.match(UUID) ?? []) out.add(id.toLowerCase());
  const byName = /\/name\/([^/]+)/.exec(url.pathname)?.[1];
  if (byName) for (const p of fqnPrefixes(decode(byName))) out.add(p);
  let body: Record<string, unknown> | undefined;
  try {
    body = asObject(ex.requestBody ? JSON.parse(ex.requestBody) : undefined);
  } catch {
    body = undefined;
  }
  if (body) {
    let scope: string | undefined;
    for (const field of REFERENCE_FIELDS) {
      const v = body[field];
      const fqn = typeof v === 'string' ? v : asObject(v)?.fullyQualifiedName;
      if (typeof fqn === 'string') {
        for (const p of fqnPrefixes(fqn)) out.add(p);
        scope = fqn;
      }
    }
    if (typeof body.name === 'string') {
      const name = body.name.includes('.') ? `"${body.name}"` : body.name;
      out.add(scope ? `${scope}.${name}` : name);
    }
  }
  return out;
}

/** What a successful write set up: the id and fully qualified name it answered. */
function setsUp(ex: Exchange): string[] {
  if (ex.method === 'GET' || ex.status >= 300) return [];
  const body = asObject(ex.json);
  const entity = asObject(body?.entity) ?? body;
  return [entity?.id, entity?.fullyQualifiedName].filter((v): v is string => typeof v === 'string').map((v) => (IS_UUID.test(v) ? v.toLowerCase() : v));
}

/** The index in `steps` of the first request the failure needs (0 when it cannot tell). */
export function firstNeeded(steps: readonly Exchange[], failing: Exchange | undefined): number {
  const at = failing ? steps.findIndex((s) => s.seq === failing.seq) : -1;
  if (at <= 0) return 0;
  const wanted = refersTo(steps[at]!);
  let first = at;
  for (let i = at - 1; i >= 0; i--) {
    const step = steps[i]!;
    if (!setsUp(step).some((handle) => wanted.has(handle))) continue;
    first = i;
    for (const handle of refersTo(step)) wanted.add(handle);
  }
  return first;
}
