/**
 * The express app factory. `createApp` builds the catalog context and the start-up state, the API's
 * routes and its transport-neutral dispatcher (src/http/dispatcher.ts: authentication → request
 * validation → `Prefer: code=` → authorisation → handler → response validation → error rendering),
 * then the express app around it, one stage per line: CORS → request log → docs pages → the Admin
 * API → the API → 404 → errors met on the way. Request AND response validation are on by default,
 * so the server cannot drift from the document without failing loudly; the validators were compiled
 * from the document at build time (src/openapi/compiled.ts).
 */
import express from 'express';
import type { Express } from 'express';
import type { ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import type { AuthOptions } from '../auth/tokens.ts';
import { createVerifier } from '../auth/tokens.ts';
import type { CatalogContext } from '../core/context.ts';
import { createCatalogContext } from '../core/context.ts';
import { mountCsvRoutes } from '../features/csv/csv-routes.ts';
import { mountDataContractRoutes } from '../features/data-contracts/data-contract-routes.ts';
import { mountDataQualityRoutes } from '../features/data-quality/data-quality-routes.ts';
import { mountDataContractRequestRoutes } from '../features/data-contracts/data-contract-request-routes.ts';
import { mountOdcsRoutes } from '../features/data-contracts/odcs-routes.ts';
import { mountEntityRoutes } from '../features/entities/entity-routes.ts';
import { mountSearchRoutes } from '../features/search/search-routes.ts';
import { mountEventRoutes } from '../features/events/event-routes.ts';
import { keepFollowersFeed } from '../features/events/feed.ts';
import { mountFeedRoutes } from '../features/events/feed-routes.ts';
import type { WebhookOptions } from '../features/events/webhooks.ts';
import { WebhookSender } from '../features/events/webhooks.ts';
import { mountSocialRoutes } from '../features/entities/social-routes.ts';
import { mountTableDataRoutes } from '../features/table-data/table-data-routes.ts';
import { mountTableColumnRoutes } from '../features/table-data/table-column-routes.ts';
import { mountProfilerConfigRoutes } from '../features/table-data/profiler-config-routes.ts';
import { mountAssetSampleDataRoutes } from '../features/table-data/asset-sample-data-routes.ts';
import { mountAsyncDeleteRoutes } from '../features/entities/async-delete-routes.ts';
import { mountPipelineStatusRoutes } from '../features/pipeline-status/pipeline-status-routes.ts';
import { mountTagAssetRoutes } from '../features/entities/tag-asset-routes.ts';
import { mountTeamMemberRoutes } from '../features/entities/team-member-routes.ts';
import { mountTestCaseResultRoutes } from '../features/data-quality/test-case-result-routes.ts';
import { adminRoutes, loadAdminDocument } from './admin/admin-routes.ts';
import type { DevTools, DevToolsOptions } from './admin/dev-tools.ts';
import { setupDevTools } from './admin/dev-tools.ts';
import { injectFaults } from './admin/injection.ts';
import { preferCode } from '../http/prefer-code.ts';
import { docsRouter } from './docs/docs-routes.ts';
import { mountSystemRoutes } from '../features/entities/system-routes.ts';
import { mountLineageRoutes } from '../features/lineage/lineage-routes.ts';
import { mountMetadataTypeRoutes } from '../features/metadata-types/metadata-type-routes.ts';
import { authenticate } from '../http/authenticate.ts';
import { authorize } from '../http/authorize.ts';
import { cors } from './cors.ts';
import type { Dispatcher } from '../http/dispatcher.ts';
import { createDispatcher } from '../http/dispatcher.ts';
import { ApiError } from '../http/errors.ts';
import { dispatchTo, renderErrors, send } from './express-adapter.ts';
import { requestLog } from './request-log.ts';
import { operationRoutes } from '../http/operation-routes.ts';
import { errorRenderer } from '../http/render-error.ts';
import { compiledValidators, operationsOf } from '../openapi/compiled.ts';
import type { OperationEntry } from '../openapi/compiled.ts';
import { readDocument } from '../openapi/document.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { createSchemaValidators } from '../openapi/schema-validators.ts';
import type { Persister } from './persistence/data-file.ts';
import { KINDS } from '../kinds/index.ts';
import { kindRegistry } from '../kinds/registry.ts';
import { userIds } from '../kinds/user.ts';

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
  /** The API's dispatcher: a plain request in, a plain response out, no port (src/http/dispatcher.ts). */
  dispatch: Dispatcher;
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
  });
  keepFollowersFeed(ctx);
  const dev = setupDevTools(ctx, options, log);
  // After the start-up state is loaded: its fixtures' events are not delivered.
  const webhooks = new WebhookSender(ctx, options.webhooks);
  const verifier = createVerifier(options.auth);
  const routes = operationRoutes({ prefix: '/api', operations, compiled });
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

  const renderError = errorRenderer(profile, log);
  const durable = dev.persister ? durability(dev.persister) : undefined;
  const api = createDispatcher({
    routes,
    renderError,
    intercept: injectFaults(dev.faults), // latency and errors injected by the Admin API's rules
    authenticate: authenticate(verifier, userIds(ctx)), // the bearer token
    stages: [preferCode, authorize],
    validateResponses: options.validateResponses ?? true,
    // A write that throws — refused, or answered with what fails response validation — changes nothing.
    atomic: (write) => ctx.store.atomically(write),
    durable,
  });
  const admin = createDispatcher({
    routes: adminRoutes({ ctx, faults: dev.faults, journal: dev.journal, reset: dev.reset, changed: () => dev.persister?.schedule() }),
    renderError,
    durable,
  });
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(cors(options.corsOrigins ? { origins: options.corsOrigins } : {})); // CORS: preflights answered before any token is asked for
  app.use(requestLog(options.requestLog ?? 'quiet', log, dev.journal)); // request log, and the Admin API's journal
  app.use(docsRouter(document, loadAdminDocument)); // /docs, /openapi.json, /__admin/openapi.json
  app.use('/__admin', dispatchTo(admin, bodyLimit)); // the Admin API (no token)
  app.use('/api', dispatchTo(api, bodyLimit)); // the API
  app.use((req, res) => send(res, api.fail(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${req.path}`), { method: req.method, url: req.originalUrl })));
  app.use(renderErrors(api)); // a body too large or cut short, in the error shape
  return {
    app,
    ctx,
    get document() {
      return document();
    },
    dev,
    webhooks,
    dispatch: api,
    unroutedOperations: () => routes.unrouted(),
  };
}

/** Resolves once the changes made so far are in the data file (src/app/persistence/data-file.ts). */
function durability(persister: Persister): () => Promise<void> {
  return () => new Promise<void>((resolve, reject) => persister.whenDurable((error) => (error ? reject(error) : resolve())));
}
