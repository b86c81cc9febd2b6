import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createFloorServer, FLOOR_BODY } from './floor-app.ts';
import type { FloorPoint } from './floor.ts';
import { floorP99At } from './floor.ts';

const point = (cpuUsPerRequest: number, p99Ms: number): FloorPoint => ({ workUs: 0, cpuUsPerRequest, requestsPerSecond: 1, p50Ms: 1, p99Ms });

describe('the host floor at a CPU per request', () => {
  const curve = [point(140, 6), point(20, 2), point(260, 10)];
  it.each([
    { cpu: 20, want: 2, why: 'a measured point' },
    { cpu: 80, want: 4, why: 'halfway between the first two, whatever order they were measured in' },
    { cpu: 200, want: 8, why: 'halfway between the last two' },
    { cpu: 260, want: 10, why: 'the last point' },
    { cpu: 10, want: undefined, why: 'below the range: not a guess' },
    { cpu: 300, want: undefined, why: 'above the range: not a guess' },
  ])('at $cpu µs: $want ($why)', ({ cpu, want }) => {
    expect(floorP99At(curve, cpu)).toBe(want);
  });

  it('ignores_points_that_were_not_measured', () => {
    expect(floorP99At([point(Number.NaN, 3), point(100, 5), point(200, Number.NaN)], 100)).toBeUndefined();
  });
});

describe('the floor server', () => {
  it('holds_each_request_for_the_work_set_then_answers_its_fixed_body', async () => {
    const floor = createFloorServer();
    await new Promise<void>((resolve) => floor.server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(floor.server.address() as AddressInfo).port}`;
    try {
      floor.setWorkUs(30_000);
      const started = performance.now();
      const answer = await fetch(`${origin}/floor`);
      const took = performance.now() - started;
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(FLOOR_BODY);
      expect(took).toBeGreaterThanOrEqual(30);
      expect(() => floor.setWorkUs(-1)).toThrow(/≥ 0/);
    } finally {
      floor.server.close();
    }
  });
});
