/**
 * A dispatcher (src/http/dispatcher.ts) on Node's HTTP: a handler of node:http's `(req, res)` that
 * reads the body with body-parser (the reader behind express.raw: any media type, the size limit
 * as a 413, a compressed body inflated), dispatches, and writes the plain response with Node's
 * `writeHead` and `end`. body-parser is imported by the first request with a body: with what it
 * loads (http-errors, iconv-lite, mime-db) it costs a start more than a GET needs (bench: cold
 * start). It uses nothing of express, so the same handler serves the server's front door
 * (src/app/app.ts `listener`) and runs as a stage of the express app.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from '../http/dispatcher.ts';
import type { HeaderMap, PlainResponse } from '../http/exchange.ts';
import { urlOf } from './request-path.ts';

/** A request as express hands it on: `originalUrl` is the URL before a router cut its mount path. */
type Request = IncomingMessage & { originalUrl?: string; body?: unknown };
export type Listener = (req: IncomingMessage, res: ServerResponse) => void;
/** A stage with express's signature that needs nothing of express (the cors package, the request log). */
export type Stage = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The plain response on Node's `res`, its length stated (Node would leave it out of an answer to HEAD). */
export function send(res: ServerResponse, answer: PlainResponse): void {
  const { status, headers, body } = answer;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(body);
}

/** The scheme and host the client reached: the base of the `href`s in the answer. */
const originOf = (req: IncomingMessage): string => `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${req.headers.host ?? '127.0.0.1'}`;

/** Whether a request has a body, as body-parser (type-is) decides it: a transfer coding, or a length. */
const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));

/** Reads the body, then answers with `dispatch`; an error met on the way (a body too large, a broken connection) in the error shape. */
export function handlerOf(dispatch: Dispatcher, bodyLimit: string | number): Listener {
  let reader: Promise<Stage> | undefined;
  const read = () => (reader ??= import('body-parser').then(({ default: bodyParser }) => bodyParser.raw({ type: () => true, limit: bodyLimit }) as Stage));
  return (req: Request, res) => {
    const fail = (error: unknown) => send(res, dispatch.fail(error, { method: req.method ?? 'GET', url: urlOf(req) }));
    const answer = (error?: unknown) => {
      if (error) return fail(error);
      const body = req.body as Buffer | undefined;
      dispatch({ method: req.method ?? 'GET', url: urlOf(req), origin: originOf(req), headers: req.headers as HeaderMap, body }).then((plain) => send(res, plain), fail);
    };
    if (!hasBody(req)) return answer();
    read().then((stage) => stage(req, res, answer), fail);
  };
}
