/**
 * Users: the catalog's people (the principal kind). They follow and vote, belong to teams
 * (`teams`, written here or computed from the teams that list them, src/core/memberships.ts),
 * and the user a token names is created on first use (docs/behaviour.md "Authentication").
 */
import { ROLES } from '../auth/tokens.ts';
import type { Role } from '../auth/tokens.ts';
import type { CatalogContext } from '../core/context.ts';
import type { EntityReference } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { createEntity } from '../core/lifecycle.ts';
import { holdersOf } from '../core/memberships.ts';
import { quoteName } from '../core/fqn.ts';
import { governed } from './shapes.ts';

export const user = governed('user', 'users', 'User', {
  refFields: { teams: { kinds: ['team'], by: 'id', many: true } },
  relationshipFields: ['teams', 'roles', 'follows', 'owns'],
  defaults: { isAdmin: false, isBot: false },
  principal: true,
  extraFields: { teams: (stored, ctx) => holdersOf(ctx, 'team', 'users', stored.entity.id) },
  // createUser.json `roles`: role ids (names too, here); the user holds references (docs/behaviour.md "Users and teams").
  resolveRequest(request, entity) {
    if (Array.isArray(request.roles)) entity.roles = roleReferences(request.roles);
  },
});

/**
 * The roles a user can hold: the roles tokens carry (src/auth/tokens.ts), each with a fixed id. No
 * route serves roles; a user's `roles` refer to them.
 */
const ROLE_IDS: Readonly<Record<Role, string>> = {
  Admin: '6f3c1f0e-2b5d-4c1a-9e3f-7a2d4b8c1e01',
  DataSteward: 'f0135469-69e8-4afd-a6a1-d460be2b33a2',
  DataConsumer: '0d9e7b42-5c3a-4f6e-8b1d-2e4f6a8c0b03',
};

/** Role ids or names → references, once each; an unknown one is 404 `role instance for <x> not found`. */
function roleReferences(values: readonly unknown[]): EntityReference[] {
  const out: EntityReference[] = [];
  for (const value of values) {
    const name = ROLES.find((role) => role === value || ROLE_IDS[role] === value);
    if (name === undefined) throw CatalogError.notFound('role', String(value));
    if (out.some((ref) => ref.name === name)) continue;
    out.push({ id: ROLE_IDS[name], type: 'role', name, fullyQualifiedName: name, displayName: name, deleted: false });
  }
  return out;
}

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
