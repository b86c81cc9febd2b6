/**
 * A snapshot of the store is the whole state at one moment: whatever is written after it (an
 * update, a soft delete, a new child, change events), `restore` puts back exactly what was there,
 * with the same ids, versions, histories, indexes and side data, and tells the listeners.
 */
import { describe, expect, it } from 'vitest';
import { domainContext, storeDump } from '../../test/kit.ts';
import { EVENTS } from './change-events.ts';
import { createEntity, patchEntity, softDelete } from './lifecycle.ts';
import type { StoreChange } from './entity-store.ts';

describe('EntityStore snapshot and restore', () => {
  it('puts back exactly the state of the snapshot, whatever was written since', async () => {
    const ctx = await domainContext();
    const kind = (type: string) => ctx.kinds.of(type);
    const service = createEntity(ctx, kind('storageService'), { name: 'lake', serviceType: 'S3', connection: { config: { type: 'S3' } } }, 'admin');
    const kept = createEntity(ctx, kind('container'), { name: 'kept', service: 'lake' }, 'admin');
    const changed = createEntity(ctx, kind('container'), { name: 'changed', service: 'lake', description: 'before' }, 'admin');
    const before = storeDump(ctx);
    const events = ctx.store.sideCount(EVENTS);
    const snapshot = ctx.store.snapshot();

    patchEntity(ctx, kind('container'), changed, [{ op: 'replace', path: '/description', value: 'after' }], 'admin');
    softDelete(ctx, kind('container'), kept, false, 'admin');
    createEntity(ctx, kind('container'), { name: 'new', service: 'lake' }, 'admin');
    expect(storeDump(ctx)).not.toBe(before);
    expect(ctx.store.sideCount(EVENTS)).toBe(events + 3);

    const heard: string[] = [];
    const stop = ctx.store.subscribe((change: StoreChange) => heard.push(change.op === 'clear' ? 'clear' : `${change.op} ${change.stored.entity.name}`));
    ctx.store.restore(snapshot);
    stop();
    expect(storeDump(ctx)).toBe(before);
    expect(ctx.store.sideCount(EVENTS)).toBe(events);
    expect(heard).toEqual(['clear', 'put lake', 'put kept', 'put changed']);
    expect(ctx.store.getByFqn('container', 'lake.new')).toBeUndefined();
    expect(ctx.store.get(changed.entity.id)?.entity.description).toBe('before');
    expect(ctx.store.get(changed.entity.id)?.history).toEqual([]);
    expect(ctx.store.deletedCount('container')).toBe(0);
    expect(
      ctx.store
        .children(service.entity.id)
        .map((c) => c.entity.name)
        .sort(),
    ).toEqual(['changed', 'kept']);

    // The snapshot is not the store's: a restore, then writes, then a restore again.
    softDelete(ctx, kind('container'), ctx.store.get(kept.entity.id)!, false, 'admin');
    ctx.store.restore(snapshot);
    expect(storeDump(ctx)).toBe(before);
  });
});
