/** Starting and stopping the reference server on a loopback address. */
import type { Server } from 'node:http';
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

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const catalog = await createApp(options);
  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<Server>((resolve, reject) => {
    const s = catalog.app.listen(options.port ?? 8585, host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    ...catalog,
    server,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
