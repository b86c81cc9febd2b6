/**
 * Table profiler configuration, sample data and profiles (contract "Table profiler", "Table sample
 * data"; docs/behaviour.md "Table data"). Shapes and statuses per profile (docs/behaviour.md "Profiles"):
 * `profilerConfigResponse`, `tableDataDelete`, `sampleData`,
 * `profileReadsByFqn`. OpenMetadata's `/tableProfilerConfig` is served in both profiles.
 * Registered before the generic entity routes.
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { ContractSampleData, CreateTableProfile, ProfileKind, TableData, TableProfilerConfig } from './table-data.ts';
import {
  addProfiles,
  deleteProfilerConfig,
  deleteSampleData,
  listProfiles,
  profilerConfigOf,
  sampleDataOf,
  setProfilerConfig,
  setSampleData,
  toContractSampleData,
} from './table-data.ts';
import { ApiError } from '../../http/errors.ts';
import { quoteName, splitFqn } from '../../core/fqn.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { findByFqn, findById, pathParam, queryValue, renderFor } from '../../http/request-helpers.ts';

/** An optional epoch-ms query parameter (the validator has checked it is an integer ≥ 0). */
export function queryTimestamp(req: ApiRequest, name: string): number | undefined {
  const value = queryValue(req, name);
  return value === undefined || value === '' ? undefined : Number(value);
}

export function mountTableDataRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const TABLE = ctx.kinds.of('table');
  const prefix = '/api/v1/tables/:id';
  const table = (req: ApiRequest) => findById(ctx, TABLE, pathParam(req, 'id'), 'non-deleted');
  const withFields = (req: ApiRequest, stored: StoredEntity, ...fields: string[]) => renderFor(ctx, TABLE, req, stored, new Set(fields));
  /** DELETE answers: 204 (contract) or 200 with the table (docs/behaviour.md "Table data"). */
  const deleted = (req: ApiRequest, reply: Reply, stored: StoredEntity) => {
    const answer = ctx.profile.tableDataDelete;
    if (answer.body === 'table') reply.status(answer.status).json(withFields(req, stored));
    else reply.status(answer.status).empty();
  };

  // Contract "Table profiler": GET 404 when the table is unknown or has no configuration.
  router.get(`${prefix}/profilerConfig`, (req, reply) => {
    const stored = table(req);
    const config = profilerConfigOf(ctx, stored.entity.id);
    if (!config) throw new ApiError(404, `Profiler config for table ${stored.entity.id} not found`);
    reply.json(ctx.profile.profilerConfigResponse === 'table' ? withFields(req, stored, 'tableProfilerConfig') : config);
  });
  router.put(`${prefix}/profilerConfig`, (req, reply) => {
    const stored = table(req);
    const config = setProfilerConfig(ctx, stored, req.body as TableProfilerConfig);
    reply.json(ctx.profile.profilerConfigResponse === 'table' ? withFields(req, stored, 'tableProfilerConfig') : config);
  });
  router.delete(`${prefix}/profilerConfig`, (req, reply) => {
    const stored = table(req);
    deleteProfilerConfig(ctx, stored.entity.id);
    deleted(req, reply, stored);
  });

  // OpenMetadata's path (docs/behaviour.md "Table data"; `ui/rest/tableAPI.ts`): always the table, in both profiles.
  router.get(`${prefix}/tableProfilerConfig`, (req, reply) => reply.json(withFields(req, table(req), 'tableProfilerConfig')));
  router.put(`${prefix}/tableProfilerConfig`, (req, reply) => {
    const stored = table(req);
    setProfilerConfig(ctx, stored, req.body as TableProfilerConfig);
    reply.json(withFields(req, stored, 'tableProfilerConfig'));
  });
  router.delete(`${prefix}/tableProfilerConfig`, (req, reply) => {
    const stored = table(req);
    deleteProfilerConfig(ctx, stored.entity.id);
    reply.json(withFields(req, stored));
  });

  // Contract "Table sample data": GET 404 when none is stored.
  const sampleAnswer = (req: ApiRequest, stored: StoredEntity, data: TableData) =>
    ctx.profile.sampleData === 'table' ? withFields(req, stored, 'sampleData') : toContractSampleData(stored.entity, data);
  router.get(`${prefix}/sampleData`, (req, reply) => {
    const stored = table(req);
    const data = sampleDataOf(ctx, stored.entity.id);
    if (!data) throw new ApiError(404, `Sample data for table ${stored.entity.id} not found`);
    reply.json(sampleAnswer(req, stored, data));
  });
  router.put(`${prefix}/sampleData`, (req, reply) => {
    const stored = table(req);
    const data = setSampleData(ctx, stored, req.body as TableData | ContractSampleData);
    reply.json(sampleAnswer(req, stored, data));
  });
  router.delete(`${prefix}/sampleData`, (req, reply) => {
    const stored = table(req);
    deleteSampleData(ctx, stored.entity.id);
    deleted(req, reply, stored);
  });

  // The write is always by table id; it answers the table with its newest `profile` (docs/behaviour.md "Table data").
  router.put(`${prefix}/tableProfile`, (req, reply) => {
    const stored = table(req);
    addProfiles(ctx, stored, req.body as CreateTableProfile);
    reply.json(withFields(req, stored, 'profile'));
  });

  const reads: [string, ProfileKind][] = [
    ['tableProfile', 'table'],
    ['columnProfile', 'column'],
    ['systemProfile', 'system'],
  ];
  for (const [path, kind] of reads) {
    router.get(`${prefix}/${path}`, (req, reply) => {
      // OpenMetadata requires startTs / endTs on column and system profiles (docs/behaviour.md "Table data").
      if (ctx.profile.profileReadsByFqn && kind !== 'table') {
        for (const name of ['startTs', 'endTs']) if (queryValue(req, name) === undefined) throw ApiError.badRequest(`[query param ${name} must not be null]`);
      }
      const { stored, column } = profileTarget(ctx, pathParam(req, 'id'), kind);
      const range = { startTs: queryTimestamp(req, 'startTs'), endTs: queryTimestamp(req, 'endTs'), now: ctx.now() };
      reply.json(listProfiles(ctx, stored.entity.id, kind, range, column));
    });
  }
}

/**
 * Whose profiles a read asks for: the table by id (profile `contract`), or by FQN — the column FQN
 * `<table FQN>.<column>` for column profiles — (profile `openmetadata`, docs/behaviour.md "Table data").
 */
function profileTarget(ctx: CatalogContext, key: string, kind: ProfileKind): { stored: StoredEntity; column?: string } {
  const TABLE = ctx.kinds.of('table');
  if (!ctx.profile.profileReadsByFqn) return { stored: findById(ctx, TABLE, key, 'non-deleted') };
  if (kind !== 'column') return { stored: findByFqn(ctx, TABLE, key, 'non-deleted') };
  const parts = splitFqn(key);
  const column = parts.pop();
  const tableFqn = parts.map(quoteName).join('.');
  const stored = ctx.store.getByFqn('table', tableFqn);
  if (!stored || stored.entity.deleted || column === undefined) throw ApiError.notFound('column', key);
  if (!(stored.entity.columns as { name: string }[] | undefined)?.some((c) => c.name === column)) throw ApiError.notFound('column', key);
  return { stored, column };
}
