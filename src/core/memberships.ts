/**
 * Team membership, read from either side (docs/behaviour.md "Users and teams": `team.users` lists
 * the users whose `teams` include the team; OpenMetadata keeps one team-has-user relationship and
 * shows it as both `team.users` and `user.teams`). A membership is written on one side — a user's
 * `teams` (the usual way, and the demo catalog's) or a team's `users` — and stored only there; the
 * other side is computed on read, so the two can never disagree. A soft-deleted member is left
 * out, as OpenMetadata leaves out deleted relations.
 * A side that was written explicitly (a team created with `users`) shows what was written.
 */
import type { CatalogContext, Kind } from './context.ts';
import type { Entity, EntityReference } from './entity.ts';
import { referenceTo } from './entity.ts';
import { applyChange } from './lifecycle.ts';
import type { StoredEntity } from './entity-store.ts';

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

/** Whether the user is a member of the team, on either side. */
function isMember(user: Entity, team: Entity): boolean {
  return refersTo(user.teams, team.id) || refersTo(team.users, user.id);
}

/**
 * Makes the user a member of the team, or not (docs/behaviour.md "Users and teams": the team
 * membership calls). A new membership is written where the team's members are written: the team's
 * `users` when it has them, else the user's `teams` (which, when the user had none written, start
 * from the teams that list the user, so nothing it showed is lost). An ended membership leaves
 * both sides. Each side written is a change of that entity (a new version, an event).
 */
export function setMembership(ctx: CatalogContext, kinds: { user: Kind; team: Kind }, user: StoredEntity, team: StoredEntity, member: boolean, by: string): void {
  if (isMember(user.entity, team.entity) === member) return;
  if (!member) {
    for (const [side, kind, field, other] of [
      [user, kinds.user, 'teams', team],
      [team, kinds.team, 'users', user],
    ] as const) {
      const list = side.entity[field];
      if (!refersTo(list, other.entity.id)) continue;
      applyChange(ctx, kind, side, { ...structuredClone(side.entity), [field]: (list as EntityReference[]).filter((ref) => ref.id !== other.entity.id) }, by);
    }
    return;
  }
  const onTeam = Array.isArray(team.entity.users);
  if (onTeam) {
    const users = [...(team.entity.users as EntityReference[]), referenceTo(kinds.user.type, user.entity)];
    applyChange(ctx, kinds.team, team, { ...structuredClone(team.entity), users }, by);
  }
  if (onTeam && !Array.isArray(user.entity.teams)) return;
  const teams = Array.isArray(user.entity.teams) ? (user.entity.teams as EntityReference[]) : holdersOf(ctx, kinds.team.type, 'users', user.entity.id);
  applyChange(ctx, kinds.user, user, { ...structuredClone(user.entity), teams: [...teams, referenceTo(kinds.team.type, team.entity)] }, by);
}
