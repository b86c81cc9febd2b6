/**
 * Search at scale (docs/performance.md; docs/behaviour.md "Search"): the reference server grows to
 * `entities` containers (through `createEntity`, as the scale step does), then the search calls the
 * web UI makes are timed one at a time over HTTP, each from request to parsed answer (request and
 * response validation on): the explore page's listing, its tab counts, free text (a word few
 * documents hold, and one every document holds), a wildcard, a quick filter, a sort by name, a
 * deep page, and a filter's values. The first search builds the index and is timed apart, as is a
 * write followed by the search that finds it. Heap growth after a full GC is the index's cost:
 * after the first search, and after the calls (a scored query built the containers' MiniSearch index).
 */
import type { Target } from './targets.ts';
import { call, startTarget } from './targets.ts';

interface SearchTiming {
  name: string;
  path: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** `hits.total.value` of the answer (buckets for an aggregation). */
  total: number;
}

export interface SearchBench {
  entities: number;
  firstSearchMs: number;
  /** Heap after a full GC with the index built, minus before it was built. */
  indexHeapBytes: number;
  /** The same once a scored query has built the containers' full-text (MiniSearch) index too. */
  withFullTextHeapBytes: number;
  writeThenFindMs: number;
  timings: SearchTiming[];
}

interface Grown {
  count: number;
  heapUsed: number;
}

const q = (params: Record<string, string | number | boolean>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

const EXCLUDE = ['columns', 'queries', 'columnNames', 'dataModel'].map((f) => `exclude_source_fields=${f}`).join('&');

/** The calls, shaped as the UI sends them (rest/searchAPI.ts, rest/miscAPI.ts, utils/ExploreUtils.tsx). */
function calls(entities: number): { name: string; path: string }[] {
  const one = `scale-${String(Math.floor(entities / 2)).padStart(6, '0')}`;
  const quickFilter = JSON.stringify({ query: { bool: { must: [{ bool: { should: [{ term: { 'service.displayName.keyword': 'bench' } }] } }] } } });
  const page = { index: 'dataAsset', deleted: false, track_total_hits: true, sort_field: '_score', sort_order: 'desc', from: 0, size: 15 };
  return [
    { name: 'explore: all data assets, page 1', path: `/api/v1/search/query?q=&${q(page)}&${EXCLUDE}` },
    { name: 'explore: tab counts (size 0)', path: `/api/v1/search/query?q=scale&${q({ index: 'dataAsset', from: 0, size: 0, deleted: false, fetch_source: false })}` },
    { name: 'free text, one match', path: `/api/v1/search/query?q=${one}&${q(page)}&${EXCLUDE}` },
    { name: 'free text, every document', path: `/api/v1/search/query?q=container&${q(page)}&${EXCLUDE}` },
    { name: 'wildcard *…*', path: `/api/v1/search/query?q=*${one.slice(-5)}*&${q({ ...page, index: 'container' })}` },
    { name: 'quick filter (query_filter)', path: `/api/v1/search/query?q=&${q({ ...page, query_filter: quickFilter })}&${EXCLUDE}` },
    { name: 'sort by name', path: `/api/v1/search/query?q=&${q({ ...page, sort_field: 'name.keyword', sort_order: 'asc' })}&${EXCLUDE}` },
    { name: 'deep page (from 9,900)', path: `/api/v1/search/query?q=&${q({ ...page, from: 9900, size: 100 })}&${EXCLUDE}` },
    {
      name: 'filter values (aggregate)',
      path: `/api/v1/search/aggregate?${q({ index: 'dataAsset', field: 'service.displayName.keyword', value: '.*ben.*', q: '', deleted: false })}`,
    },
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function timed(target: Target, path: string): Promise<{ ms: number; total: number }> {
  const started = performance.now();
  const answer = await call(target, 'GET', path);
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`search bench: GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const body = answer.body as { hits: { total: { value: number } }; aggregations?: Record<string, { buckets: unknown[] }> };
  const aggregation = path.includes('/aggregate') ? Object.values(body.aggregations ?? {})[0] : undefined;
  return { ms, total: aggregation ? aggregation.buckets.length : body.hits.total.value };
}

export async function runSearchBench(entities: number, runs: number, log: (line: string) => void): Promise<SearchBench> {
  const target = await startTarget('scale', { execArgv: ['--expose-gc'] });
  try {
    log(`  creating ${entities.toLocaleString('en-US')} containers…`);
    const before = await target.rpc<Grown>('grow', { to: entities, sample: 1 });
    const first = await timed(target, calls(entities)[0]!.path);
    const after = await target.rpc<Grown>('grow', { to: entities, sample: 1 });
    const timings: SearchTiming[] = [];
    for (const { name, path } of calls(entities)) {
      for (let i = 0; i < 3; i++) await timed(target, path); // warm-up (JIT; a kind's full-text index is built by its first scored query)
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < runs; i++) {
        const run = await timed(target, path);
        times.push(run.ms);
        total = run.total;
      }
      times.sort((a, b) => a - b);
      timings.push({ name, path, runs, p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), maxMs: times[times.length - 1]!, total });
    }
    const scored = await target.rpc<Grown>('grow', { to: entities, sample: 1 });
    // A write is found by the next search.
    const started = performance.now();
    const created = await call(target, 'POST', '/api/v1/containers', { name: 'just-written', service: 'bench', description: 'Written during the search bench' });
    if (created.status !== 201) throw new Error(`search bench: the write answered ${created.status}`);
    const found = await timed(target, `/api/v1/search/query?q=${q({ q: 'name:just-written' }).slice(2)}&index=container`);
    const writeThenFindMs = performance.now() - started;
    if (found.total !== 1) throw new Error(`search bench: the search after the write found ${found.total} documents, not 1`);
    return {
      entities: before.count,
      firstSearchMs: first.ms,
      indexHeapBytes: after.heapUsed - before.heapUsed,
      withFullTextHeapBytes: scored.heapUsed - before.heapUsed,
      writeThenFindMs,
      timings,
    };
  } finally {
    await target.stop();
  }
}
