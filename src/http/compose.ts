/**
 * Middlewares run as one. Express matches every layer of a router against the path and, for a
 * layer mounted under a prefix, rewrites `req.url` around it; the pipeline in front of the routes
 * runs on every request, so it is one composed function instead of a dozen router layers.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function compose(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0]!;
  return (req, res, done) => {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null && error !== 'route' && error !== 'router') return done(error);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        // An async middleware's rejection is an error too, as express 5 treats it.
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}

/** Whether `path` is `prefix` or below it, compared as express does (case-insensitively). */
export function isUnder(path: string, prefix: string): boolean {
  if (path.length < prefix.length) return false;
  const head = path.slice(0, prefix.length).toLowerCase();
  return head === prefix && (path.length === prefix.length || path[prefix.length] === '/');
}

/** `handler` for requests under `prefix` only; the path is left as it is (handlers here read `originalUrl`). */
export function under(prefix: string, handler: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => (isUnder(req.path, prefix) ? handler(req, res, next) : next());
}

/** Whether a request carries a body at all (RFC 9110: a length, or a transfer coding). */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}
