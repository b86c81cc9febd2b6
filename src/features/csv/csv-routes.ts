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
import type { CsvHook } from '../../core/csv-hook.ts';
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
  routes.get(`${base}/exportAsync`, (req, reply) => {
    const data = exported(req);
    reply.status(202).json({ jobId: ctx.newId(), message: 'Export initiated successfully.', status: 'COMPLETED', data });
  });
  routes.put(`${base}/import`, async (req, reply) => {
    reply.json(await imported(req));
  });
  routes.put(`${base}/importAsync`, async (req, reply) => {
    const result = await imported(req);
    reply.json({ jobId: ctx.newId(), message: 'Import is in progress.', status: 'COMPLETED', result });
  });
}
