/**
 * Users: the catalog's people (the principal kind). They follow and vote, belong to teams
 * (`teams`, written here or computed from the teams that list them, src/domain/memberships.ts),
 * and the user a token names is created on first use (docs/behaviour.md "Authentication").
 */
import type { CatalogContext } from '../domain/context.ts';
import { CatalogError } from '../domain/errors.ts';
import { createEntity } from '../domain/lifecycle.ts';
import { holdersOf } from '../domain/memberships.ts';
import { quoteName } from '../resources/fqn.ts';
import { governed } from './shapes.ts';

export const user = governed('user', 'users', 'User', {
  refFields: { teams: { kinds: ['team'], by: 'id', many: true } },
  relationshipFields: ['teams', 'roles', 'follows', 'owns'],
  defaults: { isAdmin: false, isBot: false },
  principal: true,
  extraFields: { teams: (stored, ctx) => holdersOf(ctx, 'team', 'users', stored.entity.id) },
});

/** The id of the user named `name`, created (with a made-up email) when there is none. */
function ensureUser(ctx: CatalogContext, name: string): string {
  let fqn: string;
  try {
    fqn = quoteName(name);
  } catch {
    throw CatalogError.badRequest(`Invalid user name ${name}`);
  }
  const existing = ctx.store.getByFqn(user.type, fqn);
  if (existing) return existing.entity.id;
  const email = `${name.replace(/[^A-Za-z0-9._-]/g, '_')}@catalog-kit.local`;
  return createEntity(ctx, user, { name, email }, name).entity.id;
}

/**
 * The id of the user a token names, created on first use. Remembered by name for the next
 * requests, and looked up again when the remembered user is gone (a reset, a hard delete). A name
 * that cannot be a user name is a bad request (authentication answers it with 401).
 */
export function userIds(ctx: CatalogContext): (name: string) => string {
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
