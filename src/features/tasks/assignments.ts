/**
 * Whose a task is (docs/behaviour.md "Tasks"): a user's tasks are those assigned to them or to one
 * of their teams, and those about entities they or one of their teams own. Read by the task list
 * filters (src/kinds/task.ts) and the activity feeds (src/features/activity/).
 */
import type { CatalogContext } from '../../core/context.ts';
import type { EntityReference } from '../../core/entity.ts';
import { holdersOf } from '../../core/memberships.ts';

const TEAM = 'team';

/** The user (or team) named `name` and the teams the user belongs to, as ids: whose assignments and ownerships are theirs. */
export function principalIds(ctx: CatalogContext, name: string): ReadonlySet<string> {
  const user = ctx.store.getByFqn(ctx.kinds.principal.type, name) ?? [...ctx.store.ofType(ctx.kinds.principal.type)].find((u) => u.entity.name === name);
  const team = ctx.store.getByFqn(TEAM, name);
  const ids = new Set<string>();
  if (team) ids.add(team.entity.id);
  if (user) {
    ids.add(user.entity.id);
    const written = Array.isArray(user.entity.teams) ? (user.entity.teams as EntityReference[]) : [];
    for (const t of [...written, ...holdersOf(ctx, TEAM, 'users', user.entity.id)]) ids.add(t.id);
  }
  return ids;
}
