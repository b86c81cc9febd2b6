/**
 * Bots (docs/behaviour.md "Users and teams"; OpenMetadata's `/v1/bots`): a named automation acting
 * as its bot user, a user whose `isBot` is true.
 */
import { CatalogError } from '../core/errors.ts';
import { governed } from './shapes.ts';

export const bot = governed('bot', 'bots', 'Bot', {
  refFields: { botUser: { kinds: ['user'], by: 'name' } },
  defaults: { provider: 'user' },
  beforeWrite(entity, ctx) {
    const ref = entity.botUser as { id?: string } | undefined;
    const user = ref?.id ? ctx.store.get(ref.id)?.entity : undefined;
    if (user && user.isBot !== true) throw CatalogError.badRequest(`User ${user.name} is not a bot: a bot's botUser must have isBot true`);
  },
});
