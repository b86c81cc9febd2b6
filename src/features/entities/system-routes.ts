/**
 * The two calls a web UI makes at start-up (docs/behaviour.md "System", "Authentication"):
 * `GET /v1/system/version` (OpenMetadata's `CatalogVersion`) and `GET /v1/users/loggedInUser`.
 * Mounted before the generic routes, so `loggedInUser` is not taken for a user id.
 */
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { CatalogContext } from '../../core/context.ts';
import { parseFields } from '../../core/projection.ts';
import { identityOf } from '../../http/exchange.ts';
import { findById, queryInclude, queryValue, renderFor } from '../../http/request-helpers.ts';
import { VERSION } from '../../config/version.ts';

/** Read once at load: stands in for the build time OpenMetadata reports (the server start). */
const STARTED_AT = Date.now();

export function mountSystemRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const users = ctx.kinds.principal;
  router.get('/api/v1/system/version', (_req, reply) => {
    reply.json({ version: VERSION, revision: 'catalog-kit', timestamp: STARTED_AT });
  });

  // What the web UI reads at start-up (docs/behaviour.md "System"): catalog-kit verifies bearer JWTs
  // itself and reads the roles from them.
  router.get('/api/v1/system/config/auth', (_req, reply) => {
    reply.json({
      provider: 'basic',
      providerName: 'catalog-kit',
      publicKeyUrls: [],
      authority: '',
      clientId: '',
      callbackUrl: '',
      jwtPrincipalClaims: ['sub', 'email', 'preferred_username'],
      enableSelfSignup: false,
    });
  });
  router.get('/api/v1/system/config/authorizer', (_req, reply) => {
    reply.json({
      className: 'catalog-kit',
      containerRequestFilter: 'catalog-kit',
      adminPrincipals: [],
      principalDomain: '',
      enforcePrincipalDomain: false,
      enableSecureSocketConnection: false,
      useRolesFromProvider: true,
    });
  });
  router.get('/api/v1/system/status', (_req, reply) => {
    const pass = (description: string) => ({ description, passed: true });
    reply.json({
      database: pass('The store is in the server process.'),
      searchInstance: pass('The search index is built from the store in the server process.'),
      pipelineServiceClient: { description: 'No pipeline service client: catalog-kit runs no ingestion pipelines.', passed: true, message: 'not configured' },
      jwks: pass('Tokens are verified with the key the server was started with.'),
      migrations: { description: 'No migrations: the state is the current shape.', passed: true, message: 'none to run' },
    });
  });

  router.get('/api/v1/users/loggedInUser', (req, reply) => {
    // authenticate() created the user of the token on first use; a soft-deleted one is 404 unless included.
    const stored = findById(ctx, users, identityOf(req).userId, queryInclude(req));
    reply.json(renderFor(ctx, users, req, stored, parseFields(ctx, users, queryValue(req, 'fields'))));
  });
}
