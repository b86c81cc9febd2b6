/**
 * Team membership, read from either side (docs/behaviour.md "Users and teams": `team.users` lists
 * the users whose `teams` include the team; OpenMetadata keeps one team-has-user relationship and
 * shows it as both `team.users` and `user.teams`). A membership is written on one side — a user's
 * `teams` (the usual way, and the demo catalog's) or a team's `users` — and stored only there; the
 * other side is computed on read, so the two can never disagree. A soft-deleted member is left
 * out, as OpenMetadata leaves out deleted relations.
 * A side that was written explicitly (a team created with `users`) shows what was written.
 */
import type { CatalogContext } from './context.ts';
import type { EntityReference } from './entity.ts';
import { referenceTo } from './entity.ts';

function refersTo(list: unknown, id: string): boolean {
  return Array.isArray(list) && (list as EntityReference[]).some((ref) => ref.id === id);
}

/**
 * The live entities of `type` whose `field` names `id`, by name: a team's `users` are the users
 * whose `teams` name it (src/kinds/team.ts), a user's `teams` the teams whose `users` name it.
 */
export function holdersOf(ctx: CatalogContext, type: string, field: string, id: string): EntityReference[] {
  const out: EntityReference[] = [];
  for (const stored of ctx.store.ofType(type)) {
    if (!stored.entity.deleted && refersTo(stored.entity[field], id)) out.push(referenceTo(type, stored.entity));
  }
  return out.sort((a, b) => String(a.name).localeCompare(String(b.name)));
}
