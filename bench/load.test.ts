import autocannon from 'autocannon';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Sample } from './load.ts';
import { benchRequests, runAlternating, summarize } from './load.ts';
import { SCENARIOS } from './scenarios.ts';
import type { Target } from './targets.ts';

/** A server that records the Host header and path of every request, answering 200. */
async function recorder() {
  const seen: { host: string | undefined; path: string | undefined; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    seen.push({ host: req.headers.host, path: req.url, authorization: req.headers.authorization });
    req.resume().on('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the load generator sends what a client of the server would', () => {
  // autocannon takes about a second a run, so one scenario with every method stands for all: they share `toRequest`.
  it('requests_carry_the_targets_host_header_so_hrefs_name_the_server', async () => {
    const { seen, server, origin } = await recorder();
    const target: Target = {
      kind: 'reference',
      origin,
      token: 'T',
      fixtures: 'none',
      ids: ['i1'],
      names: ['bench.n1'],
      cursors: ['c1'],
      cyclePool: ['p1'],
      rpc: () => Promise.reject(new Error('not used')),
      stop: () => Promise.resolve(),
    };
    try {
      for (const scenario of SCENARIOS.filter((s) => s.name.startsWith('mixed'))) {
        await new Promise<void>((resolve, reject) =>
          autocannon({ url: origin, connections: 1, amount: 4, requests: benchRequests(target, scenario) }, (error) => (error ? reject(error) : resolve())),
        );
        expect(seen.length, scenario.name).toBeGreaterThanOrEqual(4);
        expect(new Set(seen.map((r) => r.path))).toContain('/api/v1/containers');
        for (const request of seen) {
          expect(request.host, scenario.name).toBe(new URL(origin).host);
          expect(request.authorization, scenario.name).toBe('Bearer T');
          expect(request.path, scenario.name).toMatch(/^\/api\/v1\/containers/);
        }
      }
    } finally {
      server.close();
    }
  });
});

describe('samples of one target pool into one measurement', () => {
  const sample = (latencies: number[], over: Partial<Sample> = {}): Sample => ({
    latencies,
    statuses: { 200: latencies.length },
    errors: 0,
    seconds: 1,
    cpuUs: 100 * latencies.length,
    served: latencies.length,
    gc: { count: 1, totalMs: 2, maxMs: 2 },
    rssBytes: 1,
    ...over,
  });
  it.each([
    // given: the samples; want: what the pooled measurement says
    {
      name: "percentiles over every latency, not an average of each sample's",
      given: [sample([1, 1, 1, 1]), sample([9, 9, 9, 9, 9, 9])],
      want: { p50Ms: 9, p99Ms: 9, requests: 10, requestsPerSecond: 5 },
    },
    {
      name: 'rates over the total time; CPU over every request served',
      given: [sample([1, 2], { seconds: 0.5, cpuUs: 400 }), sample([3, 4], { seconds: 1.5, cpuUs: 0 })],
      want: { requestsPerSecond: 2, cpuUsPerRequest: 100, p50Ms: 3 },
    },
    {
      name: 'statuses summed; GC pauses summed, the longest kept',
      given: [sample([1], { statuses: { 404: 1 }, gc: { count: 2, totalMs: 3, maxMs: 3 } }), sample([1], { statuses: { 200: 1 }, gc: { count: 1, totalMs: 5, maxMs: 5 } })],
      want: { statuses: { 200: 1, 404: 1 }, non2xx: 1, gc: { count: 3, totalMs: 8, maxMs: 5 } },
    },
  ])('$name', ({ given, want }) => {
    expect(summarize(given)).toMatchObject(want);
  });
});

describe('two targets under one load take turns', () => {
  it('in slices of the duration, the order reversed every turn, each target measured over all of its turns', async () => {
    const targets = ['A', 'B'].map((origin) => ({ origin }) as Target);
    const turns: string[] = [];
    const [a, b] = await runAlternating(targets, SCENARIOS[0]!, { duration: 3, connections: 20 }, 3, (target, _scenario, options) => {
      turns.push(`${target.origin} ${options.duration}s`);
      const latency = target.origin === 'A' ? turns.length : 100 + turns.length;
      return Promise.resolve({
        latencies: [latency],
        statuses: { 200: 1 },
        errors: 0,
        seconds: options.duration,
        cpuUs: 10,
        served: 1,
        gc: { count: 0, totalMs: 0, maxMs: 0 },
        rssBytes: 1,
      });
    });
    expect(turns).toEqual(['A 1s', 'B 1s', 'B 1s', 'A 1s', 'A 1s', 'B 1s']);
    expect([a!.requests, a!.requestsPerSecond, a!.p99Ms]).toEqual([3, 1, 5]);
    expect([b!.requests, b!.p50Ms]).toEqual([3, 103]);
  });
});
