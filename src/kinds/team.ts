/**
 * Teams. `users` lists the members (written here or computed from the users whose `teams` name the
 * team, src/core/memberships.ts); `children` the teams under it (none yet: a team is created
 * without a parent, so the list is always empty).
 */
import { holdersOf } from '../core/memberships.ts';
import { governed } from './shapes.ts';

export const team = governed('team', 'teams', 'Team', {
  refFields: { users: { kinds: ['user'], by: 'id', many: true } },
  relationshipFields: ['users', 'parents', 'children'],
  childFields: { children: 'team' },
  defaults: { teamType: 'Group' },
  extraFields: { users: (stored, ctx) => holdersOf(ctx, 'user', 'teams', stored.entity.id) },
});
