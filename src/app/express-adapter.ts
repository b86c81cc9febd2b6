/**
 * The express side of the dispatcher (src/http/dispatcher.ts): a route that reads the body with
 * express's own reader (`express.raw`: any media type, the size limit as a 413, a compressed body
 * inflated) and answers with the dispatcher's plain response through express's `res`. The only
 * place the app (src/app/app.ts) calls the dispatcher from.
 */
import express from 'express';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Dispatcher } from '../http/dispatcher.ts';
import type { HeaderMap, PlainResponse } from '../http/exchange.ts';

export function send(res: Response, answer: PlainResponse): void {
  res.status(answer.status).set(answer.headers);
  if (answer.body === undefined) res.end();
  else res.send(answer.body);
}

/** The scheme and host the client reached: the base of the `href`s in the answer. */
const originOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;

/** Reads the body, then answers with `dispatcher`. */
export function dispatchTo(dispatch: Dispatcher, bodyLimit: string | number): RequestHandler[] {
  const read = express.raw({ type: () => true, limit: bodyLimit });
  const answer: RequestHandler = (req, res, next) => {
    const body = req.body as Buffer | undefined;
    dispatch({ method: req.method, url: req.originalUrl, origin: originOf(req), headers: req.headers as HeaderMap, body }).then((plain) => send(res, plain), next);
  };
  return [read, answer];
}

/** An error met on the way to the dispatcher (a body too large, a connection that broke), in the error shape. */
export function renderErrors(dispatcher: Dispatcher): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    send(res, dispatcher.fail(error, { method: req.method, url: req.originalUrl }));
  };
}
