/**
 * With `--data`, a write is answered only once its changes are in the journal on disk
 * (src/persistence/data-file.ts): the response's `end` is held until the persister reports the
 * journal fsync'd. Every answer goes through `end` (JSON ones through the `res.json` of
 * src/http/operation-routes.ts), so holding `end` holds all of them without touching the routes.
 * A rejected write (status ≥ 400) changed nothing and is answered at once.
 */
import type { RequestHandler, Response } from 'express';
import type { Persister } from './data-file.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Holds the answers of writes until they are durable; without a persister (no `--data`), passes every request on. */
export function durableWrites(persister: Persister | undefined): RequestHandler {
  if (!persister) return (_req, _res, next) => next();
  return (req, res, next) => {
    if (!WRITE_METHODS.has(req.method)) return next();
    const end = res.end as (...args: unknown[]) => Response;
    res.end = function (this: Response, ...args: unknown[]): Response {
      if (res.statusCode >= 400) return end.apply(res, args);
      persister.whenDurable((error) => {
        if (!error) return void end.apply(res, args);
        // The change is in memory but not on disk: the client must not be told it succeeded.
        if (res.headersSent) return void res.destroy(error);
        const body = JSON.stringify({ code: 500, message: `The change could not be saved to the data file: ${error.message}` });
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Content-Length', Buffer.byteLength(body));
        end.call(res, body);
      });
      return res;
    } as Response['end'];
    next();
  };
}
