/**
 * The programmatic API of the package root (`import { startServer } from 'catalog-kit'`): start the
 * reference server in-process, sign a token it accepts, run the conformance suite against any
 * target, and call the API through the typed client. README.md "Programmatic API" shows them
 * together. Everything else under src/ and conformance/ is internal and not exported (package.json
 * `exports`).
 */
export { createApp, type AppOptions, type CatalogApp } from './app/app.ts';
export { startServer, type RunningServer, type ServerOptions } from './app/server.ts';
export type { ProfileName } from './config/profiles.ts';
export { signToken, type Role } from './auth/tokens.ts';
export { runConformance, TargetError, type ConformanceOptions, type ConformanceReport } from '../conformance/run.ts';
export * from './client/index.ts';
