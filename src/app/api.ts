/**
 * The catalog's API without a transport, as both hosts build it: the express app (src/app/app.ts)
 * and the catalog in process (src/app/in-process/catalog.ts). In order: the context (an empty
 * store, the followers' feed kept from its change events), then, once the host has loaded its start
 * state, the webhook sender (so the start state's events are not delivered) and the routes of every
 * documented operation, and the dispatcher that serves them: authentication → request validation
 * → `Prefer: code=` → authorisation → handler (a write inside the store's `atomically`) → response
 * validation → the one error renderer.
 */
import type { AuthOptions } from '../auth/tokens.ts';
import { createVerifier } from '../auth/tokens.ts';
import type { Profile, ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import type { CatalogContext } from '../core/context.ts';
import { createCatalogContext } from '../core/context.ts';
import { mountCsvRoutes } from '../features/csv/csv-routes.ts';
import { mountDataContractRequestRoutes } from '../features/data-contracts/data-contract-request-routes.ts';
import { mountDataContractRoutes } from '../features/data-contracts/data-contract-routes.ts';
import { mountOdcsRoutes } from '../features/data-contracts/odcs-routes.ts';
import { mountDataQualityRoutes } from '../features/data-quality/data-quality-routes.ts';
import { mountTestCaseResultRoutes } from '../features/data-quality/test-case-result-routes.ts';
import { keepActivity } from '../features/activity/activity.ts';
import { mountActivityRoutes } from '../features/activity/activity-routes.ts';
import { mountConversationRoutes } from '../features/conversations/conversation-routes.ts';
import { mountAsyncDeleteRoutes } from '../features/entities/async-delete-routes.ts';
import { mountConnectorRoutes } from '../features/entities/connector-routes.ts';
import { mountEntityRoutes } from '../features/entities/entity-routes.ts';
import { mountSocialRoutes } from '../features/entities/social-routes.ts';
import { mountSystemRoutes } from '../features/entities/system-routes.ts';
import { mountTagAssetRoutes } from '../features/entities/tag-asset-routes.ts';
import { mountTeamMemberRoutes } from '../features/entities/team-member-routes.ts';
import { mountUserTokenRoutes } from '../features/entities/user-token-routes.ts';
import { mountEventRoutes } from '../features/events/event-routes.ts';
import { keepFollowersFeed } from '../features/events/feed.ts';
import { mountFeedRoutes } from '../features/events/feed-routes.ts';
import type { WebhookOptions } from '../features/events/webhooks.ts';
import { WebhookSender } from '../features/events/webhooks.ts';
import { mountLineageRoutes } from '../features/lineage/lineage-routes.ts';
import { mountMetadataTypeRoutes } from '../features/metadata-types/metadata-type-routes.ts';
import { mountPipelineStatusRoutes } from '../features/pipeline-status/pipeline-status-routes.ts';
import { mountSearchRoutes } from '../features/search/search-routes.ts';
import { mountAssetSampleDataRoutes } from '../features/table-data/asset-sample-data-routes.ts';
import { mountProfilerConfigRoutes } from '../features/table-data/profiler-config-routes.ts';
import { mountTableColumnRoutes } from '../features/table-data/table-column-routes.ts';
import { mountTableDataRoutes } from '../features/table-data/table-data-routes.ts';
import { mountTaskRoutes } from '../features/tasks/task-routes.ts';
import { authenticate } from '../http/authenticate.ts';
import { authorize } from '../http/authorize.ts';
import type { Dispatcher, DispatcherOptions } from '../http/dispatcher.ts';
import { createDispatcher } from '../http/dispatcher.ts';
import type { OperationRoutes } from '../http/operation-routes.ts';
import { operationRoutes } from '../http/operation-routes.ts';
import { preferCode } from '../http/prefer-code.ts';
import type { ErrorRenderer } from '../http/render-error.ts';
import { errorRenderer } from '../http/render-error.ts';
import { KINDS } from '../kinds/index.ts';
import { kindRegistry } from '../kinds/registry.ts';
import { userIds } from '../kinds/user.ts';
import type { CompiledValidators } from '../openapi/compiled.ts';
import { operationsOf } from '../openapi/compiled.ts';
import type { DocumentSource } from '../openapi/document.ts';
import { readDocument } from '../openapi/document.ts';
import { createSchemaValidators } from '../openapi/schema-validators.ts';

export interface ApiOptions {
  profile?: ProfileName;
  /** The largest request body, in bytes: no write may make a stored document larger (docs/behaviour.md "Limits of one request"). */
  documentBytes?: number;
  auth?: AuthOptions;
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

/** A new catalog's context and what its API is made from. */
export interface Catalog {
  ctx: CatalogContext;
  profile: Profile;
  compiled: CompiledValidators;
  document: DocumentSource;
  renderError: ErrorRenderer;
}

/** A catalog with an empty store: the host loads its start state next. */
export function createCatalogOf(compiled: CompiledValidators, options: ApiOptions): Catalog {
  const profile = profileByName(options.profile ?? 'contract');
  const document: DocumentSource = () => readDocument(profile);
  const ctx = createCatalogContext({
    profile,
    validators: createSchemaValidators(document, compiled, profile.name),
    kinds: kindRegistry(KINDS),
    now: options.now,
    newId: options.newId,
    maxEvents: options.maxEvents,
    limits: { documentBytes: options.documentBytes, webhookHosts: options.webhooks?.allowHosts },
  });
  keepFollowersFeed(ctx);
  keepActivity(ctx);
  const log = options.log ?? ((line: string) => console.error(line));
  return { ctx, profile, compiled, document, renderError: errorRenderer(profile, log) };
}

export interface Api {
  routes: OperationRoutes;
  /** Delivers change events in the background: stop it when done. */
  webhooks: WebhookSender;
  dispatch: Dispatcher;
}

/** The API of a catalog whose start state is loaded: its webhook sender, its routes and its dispatcher. */
export function createApi(catalog: Catalog, options: ApiOptions & Pick<DispatcherOptions, 'intercept' | 'durable' | 'jsonValues'>): Api {
  const { ctx, compiled, document } = catalog;
  const webhooks = new WebhookSender(ctx, options.webhooks);
  const routes = operationRoutes({ prefix: '/api', operations: operationsOf(compiled.tables.api, catalog.profile.name), compiled });
  // Routes specific to a path go before the generic `/:id` ones (`/dataContracts/entity`...).
  mountSystemRoutes(routes, ctx);
  mountUserTokenRoutes(routes, ctx, options.auth ?? {});
  mountLineageRoutes(routes, ctx);
  mountMetadataTypeRoutes(routes, ctx, document);
  mountSearchRoutes(routes, ctx);
  mountTableDataRoutes(routes, ctx);
  mountTableColumnRoutes(routes, ctx);
  mountProfilerConfigRoutes(routes, ctx);
  mountAssetSampleDataRoutes(routes, ctx);
  mountAsyncDeleteRoutes(routes, ctx);
  mountConnectorRoutes(routes, ctx);
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
  mountTaskRoutes(routes, ctx);
  mountActivityRoutes(routes, ctx);
  mountConversationRoutes(routes, ctx);
  for (const kind of ctx.kinds.all) {
    mountSocialRoutes(routes, ctx, kind);
    mountEntityRoutes(routes, ctx, kind);
  }
  const dispatch = createDispatcher({
    routes,
    renderError: catalog.renderError,
    intercept: options.intercept,
    authenticate: authenticate(createVerifier(options.auth), userIds(ctx)),
    stages: [preferCode, authorize],
    validateResponses: options.validateResponses ?? true,
    // A write that throws — refused, or answered with what fails response validation — changes nothing.
    atomic: (write) => ctx.store.atomically(write),
    durable: options.durable,
    jsonValues: options.jsonValues,
  });
  return { routes, webhooks, dispatch };
}
