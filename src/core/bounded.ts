/** The bound of the event log and the feed (docs/behaviour.md "Events"): the oldest values go first. */
import type { CatalogContext } from './context.ts';
import type { SideData } from './side-data.ts';

/** Drops the oldest values of an area (the first written) until it holds at most `max`. */
export function trimOldest(ctx: CatalogContext, area: SideData<unknown>, max: number): void {
  const excess = ctx.store.sideCount(area) - Math.max(0, max);
  if (excess > 0) ctx.store.dropOldestSide(area, excess);
}
