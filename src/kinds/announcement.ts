/**
 * Announcements (docs/behaviour.md "Announcements"; OpenMetadata 2.0's `/v1/announcements`): a
 * message shown between `startTime` and `endTime`, on the page of the entity its `entityLink`
 * names or everywhere. `status` is where the window stands at the last write; the `active` and
 * `status` list filters look at the clock when asked.
 */
import type { CatalogContext } from '../core/context.ts';
import type { Entity } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { readEntityLink } from '../core/entity-link.ts';
import { findLive } from '../core/references.ts';
import { governed } from './shapes.ts';

function statusAt(entity: Entity, now: number): 'Scheduled' | 'Active' | 'Expired' {
  if (now < Number(entity.startTime)) return 'Scheduled';
  return now > Number(entity.endTime) ? 'Expired' : 'Active';
}

export const announcement = governed('announcement', 'announcements', 'Announcement', {
  listFilters: {
    entityLink: (value) => (typeof value === 'string' && value !== '' ? (e) => e.entityLink === value : undefined),
    status: (value, ctx) => (typeof value === 'string' && value !== '' ? (e) => statusAt(e, ctx.now()) === value : undefined),
    active: (value, ctx) => (value === undefined || value === '' ? undefined : (e) => (statusAt(e, ctx.now()) === 'Active') === (value === true || value === 'true')),
  },
  // The name, when the request leaves it out: `announcement_<n>`, the next number.
  fromRequest(request, ctx: CatalogContext) {
    if (typeof request.name === 'string' && request.name !== '') return request;
    let n = 1;
    while (ctx.store.getByFqn('announcement', `announcement_${n}`)) n++;
    return { ...request, name: `announcement_${n}` } as typeof request;
  },
  resolveRequest(request, entity, ctx) {
    if (typeof request.entityLink !== 'string') return;
    const link = readEntityLink(request.entityLink);
    if (!link) throw CatalogError.badRequest(`Invalid entityLink ${request.entityLink}`);
    findLive(ctx, [link.type], 'fqn', link.fqn);
  },
  beforeCreate(entity) {
    entity.createdBy = entity.updatedBy;
    entity.createdAt = entity.updatedAt;
  },
  beforeWrite(entity, ctx) {
    if (Number(entity.endTime) <= Number(entity.startTime)) throw CatalogError.badRequest('Announcement endTime must be after its startTime');
    entity.status = statusAt(entity, ctx.now());
  },
});
