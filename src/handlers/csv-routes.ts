/**
 * The CSV routes of every kind with a `csv` hook (src/csv/hook.ts; docs/behaviour.md "CSV import
 * and export"): `GET /name/{fqn}/export` (text/plain), `PUT /name/{fqn}/import?dryRun=`
 * (text/plain in, a CsvImportResult out), and their asynchronous forms, which OpenMetadata answers
 * with a job id and completes on its websocket: this server has none, so it does the work at once
 * and puts what the websocket message would carry in the answer (`status`, `data` or `result`).
 * The document decides which kinds have them (openapi/paths/csv.yaml).
 */
import type { Request, Response } from 'express';
import type { CatalogContext, Kind } from '../domain/context.ts';
import { CatalogError } from '../domain/errors.ts';
import { exportCsv, importCsv } from '../csv/engine.ts';
import type { CsvHook } from '../csv/hook.ts';
import { identityOf } from '../http/authenticate.ts';
import type { OperationRoutes } from '../http/operation-routes.ts';
import { pathParam, queryValue } from './request-helpers.ts';

/** `dryRun` defaults to true, as OpenMetadata's (the request validator has coerced it to a boolean). */
const dryRunOf = (req: Request): boolean => queryValue(req, 'dryRun') !== false;

/** OpenMetadata's `recursive` export and import (every level in one file) is not served. */
function refuseRecursive(req: Request): void {
  if (queryValue(req, 'recursive') === true) {
    throw CatalogError.badRequest('recursive=true is not served: export and import one level at a time (docs/behaviour.md "CSV import and export")');
  }
}

export function mountCsvRoutes(routes: OperationRoutes, ctx: CatalogContext): void {
  for (const kind of ctx.kinds.all) if (kind.csv) mountKind(routes, ctx, kind, kind.csv);
}

function mountKind(routes: OperationRoutes, ctx: CatalogContext, kind: Kind, hook: CsvHook): void {
  const base = `/api/v1/${kind.collection}/name/:fqn`;
  const call = (req: Request) => ({ ctx, kind, name: pathParam(req, 'fqn') });
  const exported = (req: Request): string => {
    refuseRecursive(req);
    return exportCsv(hook, call(req));
  };
  const imported = (req: Request, res: Response) => {
    refuseRecursive(req);
    return importCsv(hook, call(req), String(req.body ?? ''), { dryRun: dryRunOf(req), user: identityOf(res).user });
  };

  routes.get(`${base}/export`, (req, res) => {
    const csv = exported(req);
    res.type('text/plain').send(csv);
  });
  routes.get(`${base}/exportAsync`, (req, res) => {
    const data = exported(req);
    res.status(202).json({ jobId: ctx.newId(), message: 'Export initiated successfully.', status: 'COMPLETED', data });
  });
  routes.put(`${base}/import`, async (req, res) => {
    res.json(await imported(req, res));
  });
  routes.put(`${base}/importAsync`, async (req, res) => {
    const result = await imported(req, res);
    res.json({ jobId: ctx.newId(), message: 'Import is in progress.', status: 'COMPLETED', result });
  });
}
