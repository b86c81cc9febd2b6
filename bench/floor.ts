/**
 * The host's latency floor, measured in each round beside the scenarios (docs/performance.md
 * "The host's floor"): the floor server (bench/floor-app.ts) under the same load at a few amounts
 * of work per request, and what its p99 is at a given CPU per request. Set beside a scenario's
 * p99, it says how much of it any Node server spending that CPU per request would have on this
 * machine at this moment.
 */
import type { LoadOptions } from './load.ts';
import { runLoad } from './load.ts';
import type { Scenario } from './scenarios.ts';
import type { Target } from './targets.ts';

export interface FloorPoint {
  /** The busy time the floor server spent per request (µs). */
  workUs: number;
  /** Its CPU per request as measured for every server (user + system µs per request served). */
  cpuUsPerRequest: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** From a trivial answer to more than the reference's most expensive scenario costs (a list page: ≈ 185–260 µs of CPU). */
export const FLOOR_WORK_US = [0, 100, 200, 300] as const;

const FLOOR_SCENARIO: Scenario = { name: 'floor', steps: () => [() => ({ method: 'GET', path: '/floor', expect: 200 })] };

export async function measureFloor(target: Target, load: LoadOptions, workUs: readonly number[] = FLOOR_WORK_US): Promise<FloorPoint[]> {
  const points: FloorPoint[] = [];
  for (const us of workUs) {
    await target.rpc('work', { us });
    const m = await runLoad(target, FLOOR_SCENARIO, load);
    if (m.non2xx + m.errors > 0) throw new Error(`the floor server answered ${m.non2xx} non-2xx and ${m.errors} errors at ${us} µs of work`);
    points.push({ workUs: us, cpuUsPerRequest: m.cpuUsPerRequest, requestsPerSecond: m.requestsPerSecond, p50Ms: m.p50Ms, p99Ms: m.p99Ms });
  }
  return points;
}

/**
 * The floor's p99 at `cpuUs` of CPU per request: interpolated linearly between the two measured
 * points around it (by CPU per request); undefined outside the range measured, where it would be
 * a guess.
 */
export function floorP99At(points: readonly FloorPoint[], cpuUs: number): number | undefined {
  const sorted = points.filter((p) => Number.isFinite(p.cpuUsPerRequest) && Number.isFinite(p.p99Ms)).sort((a, b) => a.cpuUsPerRequest - b.cpuUsPerRequest);
  for (let i = 1; i < sorted.length; i++) {
    const [lo, hi] = [sorted[i - 1]!, sorted[i]!];
    if (cpuUs < lo.cpuUsPerRequest || cpuUs > hi.cpuUsPerRequest) continue;
    const span = hi.cpuUsPerRequest - lo.cpuUsPerRequest;
    return span === 0 ? lo.p99Ms : lo.p99Ms + ((cpuUs - lo.cpuUsPerRequest) / span) * (hi.p99Ms - lo.p99Ms);
  }
  return undefined;
}
