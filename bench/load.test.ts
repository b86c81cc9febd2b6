import autocannon from 'autocannon';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { benchRequests } from './load.ts';
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
