/**
 * Listing (rules list.cursor-paging and list.include-filter): the children of one of the run's
 * services, page by page with a small limit and the `after` cursor, then back with `before`,
 * compared with the model; and the lists of services and classifications, where other data may
 * be, for the paging alone.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import type { Kind } from '../kinds.ts';
import { describe, type Model, type ModelEntity } from '../model.ts';
import { serviceOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { BaseCommand, drivenKinds } from './base.ts';

export type Include = 'non-deleted' | 'deleted' | 'all';
export const INCLUDES: readonly Include[] = ['non-deleted', 'deleted', 'all'];

const PAGING = 'list.cursor-paging';
const INCLUDE = 'list.include-filter';
/** A scope of the run holds a handful of entities: more pages than this is a cursor that never ends. */
const MAX_PAGES = 200;

interface Page {
  ex: Exchange;
  items: Record<string, unknown>[];
  before?: string;
  after?: string;
  total: unknown;
}

async function page(s: Session, kind: Kind, query: Record<string, string | number | undefined>): Promise<Page | undefined> {
  const ex = await s.send({ method: 'GET', path: kind.path, query });
  const body = asObject(ex.json);
  const data = asArray(body?.data);
  const paging = asObject(body?.paging);
  const what = `GET ${kind.path}?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString()}`;
  const ok = s.checker.check(PAGING, ex.status === 200 && !!data && !!paging, `${what}: 200 with {data: [...], paging}`, () => `${ex.status} ${ex.responseText.slice(0, 200)}`, ex);
  if (!ok || !data || !paging) return undefined;
  return {
    ex,
    items: data.map((d) => asObject(d) ?? {}),
    before: typeof paging.before === 'string' ? paging.before : undefined,
    after: typeof paging.after === 'string' ? paging.after : undefined,
    total: paging.total,
  };
}

const fqnOf = (item: Record<string, unknown>) => String(item.fullyQualifiedName ?? item.id);

/**
 * Walks `kind` filtered by `filter` forward with `limit` and the `after` cursors, then back from
 * the last page with `before`. Checks each page's size, the total, that no entity comes twice, and
 * that the walk back meets the same entities. Returns the entities listed (undefined when a page
 * failed), and the last exchange.
 */
async function walk(
  s: Session,
  kind: Kind,
  filter: Record<string, string>,
  include: Include,
  limit: number,
): Promise<{ items: Map<string, Record<string, unknown>>; ex: Exchange; total: unknown } | undefined> {
  const c = s.checker;
  const base = { ...filter, include, limit };
  const forward: Page[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(s, kind, { ...base, after: cursor });
    if (!p) return undefined;
    c.check(PAGING, p.items.length <= limit, `a page of at most limit=${limit} entities`, () => `${p.items.length} entities`, p.ex);
    c.check(
      PAGING,
      forward.length === 0 || JSON.stringify(p.total) === JSON.stringify(forward[0]!.total),
      `paging.total the same on every page (${JSON.stringify(forward[0]?.total)})`,
      () => `paging.total ${JSON.stringify(p.total)}`,
      p.ex,
    );
    forward.push(p);
    cursor = p.after;
  } while (cursor && forward.length < MAX_PAGES);
  const last = forward.at(-1)!;
  c.check(PAGING, !cursor, `the after cursors end within ${MAX_PAGES} pages`, () => `still a cursor after ${MAX_PAGES} pages`, last.ex);
  const items = new Map<string, Record<string, unknown>>();
  for (const p of forward) {
    for (const item of p.items) {
      const fqn = fqnOf(item);
      c.check(PAGING, !items.has(fqn), `every entity once over the pages`, () => `${fqn} twice`, p.ex);
      items.set(fqn, item);
    }
  }
  c.check(
    PAGING,
    last.total === undefined || last.total === items.size,
    `paging.total ${items.size}, the number of entities over the pages`,
    () => `paging.total ${JSON.stringify(last.total)}`,
    last.ex,
  );
  // Back from the last page with `before`: the same entities, none twice.
  const back = new Set<string>(last.items.map(fqnOf));
  let previous = last.before;
  let pages = 0;
  let ex = last.ex;
  while (previous && pages++ < MAX_PAGES) {
    const p = await page(s, kind, { ...base, before: previous });
    if (!p) return undefined;
    ex = p.ex;
    for (const item of p.items) {
      const fqn = fqnOf(item);
      c.check(PAGING, !back.has(fqn), `walking back with before, every entity once`, () => `${fqn} twice`, p.ex);
      back.add(fqn);
    }
    previous = p.before;
  }
  const missed = [...items.keys()].filter((f) => !back.has(f));
  c.check(
    PAGING,
    forward.length === 1 || missed.length === 0,
    `walking back from the last page with before meets every entity of the ${forward.length} pages`,
    () => `not met: ${missed.slice(0, 5).join(', ')}`,
    ex,
  );
  return { items, ex, total: last.total };
}

/**
 * Lists the children of `kind` under `service` with `include` and compares with the model: the
 * soft-deleted ones only with include=deleted or all (list.include-filter), every other expected
 * one exactly once (list.cursor-paging).
 */
export async function checkScopeListing(s: Session, m: Model, service: ModelEntity, kind: Kind, include: Include, limit: number): Promise<void> {
  const listed = await walk(s, kind, { service: service.fqn }, include, limit);
  if (!listed) return;
  const c = s.checker;
  const known = m.entities.filter((e) => e.kind === kind && serviceOf(e) === service);
  const where = `GET ${kind.path}?service=${service.fqn}&include=${include}&limit=${limit}`;
  const wrongFlag = [...listed.items.values()].filter((item) => (include === 'non-deleted' && item.deleted !== false) || (include === 'deleted' && item.deleted !== true));
  const deletedMissing = include === 'non-deleted' ? [] : known.filter((e) => e.state === 'deleted' && !listed.items.has(e.fqn));
  const deletedShown = include === 'non-deleted' ? known.filter((e) => e.state === 'deleted' && listed.items.has(e.fqn)) : [];
  const activeShown = include === 'deleted' ? known.filter((e) => e.state === 'active' && listed.items.has(e.fqn)) : [];
  const includeProblems = [
    ...wrongFlag.map((i) => `${fqnOf(i)} with deleted ${JSON.stringify(i.deleted)}`),
    ...deletedMissing.map((e) => `soft-deleted ${e.fqn} missing`),
    ...deletedShown.map((e) => `soft-deleted ${e.fqn} listed`),
    ...activeShown.map((e) => `active ${e.fqn} listed`),
  ];
  c.check(
    INCLUDE,
    includeProblems.length === 0,
    `${where}: ${include === 'non-deleted' ? 'no soft-deleted entity' : include === 'deleted' ? 'the soft-deleted entities only' : 'the soft-deleted entities with the others'}`,
    () => includeProblems.slice(0, 5).join('; '),
    listed.ex,
  );
  const activeMissing = include === 'deleted' ? [] : known.filter((e) => e.state === 'active' && !listed.items.has(e.fqn));
  const gone = known.filter((e) => e.state === 'gone' && listed.items.has(e.fqn));
  const strangers = [...listed.items.keys()].filter((fqn) => !known.some((e) => e.fqn === fqn));
  const problems = [
    ...activeMissing.map((e) => `${e.fqn} missing`),
    ...gone.map((e) => `hard-deleted ${e.fqn} listed`),
    ...strangers.map((f) => `${f} listed, never created by the run`),
  ];
  c.check(
    PAGING,
    problems.length === 0,
    `${where}, page by page: every ${kind.id} of ${describe(service)} the model expects, nothing else`,
    () => problems.slice(0, 5).join('; '),
    listed.ex,
  );
}

/** A list where other data may be (services, classifications, data contracts): the paging alone. */
export async function checkPagingOnly(s: Session, kind: Kind, limit: number): Promise<void> {
  const c = s.checker;
  const first = await page(s, kind, { limit });
  if (!first) return;
  c.check(PAGING, first.items.length <= limit, `GET ${kind.path}?limit=${limit}: at most ${limit} entities`, () => `${first.items.length} entities`, first.ex);
  if (!first.after) return;
  const second = await page(s, kind, { limit, after: first.after });
  if (!second) return;
  const overlap = second.items.map(fqnOf).filter((f) => first.items.some((i) => fqnOf(i) === f));
  c.check(
    PAGING,
    overlap.length === 0 && second.items.length <= limit,
    `GET ${kind.path}?limit=${limit}&after=<cursor>: the next ${limit}, none of the first page`,
    () => `overlap ${overlap.join(', ')}`,
    second.ex,
  );
  if (!second.before) {
    c.check(PAGING, false, `the second page of GET ${kind.path}?limit=${limit} has a before cursor`, () => 'no paging.before', second.ex);
    return;
  }
  const back = await page(s, kind, { limit, before: second.before });
  if (!back) return;
  c.check(
    PAGING,
    JSON.stringify(back.items.map(fqnOf)) === JSON.stringify(first.items.map(fqnOf)),
    `GET ${kind.path}?limit=${limit}&before=<the second page's cursor>: the first page again`,
    () => `${JSON.stringify(back.items.map(fqnOf))} instead of ${JSON.stringify(first.items.map(fqnOf))}`,
    back.ex,
  );
}

/** Lists the children of one of the run's services with a small page size. */
export class ListCommand extends BaseCommand {
  readonly label = 'list';
  constructor(
    readonly pos: number,
    readonly include: Include,
    readonly limit: number,
  ) {
    super();
  }
  protected args() {
    return [this.pos, this.include, this.limit];
  }
  private service(m: Readonly<Model>) {
    return m.pick(this.pos, (e) => e.kind.role === 'service' && e.state === 'active');
  }
  override check(m: Readonly<Model>): boolean {
    return this.service(m) !== undefined;
  }
  async run(m: Model, s: Session): Promise<void> {
    const service = this.service(m);
    if (!service) return;
    const kinds = drivenKinds(s, (k) => k.serviceKind === service.kind.id);
    const kind = kinds[this.pos % Math.max(1, kinds.length)];
    if (!kind) return;
    this.resolved = `${kind.id}s of ${describe(service)}, include=${this.include}, limit=${this.limit}`;
    await checkScopeListing(s, m, service, kind, this.include, this.limit);
  }
}
