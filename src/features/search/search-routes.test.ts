/**
 * The search endpoints as requirements, against a running app (docs/behaviour.md "Search"): `q`
 * words, wildcards and field terms, the index names and groups, `query_filter` / `post_filter`,
 * sorting and paging, deleted entities, the aggregations, `_source`, the aggregate and field
 * query endpoints, and writes (and a reset or an import) showing in the next search.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';

interface Hit {
  _index: string;
  _id: string;
  _score: number | null;
  _source?: Record<string, unknown>;
  sort?: unknown[];
}
interface Answer {
  hits: { total: { value: number; relation: string }; max_score: number | null; hits: Hit[] };
  aggregations?: Record<string, { buckets: { key: string; doc_count: number; 'top_hits#top'?: { hits: { hits: Hit[] } } }[]; sum_other_doc_count?: number }>;
}

let c: TestApp;
let ids: Record<string, string> = {};

/** Two storage services and five containers, with tiers, tags and owners; `orders_2019` written a second later. Returns the containers' ids. */
async function seed(catalog: TestApp): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const ok = async (test: PromiseLike<{ status: number; body: { id: string } }>, status = 201) => {
    const res = await test;
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  for (const name of ['PII', 'Tier']) await ok(catalog.post('/api/v1/classifications', { name, description: name }));
  await ok(catalog.post('/api/v1/tags', { classification: 'PII', name: 'Sensitive', description: 'Sensitive' }));
  for (const name of ['Tier1', 'Tier2']) await ok(catalog.post('/api/v1/tags', { classification: 'Tier', name, description: name }));
  const alice = await ok(catalog.post('/api/v1/users', { name: 'alice', displayName: 'Alice Smith', email: 'alice@example.com' }));
  const bob = await ok(catalog.post('/api/v1/users', { name: 'bob', displayName: 'Bob Jones', email: 'bob@example.com' }));
  await ok(catalog.post('/api/v1/services/storageServices', { name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3', awsSecretAccessKey: 'secret' } } }));
  await ok(catalog.post('/api/v1/services/storageServices', { name: 'archive', serviceType: 'GCS', connection: { config: { type: 'GCS' } } }));
  const containers = [
    {
      name: 'fact_orders',
      displayName: 'Orders',
      service: 'lake',
      description: 'One row per order line',
      tags: [{ tagFQN: 'Tier.Tier1' }, { tagFQN: 'PII.Sensitive' }],
      owners: [{ id: alice.id, type: 'user' }],
    },
    { name: 'fact_refunds', service: 'lake', description: 'Refunds of orders', tags: [{ tagFQN: 'Tier.Tier2' }] },
    { name: 'dim_customer', service: 'lake', description: 'The customer dimension', tags: [{ tagFQN: 'PII.Sensitive' }], owners: [{ id: bob.id, type: 'user' }] },
    { name: 'clickstream', service: 'lake', description: 'Raw web events' },
  ];
  for (const body of containers) ids[body.name] = (await ok(catalog.post('/api/v1/containers', body))).id;
  catalog.clock.now = T0 + 1000;
  ids.orders_2019 = (await ok(catalog.post('/api/v1/containers', { name: 'orders_2019', service: 'archive', description: 'Old orders' }))).id;
  return ids;
}

async function search(query: string, status = 200, token?: string): Promise<Answer> {
  const res = await c.get(`/api/v1/search/query?${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as Answer;
}

/** The names of the hits, in the order answered. */
const names = (answer: Answer) => answer.hits.hits.map((h) => h._source?.name);
/** The names of the hits, sorted (for sets). */
const nameSet = (answer: Answer) => names(answer).sort();
const enc = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

beforeAll(async () => {
  c = await startApp({ at: T0 });
  ids = await seed(c);
}, SLOW_START);

describe('q: words, wildcards and field terms (given q on the containers, want the names found)', () => {
  it.each([
    { q: '*', want: ['clickstream', 'dim_customer', 'fact_orders', 'fact_refunds', 'orders_2019'] },
    { q: '', want: ['clickstream', 'dim_customer', 'fact_orders', 'fact_refunds', 'orders_2019'] },
    { q: 'orders', want: ['fact_orders', 'fact_refunds', 'orders_2019'] },
    { q: 'ORDER', want: ['fact_orders', 'fact_refunds', 'orders_2019'] },
    { q: 'fact orders', want: ['fact_orders', 'fact_refunds'] },
    { q: 'fact AND orders', want: ['fact_orders', 'fact_refunds'] },
    { q: 'fact OR clickstream', want: ['clickstream', 'fact_orders', 'fact_refunds'] },
    { q: 'orders NOT fact', want: ['orders_2019'] },
    { q: 'orders -fact', want: ['orders_2019'] },
    { q: '"order line"', want: ['fact_orders'] },
    { q: 'orders\\_2019', want: ['orders_2019'] },
    { q: '*der*', want: ['fact_orders', 'fact_refunds', 'orders_2019'] },
    { q: 'fact_*', want: ['fact_orders', 'fact_refunds'] },
    { q: 'dim_custome?', want: ['dim_customer'] },
    { q: '*stream', want: ['clickstream'] },
    { q: 'tags.tagFQN:PII.Sensitive', want: ['dim_customer', 'fact_orders'] },
    { q: 'tier.tagFQN:Tier.Tier1', want: ['fact_orders'] },
    { q: 'owners.displayName.keyword:"Alice Smith"', want: ['fact_orders'] },
    { q: 'service.name:archive', want: ['orders_2019'] },
    { q: 'name:fact*', want: ['fact_orders', 'fact_refunds'] },
    { q: 'description:*dimension*', want: ['dim_customer'] },
    { q: 'owners:*', want: ['dim_customer', 'fact_orders'] },
    { q: 'displayName:orders', want: ['fact_orders', 'orders_2019'] },
    { q: '(fact OR dim) AND tags.tagFQN:PII.Sensitive', want: ['dim_customer', 'fact_orders'] },
    { q: 'service.name:(lake OR archive) AND NOT tags.tagFQN:PII.Sensitive', want: ['clickstream', 'fact_refunds', 'orders_2019'] },
    { q: 'nothing_like_this', want: [] },
    { q: 'constructor.name:Object', want: [] },
    { q: '__proto__:*', want: [] },
  ])('q=$q', async ({ q, want }) => {
    expect(nameSet(await search(`q=${enc(q)}&index=container&size=50`))).toEqual(want);
  });

  it('free text is scored: hits by descending _score, max_score the best', async () => {
    const answer = await search(`q=orders&index=container`);
    const scores = answer.hits.hits.map((h) => h._score!);
    expect(scores.every((s) => typeof s === 'number' && s > 0)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(answer.hits.max_score).toBe(scores[0]);
  });
});

describe('index: names, aliases and groups (given index, want the entity types found)', () => {
  it.each([
    { index: 'container', want: ['container'] },
    { index: 'container_search_index', want: ['container'] },
    { index: 'storageService', want: ['storageService'] },
    { index: 'storage_service_search_index', want: ['storageService'] },
    { index: 'service', want: ['storageService'] },
    { index: 'dataAsset', want: ['container'] },
    { index: 'container,storageService', want: ['container', 'storageService'] },
    { index: 'all', want: ['classification', 'container', 'storageService', 'tag'] },
    { index: 'user', want: ['user'] },
    { index: 'glossaryTerm', want: [] },
  ])('index=$index', async ({ index, want }) => {
    const answer = await search(`q=*&index=${index}&size=100`);
    expect([...new Set(answer.hits.hits.map((h) => h._source?.entityType))].sort()).toEqual(want);
  });

  it('without index, tables are searched (OpenMetadata’s default table_search_index)', async () => {
    expect((await search('q=*')).hits.total.value).toBe(0);
  });

  it('each hit names the index of its kind', async () => {
    const answer = await search('q=*&index=container,storageService&size=100');
    for (const hit of answer.hits.hits) expect(hit._index).toBe(hit._source?.entityType === 'container' ? 'container_search_index' : 'storage_service_search_index');
  });
});

describe('query_filter and post_filter (given a filter, want the names found)', () => {
  it.each([
    { filter: { query: { bool: { must: [{ term: { 'service.displayName.keyword': 'lake' } }] } } }, want: ['clickstream', 'dim_customer', 'fact_orders', 'fact_refunds'] },
    { filter: { term: { entityType: 'container' } }, want: ['clickstream', 'dim_customer', 'fact_orders', 'fact_refunds', 'orders_2019'] },
    { filter: { terms: { name: ['clickstream', 'orders_2019', 'other'] } }, want: ['clickstream', 'orders_2019'] },
    {
      filter: { bool: { should: [{ term: { 'owners.displayName.keyword': 'Alice Smith' } }, { term: { 'owners.displayName.keyword': 'Bob Jones' } }] } },
      want: ['dim_customer', 'fact_orders'],
    },
    { filter: { bool: { must_not: [{ exists: { field: 'owners' } }] } }, want: ['clickstream', 'fact_refunds', 'orders_2019'] },
    { filter: { bool: { filter: { prefix: { name: 'fact' } }, must_not: { term: { 'tier.tagFQN': 'Tier.Tier2' } } } }, want: ['fact_orders'] },
    { filter: { match: { description: 'orders' } }, want: ['fact_refunds', 'orders_2019'] },
    { filter: { match: { description: { query: 'old orders', operator: 'and' } } }, want: ['orders_2019'] },
    { filter: { match_phrase: { description: 'order line' } }, want: ['fact_orders'] },
    { filter: { range: { updatedAt: { gte: T0 + 1000 } } }, want: ['orders_2019'] },
    { filter: { range: { updatedAt: { lt: T0 + 1000 } } }, want: ['clickstream', 'dim_customer', 'fact_orders', 'fact_refunds'] },
    { filter: { wildcard: { name: { value: '*_2019' } } }, want: ['orders_2019'] },
    { filter: { regexp: { name: 'dim_.*' } }, want: ['dim_customer'] },
    // Nested repetition and alternation are answered like any other pattern (src/features/search/patterns.ts).
    { filter: { regexp: { name: '(a|aa)*b' } }, want: [] },
    { filter: { regexp: { name: '(f|fa)*ct_(o|or|ord)+ers' } }, want: ['fact_orders'] },
    { filter: { regexp: { name: '((c|l)+i?)+ck\\S+' } }, want: ['clickstream'] },
    { filter: { wildcard: { name: '*a*a*a*a*a*a*a*a*a*c' } }, want: [] },
    { filter: { wildcard: { name: 'f*a*c*t*_*s' } }, want: ['fact_orders', 'fact_refunds'] },
    { filter: { query_string: { query: 'name:dim* OR name:click*' } }, want: ['clickstream', 'dim_customer'] },
    { filter: { bool: { should: [{ term: { name: 'clickstream' } }, { term: { name: 'fact_orders' } }], minimum_should_match: 2 } }, want: [] },
    { filter: { match_none: {} }, want: [] },
    { filter: {}, want: ['clickstream', 'dim_customer', 'fact_orders', 'fact_refunds', 'orders_2019'] },
  ])('query_filter=$filter', async ({ filter, want }) => {
    expect(nameSet(await search(`q=*&index=container&size=50&query_filter=${enc(filter)}`))).toEqual(want);
  });

  it('a post_filter narrows the hits and the total, not the aggregations', async () => {
    const answer = await search(`q=*&index=container&post_filter=${enc({ term: { name: 'fact_orders' } })}`);
    expect(names(answer)).toEqual(['fact_orders']);
    expect(answer.hits.total.value).toBe(1);
    expect(answer.aggregations?.['sterms#entityType']?.buckets).toEqual([{ key: 'container', doc_count: 5 }]);
  });

  it('a query_filter narrows the aggregations too', async () => {
    const answer = await search(`q=*&index=container&query_filter=${enc({ term: { name: 'fact_orders' } })}`);
    expect(answer.aggregations?.['sterms#entityType']?.buckets).toEqual([{ key: 'container', doc_count: 1 }]);
  });

  it.each([
    { param: 'query_filter', value: 'notjson', want: 'query_filter is not a valid query: expected query DSL, got text that is not JSON' },
    { param: 'post_filter', value: '{"bool":{"must":"x"}}', want: 'post_filter is not a valid query: a malformed boolean clause' },
    { param: 'query_filter', value: '{"fuzzy":{"name":"x"}}', want: 'query_filter is not a valid query: unknown query [fuzzy]' },
    { param: 'query_filter', value: '[1]', want: 'query_filter is not a valid query: expected query DSL, got JSON that is not an object' },
    { param: 'query_filter', value: '{"term":{"a":1,"b":2}}', want: 'query_filter is not a valid query: [term] expects exactly one field' },
    { param: 'query_filter', value: '{"regexp":{"name":"("}}', want: 'query_filter is not a valid query: [regexp] cannot read "("' },
    { param: 'query_filter', value: '{"regexp":{"name":"a(?=b)"}}', want: 'query_filter is not a valid query: [regexp] cannot read "a(?=b)"' },
    {
      param: 'query_filter',
      value: JSON.stringify({ regexp: { name: 'a'.repeat(1001) } }),
      want: 'query_filter is not a valid query: [regexp] is longer than the limit of 1000 characters',
    },
    {
      param: 'query_filter',
      value: JSON.stringify({ wildcard: { name: '*a'.repeat(501) } }),
      want: 'query_filter is not a valid query: [wildcard] is longer than the limit of 1000 characters',
    },
    {
      param: 'query_filter',
      value: JSON.stringify({ regexp: { name: '.{1000}.{1000}.{1000}' } }),
      want: 'query_filter is not a valid query: [regexp] compiles to more than 2000 instructions (its repetitions expanded), the limit',
    },
    {
      param: 'query_filter',
      value: '{"bool":{"must":'.repeat(65) + '{"match_all":{}}' + '}}'.repeat(65),
      want: 'query_filter is not a valid query: nested deeper than 64 levels',
    },
  ])('$param=$value is a 400 naming the parameter', async ({ param, value, want }) => {
    const res = await c.get(`/api/v1/search/query?q=*&index=container&${param}=${enc(value)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, message: want, details: [{ path: param }] });
  });
});

describe('sorting and paging', () => {
  it.each([
    { params: 'sort_field=name.keyword&sort_order=asc&from=0&size=2', want: ['clickstream', 'dim_customer'] },
    { params: 'sort_field=name.keyword&sort_order=asc&from=2&size=2', want: ['fact_orders', 'fact_refunds'] },
    { params: 'sort_field=name.keyword&sort_order=asc&from=4&size=2', want: ['orders_2019'] },
    { params: 'sort_field=name.keyword&sort_order=desc&size=3', want: ['orders_2019', 'fact_refunds', 'fact_orders'] },
    { params: 'sort_field=updatedAt&sort_order=desc&size=1', want: ['orders_2019'] },
    { params: 'sort_field=displayName.keyword&sort_order=asc&size=5', want: ['clickstream', 'dim_customer', 'fact_refunds', 'fact_orders', 'orders_2019'] },
    { params: 'sort_field=tier.tagFQN&sort_order=asc&size=5', want: ['fact_orders', 'fact_refunds', 'orders_2019', 'clickstream', 'dim_customer'] },
    { params: 'size=0', want: [] },
  ])('$params', async ({ params, want }) => {
    const answer = await search(`q=*&index=container&${params}`);
    expect(names(answer)).toEqual(want);
    expect(answer.hits.total).toEqual({ value: 5, relation: 'eq' });
  });

  it('hits sorted by a field carry it in `sort`, with `_score` and `max_score` null', async () => {
    const answer = await search('q=*&index=container&sort_field=name.keyword&sort_order=asc&size=1');
    expect(answer.hits.hits[0]).toMatchObject({ _score: null, sort: ['clickstream', 'lake.clickstream'] });
    expect(answer.hits.max_score).toBeNull();
  });

  it('from + size beyond 10,000 is a 400, as in Elasticsearch', async () => {
    const res = await c.get('/api/v1/search/query?q=*&index=container&from=9995&size=10');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Result window is too large, from + size must be less than or equal to: [10000] but was [10005]');
  });

  it('search_after: the page after the last hit seen, its sort values repeated one parameter each (OpenMetadata 2.0)', async () => {
    const sorted = 'q=*&index=container&sort_field=name.keyword&sort_order=asc&size=2';
    const first = await search(sorted);
    expect(names(first)).toEqual(['clickstream', 'dim_customer']);
    const cursor = first.hits.hits[1]!.sort!.map((v) => `search_after=${encodeURIComponent(String(v))}`).join('&');
    const second = await search(`${sorted}&${cursor}`);
    expect(names(second)).toEqual(['fact_orders', 'fact_refunds']);
    // The total counts every match, as Elasticsearch's does with search_after.
    expect(second.hits.total).toEqual({ value: 5, relation: 'eq' });
    // Descending, and by the key alone (every hit with that key is at or before the cursor).
    expect(names(await search('q=*&index=container&sort_field=name.keyword&sort_order=desc&size=2&search_after=fact_refunds'))).toEqual(['fact_orders', 'dim_customer']);
    // A value holding a comma is one value in 2.0.
    expect(names(await search('q=*&index=container&sort_field=name.keyword&sort_order=asc&size=5&search_after=fact_orders,zzz'))).toEqual(['fact_refunds', 'orders_2019']);
    expect((await c.get(`/api/v1/search/query?${sorted}&from=2&${cursor}`)).status).toBe(400);
  });

  it('search_after in profile openmetadata-1.10: one parameter, the sort values joined by commas', async () => {
    const old = await startApp({ profile: 'openmetadata-1.10', at: T0 });
    try {
      await seed(old);
      const res = await old.get('/api/v1/search/query?q=*&index=container&sort_field=name.keyword&sort_order=asc&size=2&search_after=dim_customer,lake.dim_customer').expect(200);
      expect((res.body as Answer).hits.hits.map((h) => h._source?.name)).toEqual(['fact_orders', 'fact_refunds']);
      // Repeated, it is refused by that profile's document.
      expect((await old.get('/api/v1/search/query?q=*&index=container&sort_field=name.keyword&search_after=a&search_after=b')).status).toBe(400);
    } finally {
      await old.close();
    }
  });

  it.each(['sort_order=up', 'size=-1', 'from=x', 'size=10001'])('%s is refused by the document (400)', async (params) => {
    expect((await c.get(`/api/v1/search/query?q=*&index=container&${params}`)).status).toBe(400);
  });
});

describe("the search calls of OpenMetadata 2.0's UI", () => {
  it('POST /v1/search/preview and GET /v1/hybrid/nlq/search answer as the query does; stats count each index; no reindex failures or orphans', async () => {
    const direct = await search('q=orders&index=container&size=5');
    const preview = (await c.post('/api/v1/search/preview', { query: 'orders', index: 'container', size: 5, searchSettings: { anything: true } }).expect(200)).body as Answer;
    expect(names(preview)).toEqual(names(direct));
    const nlq = (await c.get('/api/v1/hybrid/nlq/search?q=orders&index=container&size=5').expect(200)).body as Answer;
    expect(names(nlq)).toEqual(names(direct));
    const agg = (await c.get('/api/v1/hybrid/nlq/search/aggregate?index=container&field=service.name').expect(200)).body as Answer;
    expect(agg.aggregations?.['sterms#service.name']?.buckets.map((b) => b.key).sort()).toEqual(['archive', 'lake']);
    const stats = (await c.get('/api/v1/search/stats').expect(200)).body as { totalDocuments: number; indexes: { name: string; documents: number }[] };
    expect(stats.indexes.find((i) => i.name === 'container_search_index')?.documents).toBe(5);
    expect(stats.totalDocuments).toBe(stats.indexes.reduce((sum, i) => sum + i.documents, 0));
    expect((await c.get('/api/v1/search/reindex/failures').expect(200)).body).toEqual({ data: [], paging: { total: 0 } });
    expect((await c.delete('/api/v1/search/stats/orphan').expect(200)).body).toEqual({ deletedIndexes: [], deletedCount: 0 });
  });
});

describe('_source: the entity as the search index stores it', () => {
  it('fact_orders: entityType, tier apart from tags, references with display names, followers as ids, no secrets', async () => {
    const [hit] = (await search('q=name:fact_orders&index=container')).hits.hits;
    expect(hit).toMatchObject({ _index: 'container_search_index', _id: ids.fact_orders, _score: expect.any(Number) });
    expect(hit!._source).toMatchObject({
      id: ids.fact_orders,
      name: 'fact_orders',
      displayName: 'Orders',
      fullyQualifiedName: 'lake.fact_orders',
      entityType: 'container',
      fqnParts: ['lake', 'fact_orders'],
      deleted: false,
      tier: { tagFQN: 'Tier.Tier1' },
      tags: [{ tagFQN: 'PII.Sensitive' }],
      owners: [{ name: 'alice', displayName: 'Alice Smith', type: 'user' }],
      service: { name: 'lake', displayName: 'lake', type: 'storageService' },
      followers: [],
      totalVotes: 0,
    });
    expect(hit!._source).not.toHaveProperty('changeDescription');
    expect(hit!._source).not.toHaveProperty('href');
  });

  it('a service has no connection in its document', async () => {
    const answer = await search('q=name:lake&index=service');
    expect(answer.hits.hits[0]!._source).toMatchObject({ name: 'lake', entityType: 'storageService', displayName: 'lake' });
    expect(answer.hits.hits[0]!._source).not.toHaveProperty('connection');
  });

  it.each([
    { params: 'include_source_fields=name&include_source_fields=service.name', want: { name: 'fact_orders', service: { name: 'lake' } } },
    { params: 'include_source_fields=name,entityType', want: { name: 'fact_orders', entityType: 'container' } },
    { params: 'include_source_fields=owners.displayName', want: { owners: [{ displayName: 'Alice Smith' }] } },
  ])('$params keeps only those fields', async ({ params, want }) => {
    const answer = await search(`q=name:fact_orders&index=container&${params}`);
    expect(answer.hits.hits[0]!._source).toEqual(want);
  });

  it('exclude_source_fields leaves fields out; fetch_source=false leaves out _source', async () => {
    const excluded = await search('q=name:fact_orders&index=container&exclude_source_fields=description&exclude_source_fields=tags');
    expect(excluded.hits.hits[0]!._source).toMatchObject({ name: 'fact_orders' });
    expect(excluded.hits.hits[0]!._source).not.toHaveProperty('description');
    expect(excluded.hits.hits[0]!._source).not.toHaveProperty('tags');
    const bare = await search('q=name:fact_orders&index=container&fetch_source=false');
    expect(bare.hits.hits[0]).not.toHaveProperty('_source');
    expect(bare.hits.hits[0]!._id).toBe(ids.fact_orders);
  });
});

describe('aggregations of a search (the explore page’s counts and filters)', () => {
  it('terms of the configured fields over the matches, most documents first, keys prefixed sterms#', async () => {
    const answer = await search('q=*&index=container&size=0');
    const buckets = (name: string) => answer.aggregations?.[`sterms#${name}`]?.buckets;
    expect(answer.hits.hits).toEqual([]);
    expect(buckets('entityType')).toEqual([{ key: 'container', doc_count: 5 }]);
    expect(buckets('serviceType')).toEqual([
      { key: 'S3', doc_count: 4 },
      { key: 'GCS', doc_count: 1 },
    ]);
    expect(buckets('service.displayName.keyword')).toEqual([
      { key: 'lake', doc_count: 4 },
      { key: 'archive', doc_count: 1 },
    ]);
    expect(buckets('tier.tagFQN')).toEqual([
      { key: 'Tier.Tier1', doc_count: 1 },
      { key: 'Tier.Tier2', doc_count: 1 },
    ]);
    expect(buckets('tags.tagFQN')).toEqual([{ key: 'PII.Sensitive', doc_count: 2 }]);
    expect(buckets('classificationTags')).toEqual([{ key: 'PII.Sensitive', doc_count: 2 }]);
    expect(buckets('owners.displayName.keyword')).toEqual([
      { key: 'Alice Smith', doc_count: 1 },
      { key: 'Bob Jones', doc_count: 1 },
    ]);
    expect(buckets('glossaryTags')).toEqual([]);
  });

  it('the tab counts over data assets and services, as the explore page asks for them', async () => {
    const answer = await search('q=&index=dataAsset,service&from=0&size=0&deleted=false&fetch_source=false');
    expect(answer.aggregations?.['sterms#entityType']?.buckets).toEqual([
      { key: 'container', doc_count: 5 },
      { key: 'storageService', doc_count: 2 },
    ]);
  });
});

describe('deleted entities, and writes visible at once', () => {
  it('soft-deleted: hidden, then alone with deleted=true; restored: back; hard-deleted: gone', async () => {
    const catalog = await startApp({ at: T0 });
    const ids = await seed(catalog);
    const find = async (query: string) => nameSet((await catalog.get(`/api/v1/search/query?index=container&size=50&${query}`)).body as Answer);
    expect(await find('q=*')).toHaveLength(5);
    expect((await catalog.delete(`/api/v1/containers/${ids.clickstream}`)).status).toBe(200);
    expect(await find('q=*')).toEqual(['dim_customer', 'fact_orders', 'fact_refunds', 'orders_2019']);
    expect(await find('q=*&deleted=true')).toEqual(['clickstream']);
    expect(await find('q=clickstream')).toEqual([]);
    expect((await catalog.put('/api/v1/containers/restore', { id: ids.clickstream })).status).toBe(200);
    expect(await find('q=clickstream')).toEqual(['clickstream']);
    expect((await catalog.delete(`/api/v1/containers/${ids.clickstream}?hardDelete=true`)).status).toBeLessThan(300);
    expect(await find('q=clickstream')).toEqual([]);
    expect(await find('q=clickstream&deleted=true')).toEqual([]);
  });

  it('a create, a patch, new tags, a new owner and a follow each show in the next search', async () => {
    const catalog = await startApp({ at: T0 });
    await seed(catalog);
    const find = async (query: string) => nameSet((await catalog.get(`/api/v1/search/query?index=container&size=50&${query}`)).body as Answer);
    expect(await find('q=brand_new')).toEqual([]);
    const created = await catalog.post('/api/v1/containers', { name: 'brand_new', service: 'lake' });
    expect(created.status).toBe(201);
    expect(await find('q=brand_new')).toEqual(['brand_new']);
    const patch = [
      { op: 'add', path: '/description', value: 'Quarterly revenue snapshots' },
      { op: 'add', path: '/tags/0', value: { tagFQN: 'PII.Sensitive', source: 'Classification', labelType: 'Manual', state: 'Confirmed' } },
    ];
    expect((await catalog.patch(`/api/v1/containers/${created.body.id}`, patch)).status).toBe(200);
    expect(await find('q=quarterly')).toEqual(['brand_new']);
    expect(await find('q=tags.tagFQN:PII.Sensitive')).toEqual(['brand_new', 'dim_customer', 'fact_orders']);
    const bob = (await catalog.get('/api/v1/users/name/bob')).body as { id: string };
    expect((await catalog.patch(`/api/v1/containers/${created.body.id}`, [{ op: 'add', path: '/owners/0', value: { id: bob.id, type: 'user' } }])).status).toBe(200);
    expect(await find(`q=${enc('owners.displayName.keyword:"Bob Jones"')}`)).toEqual(['brand_new', 'dim_customer']);
    const user = (await catalog.get('/api/v1/users/name/alice')).body as { id: string };
    const followed = await catalog.put(`/api/v1/containers/${created.body.id}/followers`).set('Content-Type', 'application/json').send(JSON.stringify(user.id));
    expect(followed.status).toBe(200);
    const [hit] = ((await catalog.get('/api/v1/search/query?index=container&q=name:brand_new')).body as Answer).hits.hits;
    expect(hit!._source).toMatchObject({ followers: [user.id], description: 'Quarterly revenue snapshots' });
  });

  it('a reset and an import rebuild the index from the store', async () => {
    const catalog = await startApp({ at: T0 });
    await seed(catalog);
    const count = async () => ((await catalog.get('/api/v1/search/query?index=container&q=*')).body as Answer).hits.total.value;
    expect(await count()).toBe(5);
    const exported = (await catalog.get('/__admin/state')).body as unknown;
    expect((await catalog.post('/__admin/reset')).status).toBe(200);
    expect(await count()).toBe(0);
    expect((await catalog.put('/__admin/state', exported)).status).toBeLessThan(300);
    expect(await count()).toBe(5);
    expect(nameSet((await catalog.get('/api/v1/search/query?index=container&q=*der*')).body as Answer)).toEqual(['fact_orders', 'fact_refunds', 'orders_2019']);
  });
});

describe('GET and POST /v1/search/aggregate: the values of one field', () => {
  const aggregate = async (params: string) => {
    const res = await c.get(`/api/v1/search/aggregate?${params}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Answer;
  };

  it.each([
    { params: 'index=container&field=tags.tagFQN', want: [{ key: 'PII.Sensitive', doc_count: 2 }] },
    {
      params: 'index=container&field=service.displayName.keyword',
      want: [
        { key: 'archive', doc_count: 1 },
        { key: 'lake', doc_count: 4 },
      ],
    },
    { params: `index=container&field=owners.displayName.keyword&value=${enc('.*ali.*')}`, want: [{ key: 'Alice Smith', doc_count: 1 }] },
    {
      params: `index=container&field=name.keyword&value=${enc('fact.*')}`,
      want: [
        { key: 'fact_orders', doc_count: 1 },
        { key: 'fact_refunds', doc_count: 1 },
      ],
    },
    { params: `index=container&field=name.keyword&q=${enc('service.name:archive')}`, want: [{ key: 'orders_2019', doc_count: 1 }] },
    {
      params: `index=container&field=name.keyword&q=${enc({ query: { bool: { must: [{ term: { 'tier.tagFQN': 'Tier.Tier2' } }] } } })}`,
      want: [{ key: 'fact_refunds', doc_count: 1 }],
    },
    {
      params: 'index=dataAsset,service&field=entityType',
      want: [
        { key: 'container', doc_count: 5 },
        { key: 'storageService', doc_count: 2 },
      ],
    },
    { params: 'index=container&field=no.such.field', want: [] },
    // A nested repetition is a pattern like any other.
    { params: `index=container&field=name.keyword&value=${enc('(a+)+b')}`, want: [] },
    {
      params: `index=container&field=name.keyword&value=${enc('((f+a+)+ct_)+(o|r)\\w+')}`,
      want: [
        { key: 'fact_orders', doc_count: 1 },
        { key: 'fact_refunds', doc_count: 1 },
      ],
    },
  ])('$params', async ({ params, want }) => {
    const answer = await aggregate(params);
    const [[key, value]] = Object.entries(answer.aggregations ?? {}) as [[string, { buckets: unknown[] }]];
    expect(key).toBe(`sterms#${new URLSearchParams(params).get('field')}`);
    expect(value.buckets).toEqual(want);
    expect(answer.hits.hits).toEqual([]);
  });

  it('size caps the buckets; the rest is counted in sum_other_doc_count', async () => {
    const answer = await aggregate('index=container&field=name.keyword&size=2');
    expect(answer.aggregations?.['sterms#name.keyword']).toMatchObject({ buckets: [{ key: 'clickstream' }, { key: 'dim_customer' }], sum_other_doc_count: 3 });
  });

  it('sourceFields: each bucket carries its documents with only those fields', async () => {
    const answer = await aggregate('index=container&field=tier.tagFQN&sourceFields=name,fullyQualifiedName');
    const [first] = answer.aggregations?.['sterms#tier.tagFQN']?.buckets ?? [];
    expect(first?.key).toBe('Tier.Tier1');
    expect(first?.['top_hits#top']?.hits.hits.map((h) => h._source)).toEqual([{ name: 'fact_orders', fullyQualifiedName: 'lake.fact_orders' }]);
  });

  it('POST takes the request in the body, and every role may call it', async () => {
    const res = await c.post(
      '/api/v1/search/aggregate',
      { index: 'container', fieldName: 'tags.tagFQN', fieldValue: '.*pii.*', query: JSON.stringify({ query: { term: { name: 'dim_customer' } } }) },
      c.tokens.consumer,
    );
    expect(res.status).toBe(200);
    expect(res.body.aggregations['sterms#tags.tagFQN'].buckets).toEqual([{ key: 'PII.Sensitive', doc_count: 1 }]);
  });

  it.each([
    { call: () => c.get(`/api/v1/search/aggregate?index=container&field=name&value=${enc('(')}`), want: 'value is not a regular expression: (' },
    { call: () => c.post('/api/v1/search/aggregate', { fieldName: 'name', fieldValue: '[' }), want: 'fieldValue is not a regular expression: [' },
    { call: () => c.get(`/api/v1/search/aggregate?index=container&field=name&value=${enc('a\\1')}`), want: 'value is not a regular expression: a\\1' },
    { call: () => c.get(`/api/v1/search/aggregate?index=container&field=name&value=${enc('.'.repeat(1001))}`), want: 'value is longer than the limit of 1000 characters' },
    {
      call: () => c.get(`/api/v1/search/aggregate?index=container&field=name&q=${enc('{"bool":')}`),
      want: 'q is not a valid query: expected query DSL, got text that is not JSON',
    },
    { call: () => c.post('/api/v1/search/aggregate', { fieldName: 'name', query: '{"nope":{}}' }), want: 'query is not a valid query: unknown query [nope]' },
    {
      call: () =>
        c.post('/api/v1/search/aggregate', {
          fieldName: 'name',
          query: JSON.stringify({ bool: { should: Array.from({ length: 1025 }, (_, i) => ({ term: { name: `n${i}` } })) } }),
        }),
      want: 'query is not a valid query: more than 1024 queries',
    },
    { call: () => c.post('/api/v1/search/aggregate', { fieldName: 'name', query: '('.repeat(100_000) }), want: 'query is nested deeper than 64 levels (groups and NOTs)' },
  ])('a bad value or query is a 400 naming it: $want', async ({ call, want }) => {
    const res = await call();
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(want);
  });

  it('without a field it is a 400 (the document requires it)', async () => {
    expect((await c.get('/api/v1/search/aggregate?index=container')).status).toBe(400);
    expect((await c.post('/api/v1/search/aggregate', { index: 'container' })).status).toBe(400);
  });
});

describe('GET /v1/search/fieldQuery', () => {
  it.each([
    { params: 'index=container&fieldName=name&fieldValue=fact*', want: ['fact_orders', 'fact_refunds'] },
    { params: 'index=container&fieldName=service.name&fieldValue=archive', want: ['orders_2019'] },
    { params: 'index=container&fieldName=description&fieldValue=*CUSTOMER*', want: ['dim_customer'] },
    { params: 'index=container&fieldName=name&fieldValue=fact*&from=1&size=1', want: ['fact_refunds'] },
  ])('$params', async ({ params, want }) => {
    const res = await c.get(`/api/v1/search/fieldQuery?${params}`);
    expect(res.status).toBe(200);
    expect(names(res.body as Answer)).toEqual(want);
  });
});

describe('both profiles, and roles', () => {
  it('the openmetadata profile answers the same search', async () => {
    const om = await startApp({ at: T0, profile: 'openmetadata' });
    await seed(om);
    const res = await om.get('/api/v1/search/query?q=*der*&index=container');
    expect(res.status).toBe(200);
    expect(nameSet(res.body as Answer)).toEqual(['fact_orders', 'fact_refunds', 'orders_2019']);
  });

  it('a DataConsumer may search; no token is a 401', async () => {
    expect((await search('q=*&index=container', 200, c.tokens.consumer)).hits.total.value).toBe(5);
    expect((await c.get('/api/v1/search/query?q=*', '')).status).toBe(401);
  });
});

describe('q and fieldQuery: limits of a pattern and of a query string', () => {
  it.each([
    { path: `/api/v1/search/query?index=container&q=${enc('*a'.repeat(501))}`, want: 'q has a wildcard term longer than the limit of 1000 characters' },
    { path: `/api/v1/search/query?index=container&q=${enc(`name:${'a?'.repeat(501)}`)}`, want: 'q has a wildcard term longer than the limit of 1000 characters' },
    { path: `/api/v1/search/query?index=container&q=${enc(`${'('.repeat(65)}a${')'.repeat(65)}`)}`, want: 'q is nested deeper than 64 levels (groups and NOTs)' },
    { path: `/api/v1/search/query?index=container&q=${enc(`${'NOT '.repeat(65)}a`)}`, want: 'q is nested deeper than 64 levels (groups and NOTs)' },
    { path: `/api/v1/search/query?index=container&q=${enc(Array.from({ length: 1025 }, (_, i) => `w${i}`).join(' '))}`, want: 'q has more than 1024 terms' },
    { path: `/api/v1/search/fieldQuery?index=container&fieldName=name&fieldValue=${enc('*a'.repeat(501))}`, want: 'fieldValue is longer than the limit of 1000 characters' },
  ])('$want', async ({ path, want }) => {
    const res = await c.get(path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, message: want });
  });

  it('a query string 64 levels deep is answered', async () => {
    expect(nameSet(await search(`index=container&q=${enc(`${'('.repeat(64)}clickstream${')'.repeat(64)}`)}`))).toEqual(['clickstream']);
  });

  it.each([
    { fieldValue: '*a*a*a*a*a*a*a*a*a*c', want: [] },
    { fieldValue: 'f?c*_*r*s', want: ['fact_orders', 'fact_refunds'] },
    { fieldValue: 'fact\\_orders', want: ['fact_orders'] },
  ])('fieldQuery wildcard $fieldValue', async ({ fieldValue, want }) => {
    const res = await c.get(`/api/v1/search/fieldQuery?index=container&fieldName=name&fieldValue=${enc(fieldValue)}`);
    expect(res.status).toBe(200);
    expect(names(res.body as Answer)).toEqual(want);
  });
});
