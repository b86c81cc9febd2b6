/**
 * What the links of a created entity mean: its `href` and the `href` of every reference in it
 * resolve to that entity (rule meaning.href-resolves), and the `Location` of a 201 names it
 * (rule create.location-names-entity). The meaning of updatedAt and updatedBy is checked on every
 * response (conformance/observer.ts).
 */
import type { Exchange } from './http.ts';
import { asObject } from './http.ts';
import type { Kind } from './kinds.ts';
import type { Session } from './session.ts';

const HREF_RULE = 'meaning.href-resolves';

/** The entity and every reference in it (one level down, and in arrays) that carries an href: `{where, id, href}`. */
function hrefsOf(entity: Record<string, unknown>): { where: string; id: unknown; href: unknown }[] {
  const out: { where: string; id: unknown; href: unknown }[] = [{ where: 'the entity', id: entity.id, href: entity.href }];
  for (const [field, value] of Object.entries(entity)) {
    const refs = Array.isArray(value) ? value.map((v, i) => [`${field}[${i}]`, v] as const) : [[field, value] as const];
    for (const [where, ref] of refs) {
      const o = asObject(ref);
      if (o && typeof o.id === 'string' && typeof o.type === 'string' && o.href !== undefined) out.push({ where: `the reference ${where}`, id: o.id, href: o.href });
    }
  }
  return out;
}

/** Checks that the href of `entity` and of each of its references answers that entity. */
export async function checkHrefs(s: Session, entity: Record<string, unknown>, what: string, ex: Exchange): Promise<void> {
  if (!s.checker.isActive(HREF_RULE)) return;
  const base = s.ctx.client.baseUrl;
  for (const { where, id, href } of hrefsOf(entity)) {
    const label = `${what}: the href of ${where} (${String(id)})`;
    if (typeof href !== 'string') {
      s.checker.check(HREF_RULE, false, `${label} is a URL`, () => `href ${JSON.stringify(href)}`, ex);
      continue;
    }
    if (s.ctx.resolvedHrefs.get(href) === id) continue;
    // Only the target gets the token: an href elsewhere fails without being followed.
    if (!href.startsWith(`${base}/`)) {
      s.checker.check(HREF_RULE, false, `${label} is a URL under the target's base URL ${base}`, () => `href ${href}`, ex);
      continue;
    }
    const got = await s.send({ method: 'GET', path: href.slice(base.length), query: { include: 'all' } });
    const body = asObject(got.json);
    const ok = s.checker.check(
      HREF_RULE,
      got.status === 200 && body?.id === id,
      `${label}: GET ${href} answers that entity`,
      () => `${got.status} id ${JSON.stringify(body?.id)}`,
      got,
    );
    if (ok) s.ctx.resolvedHrefs.set(href, String(id));
  }
}

/** A 201 of a create: its Location names the created entity (`<base>/<collection>/<id>`, or its href). */
export function checkLocation(s: Session, ex: Exchange, kind: Kind, entity: Record<string, unknown>, what: string): void {
  if (ex.status !== 201) return;
  const location = ex.responseHeaders.location;
  let path: string | undefined;
  try {
    path = location ? new URL(location, ex.url).pathname : undefined;
  } catch {
    path = undefined;
  }
  const wanted = `${new URL(s.ctx.client.baseUrl).pathname.replace(/\/+$/, '')}${kind.path}/${String(entity.id)}`;
  s.checker.check(
    'create.location-names-entity',
    path === wanted || (location !== undefined && location === entity.href),
    `${what}: 201 with Location ${wanted} (the created entity ${String(entity.id)})`,
    () => (location === undefined ? 'no Location header' : `Location ${location}`),
    ex,
  );
}
