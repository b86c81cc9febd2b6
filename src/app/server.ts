/** Starting and stopping the reference server on a loopback address. */
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../http/errors.ts';
import type { AppOptions, CatalogApp, CatalogHandler } from './app.ts';
import { createApp, createHandler } from './app.ts';

export interface ServerOptions extends AppOptions {
  port?: number;
  host?: string;
  /** Socket timeouts and header limits; each one left out takes its value from SERVER_LIMIT_DEFAULTS. */
  limits?: Partial<ServerLimits>;
}

/** What keeps a slow or idle client from holding a connection (docs/limits.md). All in milliseconds except maxHeaderSize (bytes). */
export interface ServerLimits {
  /** Time to receive a request's headers, from its first byte (408 and close after). */
  headersTimeout: number;
  /** Time to receive a whole request, headers and body (408 and close after). */
  requestTimeout: number;
  /** How long a keep-alive connection may stay idle between two requests. */
  keepAliveTimeout: number;
  /** How often node checks the two request timeouts above: a timeout fires up to this much late. */
  connectionsCheckingInterval: number;
  /** The largest header block accepted (431 beyond). */
  maxHeaderSize: number;
}

/**
 * Node 20's own values are headersTimeout 60 s, requestTimeout 300 s, keepAliveTimeout 5 s,
 * connectionsCheckingInterval 30 s, maxHeaderSize 16 KiB and no connection cap. Why ours:
 *
 * - headersTimeout 10 s: a real client sends its headers in one write; 60 s (checked only every
 *   30 s, so up to 90 s) let a client dribbling bytes hold a socket and its parser for minutes.
 *   node counts it from the connection too, so it also closes a connection that sends nothing.
 * - requestTimeout 30 s: the largest body is DEFAULT_BODY_LIMIT (src/app/app.ts, 1 MB), which is 30 s
 *   at about 35 KB/s; five minutes per request only served slow uploads this server never needs.
 * - keepAliveTimeout 5 s: node's value, kept. It is above the 4 s after which undici (fetch) drops
 *   an idle connection itself, so a client never reuses a socket the server is just closing.
 * - connectionsCheckingInterval 1 s: so the two timeouts above fire within a second of their
 *   value; the check walks only the connections that are mid-request, a cheap pass.
 * - maxHeaderSize 16 KiB: node's value, stated here so it is visible: a token is well under 2 KiB.
 *   `maxHeadersCount` stays at node's 2000: past it node drops headers silently rather than
 *   refusing the request, and the byte limit already bounds the header block.
 * - No `maxConnections`: at a cap node closes new connections at once, so a thousand idle sockets
 *   would lock out the next real client; the timeouts recycle idle sockets instead, and the bench
 *   (bench/) and the conformance run open many connections.
 */
export const SERVER_LIMIT_DEFAULTS: Readonly<ServerLimits> = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  maxHeaderSize: 16 * 1024,
});

function serverLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...SERVER_LIMIT_DEFAULTS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`server limit ${name} must be a positive integer, got ${value}`);
  }
  // node refuses a headersTimeout above requestTimeout (ERR_OUT_OF_RANGE): say which option.
  if (limits.headersTimeout > limits.requestTimeout) {
    throw new RangeError(`server limit headersTimeout (${limits.headersTimeout} ms) must not exceed requestTimeout (${limits.requestTimeout} ms)`);
  }
  return limits;
}

/** A server listening: its express app built on the first request outside /api (`serveCatalog`). */
export interface ListeningHandler extends CatalogHandler {
  /** `http://<host>:<port>/api` */
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

/** A server listening, its express app built (`startServer`). */
export interface RunningServer extends ListeningHandler, CatalogApp {}

/** The server could not listen (port in use, no permission, unknown host): `code` says which. */
export class ListenError extends Error {
  constructor(
    readonly code: string,
    readonly port: number,
    readonly host: string,
    options: ErrorOptions,
  ) {
    super(listenProblem(code, port, host, options.cause), options);
    this.name = 'ListenError';
  }
}

function listenProblem(code: string, port: number, host: string, cause: unknown): string {
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (EADDRINUSE)`;
    case 'EACCES':
      return `no permission to listen on port ${port} on ${host} (EACCES)`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine (EADDRNOTAVAIL)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host name ${host} (${code})`;
    default:
      return `cannot listen on ${host} port ${port}: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
}

/**
 * A request Node's HTTP parser refuses (a control character in a header, a header block over
 * `maxHeaderSize`, a request slower than the timeouts) is answered with the same error body as
 * any other, then the connection is closed: the parser cannot tell where the next request starts.
 */
function refuseUnparsable(catalog: CatalogHandler): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are larger than the server accepts']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request did not arrive in time']
          : [400, 'Bad Request', `The request could not be parsed as HTTP: ${error.message}`];
    const answer = catalog.dispatch.fail(new ApiError(status, message), { method: '-', url: '-' });
    const body = answer.body ?? '';
    const headers = Object.entries({ ...answer.headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
  };
}

/** The mock on a port, with its express app (`app`) built. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const limits = serverLimits(options.limits);
  return (await listen(await createApp(options), options, limits)) as RunningServer;
}

/**
 * The mock on a port, its express app built by the first request outside /api: what `catalog-kit
 * serve` runs, whose first answer is an API call (bench: cold start).
 */
export async function serveCatalog(options: ServerOptions = {}): Promise<ListeningHandler> {
  const limits = serverLimits(options.limits);
  return listen(await createHandler(options), options, limits);
}

async function listen(catalog: CatalogHandler, options: ServerOptions, limits: ServerLimits): Promise<ListeningHandler> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 8585;
  // Not `app.listen(port, host, callback)`: express 5 calls that callback on an error as well, so
  // a busy port used to look like success (the banner printed, then nothing kept the process
  // alive). Here only 'listening' resolves and an 'error' rejects.
  // The limits go to createServer: connectionsCheckingInterval cannot be changed afterwards.
  const server = createServer(
    {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      connectionsCheckingInterval: limits.connectionsCheckingInterval,
      maxHeaderSize: limits.maxHeaderSize,
    },
    catalog.listener,
  );
  server.on('clientError', refuseUnparsable(catalog));
  await new Promise<void>((resolve, reject) => {
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(new ListenError(error.code ?? 'UNKNOWN', requestedPort, host, { cause: error }));
    };
    server.once('listening', onListening);
    server.once('error', onError);
    server.listen(requestedPort, host);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : requestedPort;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api`;
  catalog.webhooks.baseUrl = baseUrl;
  const close = () => {
    catalog.webhooks.stop();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  // The app's properties as they are, getters included: a spread (`{ ...catalog }`) would read
  // `document`, which parses the whole OpenAPI document at start (≈ 20 ms of the cold start)
  // instead of on the first request that needs it (src/openapi/document.ts).
  return Object.defineProperties({ server, baseUrl, close }, Object.getOwnPropertyDescriptors(catalog)) as ListeningHandler;
}
