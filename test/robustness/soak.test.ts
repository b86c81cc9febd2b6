/**
 * A short run of the soak (docs/limits.md "Soak and fuzz") inside `npm test`, so that the script cannot rot: the
 * full run is `npm run soak` (minutes, with the RSS bound). Only outcomes are asserted.
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from './soak.ts';

describe('the soak, run briefly', () => {
  it('a mixed load from 4 clients gives no 5xx, keeps the store sound and leaves the entity count as it was', async () => {
    const r = await runSoak({ durationS: 2, warmupS: 1, clients: 4, seed: 7, rssBoundMb: 64, heapBoundMb: 16 });
    expect(r.stats.failures).toEqual([]);
    expect(r.stats.serverErrors).toBe(0);
    expect(r.integrity).toEqual([]);
    expect(r.entitiesAtEnd).toBe(r.entitiesAfterWarmup);
    // Every kind of operation ran, and the clients did race (409s and 404s are expected answers).
    expect(Object.keys(r.stats.ops).sort()).toEqual([
      'bulkUpsert',
      'createContainer',
      'createNested',
      'createService',
      'follow',
      'hardDelete',
      'read',
      'recursiveHardDeleteService',
      'recursiveSoftDeleteService',
      'restore',
      'restoreService',
      'softDelete',
      'unfollow',
      'upsertContainer',
      'upsertService',
      'vote',
    ]);
    expect(r.stats.statuses[201]).toBeGreaterThan(0);
  }, 60_000);
});
