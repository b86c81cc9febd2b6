/**
 * The CSV routes of every kind with a `csv` hook (src/core/csv-hook.ts; docs/behaviour.md "CSV import
 * and export"): `GET /name/{fqn}/export` (text/plain), `PUT /name/{fqn}/import?dryRun=`
 * (text/plain in, a CsvImportResult out), and their asynchronous forms, which OpenMetadata answers
 * with a job id and completes on its websocket: this server has none, so it does the work at once
 * and puts what the websocket message would carry in the answer (`status`, `data` or `result`).
 * The document decides which kinds have them (openapi/paths/csv.yaml).
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { CatalogContext, Kind } from '../../core/context.ts';
import { CatalogError } from '../../core/errors.ts';
import { exportCsv, importCsv } from './engine.ts';
import type { CsvAsyncJob } from './csv-jobs.ts';
import { exportedCsv, jobNamed, listJobs, runJob } from './csv-jobs.ts';
import type { CsvHook } from '../../core/csv-hook.ts';
import { ApiError } from '../../http/errors.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { pathParam, queryValue } from '../../http/request-helpers.ts';

/** `dryRun` defaults to true, as OpenMetadata's (the request validator has coerced it to a boolean). */
const dryRunOf = (req: ApiRequest): boolean => queryValue(req, 'dryRun') !== false;

/** OpenMetadata's `recursive` export and import (every level in one file) is not served. */
function refuseRecursive(req: ApiRequest): void {
  if (queryValue(req, 'recursive') === true) {
    throw CatalogError.badRequest('recursive=true is not served: export and import one level at a time (docs/behaviour.md "CSV import and export")');
  }
}

export function mountCsvRoutes(routes: OperationRoutes, ctx: CatalogContext): void {
  for (const kind of ctx.kinds.all) if (kind.csv) mountKind(routes, ctx, kind, kind.csv);
  mountJobs(routes, ctx);
}

/** The asynchronous jobs (src/features/csv/csv-jobs.ts) and the CSV documentation of each kind with a CSV. */
function mountJobs(routes: OperationRoutes, ctx: CatalogContext): void {
  // A job is its creator's; an Admin or a bot may read and cancel any (CsvAsyncJobResource.validateAccess).
  const readable = (req: ApiRequest): CsvAsyncJob => {
    const job = jobNamed(ctx, pathParam(req, 'jobId'));
    const { user, userId, roles } = identityOf(req);
    const named = ctx.store.get(userId)?.entity;
    const mayReadAny = roles.includes('Admin') || named?.isAdmin === true || named?.isBot === true;
    if (!mayReadAny && job.createdBy !== user) throw new ApiError(403, 'CSV job belongs to another user.');
    return job;
  };
  routes.get('/api/v1/csvAsyncJobs', (req, reply) => {
    reply.json(listJobs(ctx, identityOf(req).user, Number(queryValue(req, 'limit') ?? 20)));
  });
  routes.get('/api/v1/csvAsyncJobs/:jobId', (req, reply) => reply.json(readable(req)));
  routes.get('/api/v1/csvAsyncJobs/:jobId/result', (req, reply) => reply.text(exportedCsv(readable(req)), 'text/csv'));
  // Every job here has finished by the time its id is answered, and OpenMetadata answers a finished job as it is.
  routes.put('/api/v1/csvAsyncJobs/:jobId/cancel', (req, reply) => reply.json(readable(req)));
  routes.get('/api/v1/csv/documentation/:entityType', (req, reply) => {
    const type = pathParam(req, 'entityType');
    const hook = ctx.kinds.all.find((k) => k.type === type)?.csv;
    if (!hook) throw new CatalogError('notFound', `No CSV documentation for ${type}: this server has no CSV of it`);
    reply.json({
      summary: `The columns of the CSV of a ${type}, in order; required ones are marked * in the header.`,
      headers: hook.columns.map((c) => ({ name: c.name, required: c.required === true, description: c.required === true ? 'Required.' : 'Optional.', examples: [] })),
    });
  });
}

function mountKind(routes: OperationRoutes, ctx: CatalogContext, kind: Kind, hook: CsvHook): void {
  const base = `/api/v1/${kind.collection}/name/:fqn`;
  const call = (req: ApiRequest) => ({ ctx, kind, name: pathParam(req, 'fqn') });
  const exported = (req: ApiRequest): string => {
    refuseRecursive(req);
    return exportCsv(hook, call(req));
  };
  const imported = (req: ApiRequest) => {
    refuseRecursive(req);
    return importCsv(hook, call(req), String(req.body ?? ''), { dryRun: dryRunOf(req), user: identityOf(req).user });
  };

  routes.get(`${base}/export`, (req, reply) => {
    const csv = exported(req);
    reply.text(csv, 'text/plain');
  });
  const job = (req: ApiRequest, operation: 'EXPORT' | 'IMPORT') => ({
    operation,
    entityType: kind.type,
    targetFqn: pathParam(req, 'fqn'),
    createdBy: identityOf(req).user,
  });
  routes.get(`${base}/exportAsync`, async (req, reply) => {
    const { job: done } = await runJob(ctx, job(req, 'EXPORT'), () => ({ csv: exported(req) }));
    reply.status(202).json({ jobId: done.jobId, message: 'Export initiated successfully.', status: 'COMPLETED', data: done.result });
  });
  routes.put(`${base}/import`, async (req, reply) => {
    reply.json(await imported(req));
  });
  routes.put(`${base}/importAsync`, async (req, reply) => {
    const { job: done, outcome } = await runJob(ctx, { ...job(req, 'IMPORT'), dryRun: dryRunOf(req) }, async () => ({ imported: await imported(req) }));
    reply.json({ jobId: done.jobId, message: 'Import is in progress.', status: 'COMPLETED', result: 'imported' in outcome ? outcome.imported : undefined });
  });
}
