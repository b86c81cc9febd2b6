/**
 * The programmatic API of the package root (`import { startServer } from 'catalog-kit'`): start the
 * reference server in-process, sign a token it accepts, run the conformance suite against any
 * target, and call the API through the typed client. docs/programmatic-api.md shows them together.
 * Everything else under src/ and conformance/ is internal and not exported (package.json `exports`).
 *
 * Importing the root loads the token signer and the typed client only: the server (express, the
 * OpenAPI document, the validators) is imported by the first startServer or createApp call, and the
 * conformance suite by the first runConformance call (src/index.test.ts keeps it so).
 */
import type { AppOptions, CatalogApp } from './app/app.ts';
import type { RunningServer, ServerOptions } from './app/server.ts';
import type { ConformanceOptions, ConformanceReport } from '../conformance/run.ts';

export type { AppOptions, CatalogApp, ConformanceOptions, ConformanceReport, RunningServer, ServerOptions };
export type { ProfileName } from './config/profiles.ts';
export { signToken, type Role } from './auth/tokens.ts';
export { TargetError } from '../conformance/probe.ts';
export * from './client/index.ts';

/** The mock on a port (`port: 0` picks a free one): resolves once it listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  return (await import('./app/server.ts')).startServer(options);
}

/** The express app and its dispatcher, without listening. */
export async function createApp(options: AppOptions = {}): Promise<CatalogApp> {
  return (await import('./app/app.ts')).createApp(options);
}

/** The conformance suite against `baseUrl`; resolves to its report (`passed`, `failed`, `rules`, ...). */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  return (await import('../conformance/run.ts')).runConformance(options);
}
