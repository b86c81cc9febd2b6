/**
 * The change event log in the domain (docs/behaviour.md "Events"): one event per committed
 * change, bounded by `ctx.events.max`, listed per event type and entity type in timestamp order,
 * and a listener that throws does not fail the write.
 */
import { describe, expect, it } from 'vitest';
import { domainContext } from '../../test/kit.ts';
import type { CatalogContext } from './context.ts';
import type { ChangeEvent, CreateRequest } from './entity.ts';
import { createEntity, hardDelete, patchEntity, softDelete, upsertEntity } from './lifecycle.ts';
import type { EventQuery } from './change-events.ts';
import { EVENTS, listEvents } from './change-events.ts';

async function catalog(max?: number): Promise<{ ctx: CatalogContext; clock: { now: number } }> {
  const clock = { now: 1_000 };
  const ctx = await domainContext({ now: () => clock.now });
  if (max !== undefined) Object.assign(ctx.events, { max });
  return { ctx, clock };
}

function service(ctx: CatalogContext, name: string) {
  return createEntity(ctx, ctx.kinds.of('storageService'), { name, serviceType: 'S3', connection: { config: { type: 'S3' } } } as CreateRequest, 'alice');
}

const logged = (ctx: CatalogContext) => [...ctx.store.sideValuesOf(EVENTS)].map(([, e]) => e);

describe('recording', () => {
  it('records create, update, soft and hard delete once each, with the user and versions of each', async () => {
    const { ctx, clock } = await catalog();
    const svc = service(ctx, 's1');
    clock.now++;
    patchEntity(ctx, ctx.kinds.of('storageService'), svc, [{ op: 'add', path: '/description', value: 'd' }], 'bob');
    clock.now++;
    softDelete(ctx, ctx.kinds.of('storageService'), svc, false, 'carol');
    softDelete(ctx, ctx.kinds.of('storageService'), svc, false, 'carol'); // already deleted: no change, no event
    hardDelete(ctx, ctx.kinds.of('storageService'), svc, false, 'dave');
    expect(logged(ctx).map((e) => [e.eventType, e.userName, e.previousVersion, e.currentVersion, e.timestamp])).toEqual([
      ['entityCreated', 'alice', 0.1, 0.1, 1_000],
      ['entityUpdated', 'bob', 0.1, 0.2, 1_001],
      ['entitySoftDeleted', 'carol', 0.2, 0.3, 1_002],
      ['entityDeleted', 'dave', 0.3, 0.3, 1_002],
    ]);
  });

  it.each<{ given: string; deleted: boolean; want: { shared: boolean; changed: string[] } }>([
    { given: 'an update', deleted: false, want: { shared: true, changed: ['description'] } },
    { given: 'an update of a soft-deleted entity (restored, then updated)', deleted: true, want: { shared: false, changed: ['deleted', 'description'] } },
  ])('upsert, $given: one event describing the whole request → $want', async ({ deleted, want }) => {
    const { ctx } = await catalog();
    const svc = service(ctx, 'up');
    if (deleted) softDelete(ctx, ctx.kinds.of('storageService'), svc, false, 'carol');
    upsertEntity(ctx, ctx.kinds.of('storageService'), { name: 'up', serviceType: 'S3', connection: { config: { type: 'S3' } }, description: 'new' } as CreateRequest, 'bob');
    const event = logged(ctx).at(-1)!;
    expect(event.eventType).toBe('entityUpdated');
    // One change: the stored version's own description, not an equal copy kept beside it.
    const { fieldsAdded, fieldsUpdated } = event.changeDescription!;
    const changed = [...fieldsAdded, ...fieldsUpdated].map((f) => f.name).sort();
    expect({ shared: event.changeDescription === svc.entity.changeDescription, changed }).toEqual(want);
  });

  it('keeps at most `max` events, the oldest dropped first', async () => {
    const { ctx } = await catalog(2);
    for (const name of ['a', 'b', 'c', 'd']) service(ctx, name);
    expect(logged(ctx).map((e) => e.entityFullyQualifiedName)).toEqual(['c', 'd']);
  });

  it('hands each event to the listeners; one that throws does not undo the write or stop the others', async () => {
    const { ctx } = await catalog();
    const heard: ChangeEvent[] = [];
    ctx.events.listeners.add(() => {
      throw new Error('boom');
    });
    ctx.events.listeners.add((e) => heard.push(e));
    const svc = service(ctx, 'listened');
    expect(ctx.store.get(svc.entity.id)).toBe(svc);
    expect(heard.map((e) => e.entityId)).toEqual([svc.entity.id]);
  });
});

describe('listing', () => {
  it.each<{ query: EventQuery; want: string[] }>([
    { query: {}, want: [] },
    { query: { entityCreated: '*' }, want: ['entityCreated s', 'entityCreated s.c'] },
    { query: { entityCreated: 'container' }, want: ['entityCreated s.c'] },
    { query: { entityCreated: ' container , table ' }, want: ['entityCreated s.c'] },
    { query: { entityCreated: '' }, want: [] },
    { query: { entityDeleted: '*' }, want: ['entitySoftDeleted s.c', 'entityDeleted s.c'] },
    { query: { entityUpdated: '*', entityRestored: '*' }, want: [] },
    { query: { entityCreated: '*', entityDeleted: 'container', timestamp: 2 }, want: ['entitySoftDeleted s.c', 'entityDeleted s.c'] },
  ])('$query → $want', async ({ query, want }) => {
    const { ctx, clock } = await catalog();
    clock.now = 1;
    service(ctx, 's');
    const c = createEntity(ctx, ctx.kinds.of('container'), { name: 'c', service: 's' } as CreateRequest, 'alice');
    clock.now = 2;
    softDelete(ctx, ctx.kinds.of('container'), c, false, 'alice');
    hardDelete(ctx, ctx.kinds.of('container'), c, false, 'alice');
    expect(listEvents(ctx, query).map((e) => `${e.eventType} ${e.entityFullyQualifiedName}`)).toEqual(want);
  });

  it('lists in timestamp order even when the clock was set back', async () => {
    const { ctx, clock } = await catalog();
    clock.now = 50;
    service(ctx, 'late');
    clock.now = 10;
    service(ctx, 'early');
    expect(listEvents(ctx, { entityCreated: '*' }).map((e) => e.entityFullyQualifiedName)).toEqual(['early', 'late']);
  });
});
