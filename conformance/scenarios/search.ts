/**
 * Search (docs/behaviour.md "Search"): a storage service and three containers, all with one
 * made-up word in their description, are found by their names and by that word; `index` keeps the
 * hits to its kind, `from` / `size` page through exactly `hits.total.value` hits, and a
 * soft-deleted container is found only with `deleted=true`. A target's search index may lag its
 * writes a little (Elasticsearch refreshes every second): each search is repeated for up to
 * PATIENCE_MS (or `--settle-timeout`) until it shows what the rule wants, and fails only then.
 */
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS, type Kind } from '../kinds.ts';
import type { ModelEntity } from '../model.ts';
import { createEntity } from '../ops.ts';
import type { Session } from '../session.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';

const PATIENCE_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** OpenMetadata's index of each kind the scenario searches (`elasticsearch/indexMapping.json`). */
const INDEX: Partial<Record<Kind['id'], string>> = {
  container: 'container_search_index',
  storageService: 'storage_service_search_index',
};

interface Hits {
  ex: Exchange;
  /** `hits.total.value`, NaN when missing. */
  total: number;
  hits: Array<{ id: string; index: string; entityType: unknown; deleted: unknown }>;
}

/** One `GET /v1/search/query`; undefined hits when the answer is no search result (the caller's check then fails). */
async function search(s: Session, query: Record<string, string | number | boolean>): Promise<Hits> {
  const ex = await s.send({ method: 'GET', path: '/v1/search/query', query });
  const outer = asObject(asObject(ex.json)?.hits);
  const hits = (asArray(outer?.hits) ?? []).map((h) => {
    const hit = asObject(h);
    const source = asObject(hit?._source);
    return { id: String(source?.id ?? hit?._id), index: String(hit?._index), entityType: source?.entityType, deleted: source?.deleted };
  });
  return { ex, total: Number(asObject(outer?.total)?.value), hits };
}

/** Repeats a search until `done` holds or the patience runs out; returns the last answer. */
async function searchUntil(s: Session, query: Record<string, string | number | boolean>, done: (h: Hits) => boolean): Promise<Hits> {
  const deadline = Date.now() + (s.ctx.settleTimeoutMs ?? PATIENCE_MS);
  for (;;) {
    const h = await search(s, query);
    if (h.ex.status !== 200 || done(h) || Date.now() > deadline) return h;
    await sleep(250);
  }
}

const ids = (h: Hits) => h.hits.map((x) => x.id);
const shown = (h: Hits) => `${h.ex.status}, total ${h.total}: ${JSON.stringify(h.hits.map((x) => `${x.index} ${x.id}`))}`;

/**
 * Pages through the hits of `word` by `search_after` (rule search.search-after): each page one hit,
 * sorted by name, the next page after the sort values of the one before, sent as the profile
 * takes them (OpenMetadata 2.0: the parameter repeated per value; 1.x: one, joined by commas).
 */
async function checkSearchAfter(s: Session, word: string, index: string, wantIds: readonly string[]): Promise<void> {
  const c = s.checker;
  const seen: string[] = [];
  let after: unknown[] | undefined;
  for (let page = 0; page <= wantIds.length; page++) {
    const cursor = after?.map((v) => String(v));
    const searchAfter = cursor === undefined ? undefined : s.ctx.exp.searchAfter === 'repeated' ? cursor : cursor.join(',');
    const ex = await s.send({
      method: 'GET',
      path: '/v1/search/query',
      query: { q: word, index, size: 1, sort_field: 'name.keyword', sort_order: 'asc', search_after: searchAfter },
    });
    const hits = asArray(asObject(asObject(ex.json)?.hits)?.hits) ?? [];
    const hit = asObject(hits[0]);
    const id = String(asObject(hit?._source)?.id ?? hit?._id);
    const want = wantIds[page];
    const ok = c.check(
      'search.search-after',
      ex.status === 200 && (want === undefined ? hits.length === 0 : hits.length === 1 && id === want && Array.isArray(hit?.sort)),
      want === undefined
        ? `the page after the last of the ${wantIds.length} hits (search_after ${JSON.stringify(searchAfter)}) is empty`
        : `page ${page + 1} (search_after ${JSON.stringify(searchAfter ?? null)}): the container ${want}, with its sort values`,
      () => `${ex.status}: ${JSON.stringify(hits.map((h) => ({ id: asObject(asObject(h)?._source)?.id, sort: asObject(h)?.sort })))}`,
      ex,
    );
    if (!ok || want === undefined) return;
    seen.push(id);
    after = hit?.sort as unknown[];
  }
}

export const searchIndex: Scenario = {
  name: 'search',
  rules: ['search.finds-created', 'search.index-filter', 'search.paging-consistent', 'search.search-after', 'search.deleted-hidden'],
  async run(s, m) {
    const c = s.checker;
    // One word no other entity has, in every description: the query that finds exactly these four.
    const word = `${m.freshName('w').replace(/_/g, '')}x`;
    const description = `created by catalog-kit conform to search for ${word}`;
    const { entity: service } = await createEntity(s, m, KINDS.storageService, null, { checkFqn: false, description });
    if (!service) throw new SetupError('could not create a storage service');
    const containers: ModelEntity[] = [];
    for (let i = 0; i < 3; i++) {
      const { entity } = await createEntity(s, m, KINDS.container, service, { checkFqn: false, description });
      if (!entity) throw new SetupError('could not create a container');
      containers.push(entity);
    }
    const containerIds = containers.map((e) => e.id).sort();
    const containerIndex = INDEX.container!;

    // Found by its name, in its kind's index, right after the create.
    for (const e of [service, ...containers]) {
      const h = await searchUntil(s, { q: e.name, index: INDEX[e.kind.id]!, deleted: false }, (x) => ids(x).includes(e.id));
      if (!c.status('search.finds-created', h.ex, [200], `search q=${e.name}`)) return;
      c.check('search.finds-created', ids(h).includes(e.id), `a hit with the id of ${e.fqn} (${e.id}), created just before`, () => shown(h), h.ex);
    }

    // index: every kind under `all`, only the kind asked for otherwise.
    const all = await searchUntil(s, { q: word, index: 'all' }, (h) => h.total >= 4);
    if (!c.status('search.index-filter', all.ex, [200], `search q=${word}&index=all`)) return;
    c.check(
      'search.index-filter',
      [service.id, ...containerIds].every((id) => ids(all).includes(id)),
      `index=all finds the service and the three containers whose description has ${word}`,
      () => shown(all),
      all.ex,
    );
    for (const [kind, want] of [
      [KINDS.container, containerIds],
      [KINDS.storageService, [service.id]],
    ] as const) {
      const index = INDEX[kind.id]!;
      const h = await search(s, { q: word, index, size: 10 });
      c.check(
        'search.index-filter',
        h.ex.status === 200 && JSON.stringify(ids(h).sort()) === JSON.stringify([...want].sort()) && h.hits.every((x) => x.index === index && x.entityType === kind.id),
        `index=${index}: exactly the ${want.length} ${kind.id} hit(s) with _index ${index} and entityType ${kind.id}`,
        () => shown(h),
        h.ex,
      );
    }

    // from / size: the pages hold hits.total.value hits between them, each once.
    for (const size of [1, 2]) {
      const seen: string[] = [];
      for (let from = 0; from < containers.length; from += size) {
        const page = await search(s, { q: word, index: containerIndex, from, size });
        const want = Math.min(size, containers.length - from);
        const ok = c.check(
          'search.paging-consistent',
          page.ex.status === 200 && page.total === containers.length && page.hits.length === want,
          `search q=${word} from=${from} size=${size}: hits.total.value ${containers.length} and ${want} hit(s)`,
          () => shown(page),
          page.ex,
        );
        if (!ok) return;
        seen.push(...ids(page));
      }
      const last = s.trace[s.trace.length - 1];
      c.check(
        'search.paging-consistent',
        JSON.stringify([...seen].sort()) === JSON.stringify(containerIds),
        `pages of size ${size} together: each of the ${containers.length} containers once`,
        () => JSON.stringify(seen),
        last,
      );
    }

    // search_after: sorted by name, one hit a page, each page after the last hit's sort values.
    await checkSearchAfter(
      s,
      word,
      containerIndex,
      [...containers].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1)).map((e) => e.id),
    );

    // deleted: a soft-deleted container is hidden from a search, and found with deleted=true only.
    const gone = containers[1]!;
    setupOk(await s.send({ method: 'DELETE', path: `${KINDS.container.path}/${gone.id}` }), [200], 'soft delete a container');
    gone.state = 'deleted';
    for (const deleted of [undefined, false] as const) {
      const query = { q: gone.name, index: containerIndex, ...(deleted === undefined ? {} : { deleted }) };
      const h = await searchUntil(s, query, (x) => !ids(x).includes(gone.id));
      if (!c.status('search.deleted-hidden', h.ex, [200], `search q=${gone.name}${deleted === undefined ? '' : '&deleted=false'}`)) return;
      c.check('search.deleted-hidden', !ids(h).includes(gone.id), `no hit of the soft-deleted ${gone.fqn}`, () => shown(h), h.ex);
    }
    const found = await searchUntil(s, { q: gone.name, index: containerIndex, deleted: true }, (x) => ids(x).includes(gone.id));
    c.check(
      'search.deleted-hidden',
      found.ex.status === 200 && found.hits.some((x) => x.id === gone.id && x.deleted === true),
      `search q=${gone.name}&deleted=true: a hit of the soft-deleted ${gone.fqn}, deleted true`,
      () => shown(found),
      found.ex,
    );
    const onlyDeleted = await search(s, { q: word, index: containerIndex, deleted: true });
    c.check(
      'search.deleted-hidden',
      onlyDeleted.ex.status === 200 && JSON.stringify(ids(onlyDeleted)) === JSON.stringify([gone.id]),
      `search q=${word}&deleted=true: only the soft-deleted container, not the live ones`,
      () => shown(onlyDeleted),
      onlyDeleted.ex,
    );
  },
};
