/**
 * Tokens of bots and users (docs/behaviour.md "Users and teams"; OpenMetadata's UserResource, the
 * web UI's `ui/rest/userAPI.ts`): a bot's token (generate, revoke, read its authentication
 * mechanism) and the token user's personal access tokens. Each is a JWT signed with the server's
 * HMAC key, so the server accepts it; a server started with a public key signs nothing (400). The
 * tokens are kept beside the user (side data `userTokens`), and go with it.
 */
import type { AuthOptions, Role } from '../../auth/tokens.ts';
import { ROLES, signToken } from '../../auth/tokens.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { EntityReference, Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideValue } from '../../core/side-data.ts';
import type { ApiRequest } from '../../http/exchange.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import { findById, pathParam, queryValue, renderFor } from '../../http/request-helpers.ts';

type UserTokens = Schemas['UserTokens'];
type Expiry = Schemas['JWTTokenExpiry'];

const TOKENS = sideValue<UserTokens>({ group: 'userTokens', owner: 'user', schema: 'UserTokens' });
const DAY = 86_400_000;

/** `OneHour`, days, or `Unlimited` (a hundred years): the lifetime `signToken` takes, and when it ends. */
function lifetime(expiry: Expiry, now: number): { expires: string; at: number | null } {
  if (expiry === 'OneHour') return { expires: '1h', at: now + DAY / 24 };
  if (expiry === 'Unlimited') return { expires: '36500d', at: null };
  return { expires: `${expiry}d`, at: now + Number(expiry) * DAY };
}

/** The roles a token of the user carries: its `roles` among the server's, else DataConsumer. */
function rolesOf(user: StoredEntity): Role[] {
  const names = ((user.entity.roles as EntityReference[] | undefined) ?? []).map((r) => r.name);
  const roles = ROLES.filter((role) => names.includes(role));
  return roles.length ? roles : ['DataConsumer'];
}

export function mountUserTokenRoutes(router: OperationRoutes, ctx: CatalogContext, auth: AuthOptions): void {
  const USER = ctx.kinds.principal;
  const sign = async (user: StoredEntity, expiry: Expiry) => {
    if (auth.publicKey && !auth.secret) throw CatalogError.badRequest('This server verifies tokens with a public key and cannot sign one');
    const { expires, at } = lifetime(expiry, Date.now());
    const token = await signToken({ user: user.entity.name, roles: rolesOf(user), expires, secret: auth.secret, issuer: auth.issuer, audience: auth.audience, id: ctx.newId() });
    return { token, at };
  };
  const botNamed = (id: string): StoredEntity => {
    const user = findById(ctx, USER, id, 'non-deleted');
    if (user.entity.isBot !== true) throw CatalogError.badRequest(`User ${user.entity.name} is not a bot`);
    return user;
  };
  const me = (req: ApiRequest): StoredEntity => findById(ctx, USER, identityOf(req).userId, 'non-deleted');
  const personal = (user: StoredEntity) => ctx.store.getSide(TOKENS, user.entity.id)?.personal ?? [];
  const keep = (user: StoredEntity, change: Partial<UserTokens>) => {
    const next = { ...ctx.store.getSide(TOKENS, user.entity.id), ...change };
    if (!next.jwt) delete next.jwt;
    if (!next.personal?.length) delete next.personal;
    ctx.store.setSide(TOKENS, user.entity.id, Object.keys(next).length ? next : undefined);
  };

  router.post('/api/v1/users/generateToken', async (req, reply) => {
    const body = req.body as Schemas['GenerateTokenRequest'];
    const bot = botNamed(body.id);
    const expiry = body.JWTTokenExpiry ?? '7';
    const { token, at } = await sign(bot, expiry);
    const jwt = { JWTToken: token, JWTTokenExpiry: expiry, JWTTokenExpiresAt: at };
    keep(bot, { jwt });
    reply.json(jwt);
  });

  router.put('/api/v1/users/revokeToken', (req, reply) => {
    const bot = botNamed((req.body as Schemas['RevokeTokenRequest']).id);
    keep(bot, { jwt: undefined });
    reply.json(renderFor(ctx, USER, req, bot));
  });

  router.get('/api/v1/users/auth-mechanism/:id', (req, reply) => {
    const user = findById(ctx, USER, pathParam(req, 'id'), 'non-deleted');
    const jwt = ctx.store.getSide(TOKENS, user.entity.id)?.jwt;
    if (!jwt) throw new CatalogError('notFound', `User ${user.entity.name} has no authentication mechanism`);
    reply.json({ authType: 'JWT', config: jwt });
  });

  router.get('/api/v1/users/security/token', (req, reply) => {
    const tokens = personal(me(req));
    reply.json({ data: tokens, paging: { total: tokens.length } });
  });

  router.put('/api/v1/users/security/token', async (req, reply) => {
    const body = req.body as Schemas['CreatePersonalToken'];
    const user = me(req);
    const { token, at } = await sign(user, body.JWTTokenExpiry ?? '30');
    const created = { token, tokenName: body.tokenName, userId: user.entity.id, expiryDate: at, tokenType: 'PERSONAL_ACCESS' as const };
    keep(user, { personal: [...personal(user), created] });
    reply.json(created);
  });

  router.put('/api/v1/users/security/token/revoke', (req, reply) => {
    const user = me(req);
    const all = queryValue(req, 'removeAll') === true || queryValue(req, 'removeAll') === 'true';
    const named = new Set((req.body as Schemas['RevokePersonalTokens'] | undefined)?.tokens ?? []);
    const left = all ? [] : personal(user).filter((t) => !named.has(t.token));
    keep(user, { personal: left });
    reply.json({ data: left, paging: { total: left.length } });
  });
}
