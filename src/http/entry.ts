/**
 * How a request enters the app when the app is the server's own handler (`http.createServer(app)`,
 * `app.listen`, supertest): what express's `app.handle` does first (the request and response get
 * express's prototypes, `req.res`/`res.req`, `res.locals`), then the pipeline and the error
 * renderer called directly. Express's router would reach the same two functions, but only after
 * parsing the URL, matching a layer, and keeping its own state per request. With the direct
 * reading of JSON bodies (src/http/body-parsing.ts), this took a create from 452 to 400 µs of CPU
 * (docs/performance.md "What changed in phase 6").
 *
 * An app mounted in another express app (`parent.use(catalog.app)`) is called with the parent's
 * `next` and a rewritten `req.url`: that call goes through express's own `handle`, unchanged, so
 * the pipeline must also be installed with `app.use` as usual.
 */
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.ts';

/**
 * Request and response classes for `http.createServer` (src/server.ts) whose objects are express's
 * from the start. Express gives each request and response its own prototypes with
 * `Object.setPrototypeOf`, and V8 answers a change of prototype by leaving every later property
 * access on the object (Node's own HTTP code's included) on a slow path: measured, that was more
 * than half the CPU of a GET by id (docs/performance.md "What changed in phase 6"). The app's
 * `handle` below changes no prototype for objects made from these.
 */
export function requestClasses(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  class AppRequest extends IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  class AppResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}

const isPrototypeOf = Object.prototype.isPrototypeOf;

/** The answer when the error renderer itself fails: the error shape's two fields every profile has. */
const RENDERER_FAILED = JSON.stringify({ code: 500, message: 'Internal server error: the error could not be rendered' });

type Handle = (req: Request, res: Response, callback?: NextFunction) => void;

export function enterDirectly(app: Express, pipeline: RequestHandler, renderError: ErrorRequestHandler): void {
  const viaRouter = (app as unknown as { handle: Handle }).handle;
  const request = app.request;
  const response = app.response;
  const handle: Handle = function handle(this: Express, req, res, callback) {
    if (callback) return viaRouter.call(this, req, res, callback);
    req.res = res;
    res.req = req;
    // Made by requestClasses' classes, they are express's already; otherwise (`app.listen`, supertest) made so here.
    if (!isPrototypeOf.call(request, req)) Object.setPrototypeOf(req, request);
    if (!isPrototypeOf.call(response, res)) Object.setPrototypeOf(res, response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    const done = (error?: unknown): void => {
      // The pipeline ends in a 404/405 of its own; a `next()` past it is still an answer, not a hang.
      const failure =
        error === undefined || error === null || error === 'route' || error === 'router'
          ? new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${req.path}`)
          : error;
      try {
        renderError(failure, req, res, abandon);
      } catch {
        abandon();
      }
    };
    // The renderer could not answer: an answer already begun cannot become an error body, so its
    // connection is closed (as express's final handler does); otherwise the renderer itself failed
    // (a bug), and the client still gets a 500 in the error shape, written here without it.
    const abandon = (): void => {
      if (res.headersSent) req.socket.destroy();
      else {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(RENDERER_FAILED);
      }
    };
    req.next = done;
    try {
      pipeline(req, res, done);
    } catch (thrown) {
      done(thrown);
    }
  };
  (app as unknown as { handle: Handle }).handle = handle;
}
