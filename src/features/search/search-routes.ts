/**
 * The search endpoints (docs/behaviour.md "Search"): `GET /v1/search/query`, `GET` and
 * `POST /v1/search/aggregate` and `GET /v1/search/fieldQuery`, answered from the catalog's search
 * index (src/features/search/search-index.ts), which follows the store's writes.
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { components } from '../../../openapi/generated/schema.d.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { SearchIndex } from './search-index.ts';
import { queryValue } from '../../http/request-helpers.ts';

type AggregationRequest = components['schemas']['AggregationRequest'];

/** A query parameter as text (the validator has checked its type); undefined when absent. */
function text(req: ApiRequest, name: string): string | undefined {
  const value = queryValue(req, name);
  return value === undefined ? undefined : String(value);
}

function int(req: ApiRequest, name: string, fallback: number): number {
  const value = queryValue(req, name);
  return typeof value === 'number' ? value : value === undefined || value === '' ? fallback : Number(value);
}

function bool(req: ApiRequest, name: string, fallback: boolean): boolean {
  const value = queryValue(req, name);
  return value === undefined ? fallback : value === true || value === 'true';
}

/** A parameter that may be repeated (`include_source_fields=a&include_source_fields=b`) or comma-separated. */
function list(req: ApiRequest, name: string): string[] | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).map((v) => v.trim());
}

/**
 * `search_after` (docs/behaviour.md "Search"): from OpenMetadata 2.0 one parameter per sort value,
 * repeated, so a value may hold a comma; before it, one parameter with the values joined by commas.
 */
function searchAfter(req: ApiRequest, form: 'repeated' | 'joined'): string[] | undefined {
  const value = (req.query as Record<string, unknown>).search_after;
  if (value === undefined || value === '') return undefined;
  const values = (Array.isArray(value) ? value : [value]).map(String);
  return form === 'joined' ? values.flatMap((v) => v.split(',')) : values;
}

export function mountSearchRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const index = new SearchIndex(ctx);

  const query = (req: ApiRequest) =>
    index.query({
      q: text(req, 'q'),
      index: text(req, 'index') ?? 'table_search_index',
      from: int(req, 'from', 0),
      size: int(req, 'size', 10),
      deleted: bool(req, 'deleted', false),
      sortField: text(req, 'sort_field') || '_score',
      sortOrder: text(req, 'sort_order') === 'asc' ? 'asc' : 'desc',
      trackTotalHits: bool(req, 'track_total_hits', false),
      queryFilter: text(req, 'query_filter'),
      postFilter: text(req, 'post_filter'),
      fetchSource: bool(req, 'fetch_source', true),
      includeFields: list(req, 'include_source_fields'),
      excludeFields: list(req, 'exclude_source_fields'),
      searchAfter: searchAfter(req, ctx.profile.searchAfter),
    });
  // OpenMetadata 2.0's natural-language search takes a question; without a language model its words are the query.
  for (const path of ['/api/v1/search/query', '/api/v1/hybrid/nlq/search']) router.get(path, (req, reply) => reply.json(query(req)));

  router.post('/api/v1/search/preview', (req, reply) => {
    // The validator has filled in the body's defaults.
    const body = req.body as components['schemas']['SearchPreviewRequest'];
    reply.json(
      index.query({
        q: body.query,
        index: body.index!,
        from: body.from!,
        size: body.size!,
        deleted: false,
        sortField: body.sortField!,
        sortOrder: body.sortOrder!,
        trackTotalHits: body.trackTotalHits!,
        queryFilter: body.queryFilter,
        postFilter: body.postFilter,
        fetchSource: body.fetchSource!,
        includeFields: body.includeSourceFields,
      }),
    );
  });

  router.get('/api/v1/search/reindex/failures', (_req, reply) => reply.json({ data: [], paging: { total: 0 } }));
  router.get('/api/v1/search/stats', (_req, reply) => reply.json(index.stats()));
  router.delete('/api/v1/search/stats/orphan', (_req, reply) => reply.json({ deletedIndexes: [], deletedCount: 0 }));

  const aggregate = (req: ApiRequest) =>
    index.aggregate({
      index: text(req, 'index') ?? 'table_search_index',
      field: text(req, 'field') ?? '',
      value: text(req, 'value') ?? '',
      valueParam: 'value',
      q: text(req, 'q'),
      qParam: 'q',
      size: int(req, 'size', 10),
      deleted: bool(req, 'deleted', false),
      sourceFields: list(req, 'sourceFields')?.filter((f) => f !== ''),
      topHitsSize: 10,
    });
  for (const path of ['/api/v1/search/aggregate', '/api/v1/hybrid/nlq/search/aggregate']) router.get(path, (req, reply) => reply.json(aggregate(req)));

  router.post('/api/v1/search/aggregate', (req, reply) => {
    // The validator has filled in the body's defaults (index, fieldValue, query, size, deleted).
    const body = req.body as AggregationRequest;
    reply.json(
      index.aggregate({
        index: body.index,
        field: body.fieldName,
        value: body.fieldValue,
        valueParam: 'fieldValue',
        q: body.query,
        qParam: 'query',
        queryText: body.queryText,
        size: body.size,
        deleted: body.deleted,
        sourceFields: body.sourceFields?.length ? body.sourceFields : undefined,
        topHitsSize: body.topHits?.size ?? 10,
      }),
    );
  });

  router.get('/api/v1/search/fieldQuery', (req, reply) => {
    reply.json(
      index.fieldQuery({
        index: text(req, 'index') ?? 'table_search_index',
        fieldName: text(req, 'fieldName') ?? '',
        fieldValue: text(req, 'fieldValue') ?? '',
        deleted: bool(req, 'deleted', false),
        from: int(req, 'from', 0),
        size: int(req, 'size', 10),
      }),
    );
  });
}
