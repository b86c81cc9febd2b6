/**
 * The express app factory: the request pipeline —
 * JSON body (size limit) → authentication → the route of a documented operation: request
 * validation → `Prefer: code=` → authorisation → handler → response validation → one error
 * renderer. Request AND response validation are on by default, so the server cannot drift from the
 * document without failing loudly; the validators were compiled from the document at build time
 * (src/openapi/compiled.ts).
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Express } from 'express';
import type { ProfileName } from './config/profiles.ts';
import { profileByName } from './config/profiles.ts';
import type { AuthOptions } from './auth/tokens.ts';
import { createVerifier } from './auth/tokens.ts';
import type { CatalogContext } from './domain/context.ts';
import { defaultKindRules } from './domain/kind-rules.ts';
import { registerMembershipFields } from './domain/memberships.ts';
import { createEntity } from './domain/lifecycle.ts';
import { mountDataContractRoutes } from './handlers/data-contract-routes.ts';
import { mountEntityRoutes } from './handlers/entity-routes.ts';
import { mountSocialRoutes } from './handlers/social-routes.ts';
import { mountTableDataRoutes } from './handlers/table-data-routes.ts';
import { mountTestCaseResultRoutes } from './handlers/test-case-result-routes.ts';
import type { DevTools, DevToolsOptions } from './admin/dev-tools.ts';
import { setupDevTools } from './admin/dev-tools.ts';
import { mountSystemRoutes } from './handlers/system-routes.ts';
import { authenticate } from './http/authenticate.ts';
import { authorize } from './http/authorize.ts';
import { ApiError } from './http/errors.ts';
import { limitNesting } from './http/body-limits.ts';
import { compose, under, withBody } from './http/compose.ts';
import { mountFaultSwitch } from './http/fault-switch.ts';
import { faultMiddleware, faultPreAuthMiddleware } from './http/faults.ts';
import { jsonResponses, operationRoutes, unmatchedRoute } from './http/operation-routes.ts';
import { errorRenderer } from './http/render-error.ts';
import { compiledValidators, operationsOf } from './openapi/compiled.ts';
import type { OperationEntry } from './openapi/compiled.ts';
import { loadDocument } from './openapi/document.ts';
import type { OpenApiDocument } from './openapi/document.ts';
import { createSchemaValidators } from './openapi/schema-validators.ts';
import { quoteName } from './resources/fqn.ts';
import { RESOURCES, resourceByType } from './resources/resource-table.ts';
import { EntityStore } from './store/entity-store.ts';

export interface AppOptions extends DevToolsOptions {
  profile?: ProfileName;
  auth?: AuthOptions;
  /** Largest accepted request body (express body-parser syntax). */
  bodyLimit?: string;
  /** Validate responses against the document (default true). */
  validateResponses?: boolean;
  /** Test-only: serve `PUT /__admin/faults` and the deliberate faults of the conformance self-test. */
  allowFaults?: boolean;
  log?: (line: string) => void;
  now?: () => number;
  newId?: () => string;
}

export interface CatalogApp {
  app: Express;
  ctx: CatalogContext;
  document: OpenApiDocument;
  /** Admin API state: fault settings, journal, persistence (issue 6). */
  dev: DevTools;
  /** Operations of the document that no route serves (a test keeps this empty). */
  unroutedOperations(): OperationEntry[];
}

export const DEFAULT_BODY_LIMIT = '1mb';

export async function createApp(options: AppOptions = {}): Promise<CatalogApp> {
  const profile = profileByName(options.profile ?? 'contract');
  const document = await loadDocument(profile);
  const compiled = compiledValidators();
  const operations = operationsOf(compiled.tables.api, profile.name);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const ctx: CatalogContext = {
    store: new EntityStore(),
    profile,
    validators: createSchemaValidators(document, compiled, profile.name),
    rules: defaultKindRules(),
    fieldProviders: new Map(),
    now: options.now ?? (() => Date.now()),
    newId: options.newId ?? randomUUID,
  };
  registerMembershipFields(ctx);
  const dev = setupDevTools(ctx, document, options, log);
  const verifier = createVerifier(options.auth);
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  const faults = options.allowFaults ? mountFaultSwitch(app) : undefined;
  const beforeAuthentication = [
    ...dev.beforeBody,
    // Most requests have no body: the parsers and the depth check run only for those that do.
    withBody(compose([express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] }), express.text({ limit, type: 'text/plain' }), limitNesting()])),
    ...dev.afterBody,
  ];
  const authentication = under('/api', authenticate(verifier, userIds(ctx)));
  const routes = operationRoutes({
    prefix: '/api',
    operations,
    compiled,
    validateResponses: options.validateResponses ?? true,
    stages: [dev.afterValidation, authorize()],
  });
  // Routes specific to a path go before the generic `/:id` ones (`/dataContracts/entity`...).
  mountSystemRoutes(routes, ctx);
  mountTableDataRoutes(routes, ctx);
  mountDataContractRoutes(routes, ctx);
  mountTestCaseResultRoutes(routes, ctx);
  for (const def of RESOURCES) {
    mountSocialRoutes(routes, ctx, def);
    mountEntityRoutes(routes, ctx, def);
  }
  const unmatched = unmatchedRoute('/api', operations);
  if (faults) {
    // The self-test's faults rewrite URLs relative to their mount point: mounted as express does.
    app.use(compose(beforeAuthentication));
    app.use('/api', faultPreAuthMiddleware(faults.active));
    app.use(authentication);
    app.use('/api', faultMiddleware(faults.active));
    app.use(routes.dispatch, unmatched);
  } else {
    // One layer in express's own router: everything up to the handler runs as one function.
    app.use(compose([...beforeAuthentication, authentication, routes.dispatch, unmatched]));
  }
  app.use(errorRenderer(profile, log));
  jsonResponses(app);
  return { app, ctx, document, dev, unroutedOperations: () => routes.unrouted() };
}

/**
 * The id of the user a token names, created on first use (README "Authentication, roles and the
 * security model"). Remembered by name for the next requests, and looked up again when the
 * remembered user is gone (a reset, a hard delete).
 */
function userIds(ctx: CatalogContext): (name: string) => string {
  const known = new Map<string, string>();
  return (name) => {
    const id = known.get(name);
    if (id !== undefined && ctx.store.get(id)?.entity.name === name) return id;
    const found = ensureUser(ctx, name);
    if (known.size >= 10_000) known.clear();
    known.set(name, found);
    return found;
  };
}

function ensureUser(ctx: CatalogContext, name: string): string {
  let fqn: string;
  try {
    fqn = quoteName(name);
  } catch {
    throw ApiError.unauthorized(`Not Authorized! Invalid user name ${name}`);
  }
  const existing = ctx.store.getByFqn('user', fqn);
  if (existing) return existing.entity.id;
  const email = `${name.replace(/[^A-Za-z0-9._-]/g, '_')}@catalog-kit.local`;
  return createEntity(ctx, resourceByType('user'), { name, email }, name).entity.id;
}
