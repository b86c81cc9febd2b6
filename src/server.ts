/** Starting and stopping the reference server on a loopback address. */
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AppOptions, CatalogApp } from './app.ts';
import { createApp } from './app.ts';

export interface ServerOptions extends AppOptions {
  port?: number;
  host?: string;
}

export interface RunningServer extends CatalogApp {
  /** `http://<host>:<port>/api` */
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

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

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const catalog = await createApp(options);
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 8585;
  // Not `app.listen(port, host, callback)`: express 5 calls that callback on an error as well, so
  // a busy port used to look like success (the banner printed, then nothing kept the process
  // alive). Here only 'listening' resolves and an 'error' rejects.
  const server = createServer(catalog.app);
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
  return {
    ...catalog,
    server,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
