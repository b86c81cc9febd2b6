/**
 * The express app factory. `createApp` builds the catalog context and the start-up state, then
 * names the request pipeline, in order, one stage per line: CORS → request log → durable writes →
 * docs → body parsing → Admin API → injected latency and errors → authentication → the route of a
 * documented operation (request validation → `Prefer: code=` → authorisation → handler → response
 * validation) → error rendering. Request AND response validation are on by default, so the server
 * cannot drift from the document without failing loudly; the validators were compiled from the
 * document at build time (src/openapi/compiled.ts).
 */
import type { ServerOptions } from 'node:http';
import bytes from 'bytes';
import express from 'express';
import type { Express } from 'express';
import type { ProfileName } from './config/profiles.ts';
import { profileByName } from './config/profiles.ts';
import type { AuthOptions } from './auth/tokens.ts';
import { createVerifier } from './auth/tokens.ts';
import type { CatalogContext } from './domain/context.ts';
import { createCatalogContext } from './domain/context.ts';
import { mountCsvRoutes } from './handlers/csv-routes.ts';
import { mountDataContractRoutes } from './handlers/data-contract-routes.ts';
import { mountDataQualityRoutes } from './handlers/data-quality-routes.ts';
import { mountDataContractRequestRoutes } from './handlers/data-contract-request-routes.ts';
import { mountOdcsRoutes } from './handlers/odcs-routes.ts';
import { mountEntityRoutes } from './handlers/entity-routes.ts';
import { mountSearchRoutes } from './handlers/search-routes.ts';
import { mountEventRoutes } from './handlers/event-routes.ts';
import { mountFeedRoutes } from './handlers/feed-routes.ts';
import type { WebhookOptions } from './events/webhooks.ts';
import { WebhookSender } from './events/webhooks.ts';
import { mountSocialRoutes } from './handlers/social-routes.ts';
import { mountTableDataRoutes } from './handlers/table-data-routes.ts';
import { mountTableColumnRoutes } from './handlers/table-column-routes.ts';
import { mountProfilerConfigRoutes } from './handlers/profiler-config-routes.ts';
import { mountAssetSampleDataRoutes } from './handlers/asset-sample-data-routes.ts';
import { mountAsyncDeleteRoutes } from './handlers/async-delete-routes.ts';
import { mountPipelineStatusRoutes } from './handlers/pipeline-status-routes.ts';
import { mountTagAssetRoutes } from './handlers/tag-asset-routes.ts';
import { mountTeamMemberRoutes } from './handlers/team-member-routes.ts';
import { mountTestCaseResultRoutes } from './handlers/test-case-result-routes.ts';
import type { DevTools, DevToolsOptions } from './admin/dev-tools.ts';
import { adminApi, docsPages, injectedFaults, setupDevTools } from './admin/dev-tools.ts';
import { preferCode } from './admin/prefer-code.ts';
import { mountSystemRoutes } from './handlers/system-routes.ts';
import { mountLineageRoutes } from './handlers/lineage-routes.ts';
import { mountMetadataTypeRoutes } from './handlers/metadata-type-routes.ts';
import { authenticate } from './http/authenticate.ts';
import { authorize } from './http/authorize.ts';
import { bodyParsing } from './http/body-parsing.ts';
import { compose, under } from './http/compose.ts';
import { cors } from './http/cors.ts';
import { enterDirectly, requestClasses } from './http/entry.ts';
import { requestLog } from './http/request-log.ts';
import { jsonResponses, operationRoutes, unmatchedRoute } from './http/operation-routes.ts';
import { errorRenderer } from './http/render-error.ts';
import { compiledValidators, operationsOf } from './openapi/compiled.ts';
import type { OperationEntry } from './openapi/compiled.ts';
import { readDocument } from './openapi/document.ts';
import type { OpenApiDocument } from './openapi/document.ts';
import { createSchemaValidators } from './openapi/schema-validators.ts';
import { durableWrites } from './persistence/durable-writes.ts';
import { KINDS } from './kinds/index.ts';
import { kindRegistry } from './kinds/registry.ts';
import { userIds } from './kinds/user.ts';

export interface AppOptions extends DevToolsOptions {
  profile?: ProfileName;
  auth?: AuthOptions;
  /** Largest accepted request body (express body-parser syntax). */
  bodyLimit?: string;
  /** Validate responses against the document (default true). */
  validateResponses?: boolean;
  /** Change events (and feed notifications) kept, the oldest dropped first (default 10,000; docs/behaviour.md "Events"). */
  maxEvents?: number;
  /** Webhook delivery: retry delay and queue bound (docs/behaviour.md "Webhooks"). */
  webhooks?: WebhookOptions;
  log?: (line: string) => void;
  now?: () => number;
  newId?: () => string;
}

export interface CatalogApp {
  app: Express;
  ctx: CatalogContext;
  document: OpenApiDocument;
  /** What the Admin API and the data file share: injection settings, journal, persistence, reset. */
  dev: DevTools;
  /** The webhook sender: delivers change events in the background (stop it when done). */
  webhooks: WebhookSender;
  /**
   * Options for `http.createServer(serverOptions, app)` (merge your own in): request and response
   * classes that are express's from the start, so that no request changes an object's prototype,
   * which V8 answers with slow property access for the whole request (src/http/entry.ts). The app
   * answers the same without them; `startServer` uses them.
   */
  serverOptions: Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
  /** Operations of the document that no route serves (a test keeps this empty). */
  unroutedOperations(): OperationEntry[];
}

const DEFAULT_BODY_LIMIT = '1mb';

export async function createApp(options: AppOptions = {}): Promise<CatalogApp> {
  const profile = profileByName(options.profile ?? 'contract');
  const document = () => readDocument(profile);
  const compiled = compiledValidators();
  const operations = operationsOf(compiled.tables.api, profile.name);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const ctx = createCatalogContext({
    profile,
    validators: createSchemaValidators(document, compiled, profile.name),
    kinds: kindRegistry(KINDS),
    now: options.now,
    newId: options.newId,
    maxEvents: options.maxEvents,
    limits: { documentBytes: bytes.parse(options.bodyLimit ?? DEFAULT_BODY_LIMIT) ?? undefined, webhookHosts: options.webhooks?.allowHosts },
  });
  const dev = setupDevTools(ctx, options, log);
  // After the start-up state is loaded: its fixtures' events are not delivered.
  const webhooks = new WebhookSender(ctx, options.webhooks);
  const verifier = createVerifier(options.auth);
  const routes = operationRoutes({
    prefix: '/api',
    operations,
    compiled,
    // Each route runs: request validation → these stages → its handler → response validation.
    stages: [preferCode(), authorize()],
    validateResponses: options.validateResponses ?? true,
    // A write that throws — refused, or answered with what fails response validation — changes nothing.
    atomic: (write) => ctx.store.atomically(write),
  });
  // Routes specific to a path go before the generic `/:id` ones (`/dataContracts/entity`...).
  mountSystemRoutes(routes, ctx);
  mountLineageRoutes(routes, ctx);
  mountMetadataTypeRoutes(routes, ctx, document);
  mountSearchRoutes(routes, ctx);
  mountTableDataRoutes(routes, ctx);
  mountTableColumnRoutes(routes, ctx);
  mountProfilerConfigRoutes(routes, ctx);
  mountAssetSampleDataRoutes(routes, ctx);
  mountAsyncDeleteRoutes(routes, ctx);
  mountPipelineStatusRoutes(routes, ctx);
  mountTagAssetRoutes(routes, ctx);
  mountTeamMemberRoutes(routes, ctx);
  mountDataContractRoutes(routes, ctx);
  mountTestCaseResultRoutes(routes, ctx);
  mountDataQualityRoutes(routes, ctx);
  mountDataContractRequestRoutes(routes, ctx);
  mountOdcsRoutes(routes, ctx);
  mountCsvRoutes(routes, ctx);
  mountEventRoutes(routes, ctx, webhooks);
  mountFeedRoutes(routes, ctx);
  for (const kind of ctx.kinds.all) {
    mountSocialRoutes(routes, ctx, kind);
    mountEntityRoutes(routes, ctx, kind);
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  // The pipeline, in order: everything up to the handler runs as one function.
  const pipeline = compose([
    cors(options.corsOrigins ? { origins: options.corsOrigins } : {}), // CORS: preflights answered before any token is asked for
    requestLog(options.requestLog ?? 'quiet', log, dev.journal), // request log, and the Admin API's journal
    durableWrites(dev.persister), // with --data: a write is answered once it is on disk
    docsPages(document), // /docs, /openapi.json, /__admin/openapi.json
    bodyParsing(options.bodyLimit ?? DEFAULT_BODY_LIMIT), // JSON and text bodies: size and nesting limits
    adminApi(ctx, dev), // the Admin API under /__admin (no token)
    injectedFaults(dev), // latency and errors injected by the Admin API's rules
    under('/api', authenticate(verifier, userIds(ctx))), // authentication: the bearer token
    routes.dispatch, // the route: request validation → Prefer: code → authorisation → handler → response validation
    unmatchedRoute('/api', operations), // 404 or 405 for what no route serves
  ]);
  const renderError = errorRenderer(profile, log); // error rendering: every failure in the error shape
  // As the server's handler, the app calls these two directly; mounted in another app, through express's router.
  app.use(pipeline);
  app.use(renderError);
  enterDirectly(app, pipeline, renderError);
  jsonResponses(app);
  return {
    app,
    ctx,
    get document() {
      return document();
    },
    dev,
    webhooks,
    serverOptions: requestClasses(app),
    unroutedOperations: () => routes.unrouted(),
  };
}
