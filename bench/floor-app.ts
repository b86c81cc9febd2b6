/**
 * The host's latency floor (docs/performance.md "What a run does"): a `node:http` server that
 * does nothing but hold the CPU for a set time per request, then answer a fixed JSON body. No
 * express, no allocation to speak of (so no GC pauses), the same time for every request. Under the
 * same load as the reference, at the same CPU per request, its p99 is what queueing at 20
 * connections and the machine itself give any Node server: what is left of the reference's p99
 * above it is the reference's own.
 */
import type { Server } from 'node:http';
import { createServer } from 'node:http';

/**
 * ≈ 1 KB, about a container as the API answers it (≈ 0.6 KB for a GET by id, the scale step's
 * figure; a list page of 10 is ≈ 6 KB). The size hardly matters: at 150 µs of work, a 30-byte and a
 * 6,000-byte answer gave the same req/s and p99 within the runs' spread (docs/performance.md).
 */
export const FLOOR_BODY = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', padding: 'x'.repeat(960) });

export interface FloorServer {
  server: Server;
  /** The busy time each request holds the CPU for (µs of wall-clock time, before the answer). */
  setWorkUs(us: number): void;
}

export function createFloorServer(): FloorServer {
  let workMs = 0;
  const length = String(Buffer.byteLength(FLOOR_BODY));
  const server = createServer((req, res) => {
    // Spent whether or not the request has a body: the floor's requests are GETs.
    const until = performance.now() + workMs;
    while (performance.now() < until);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
    res.end(FLOOR_BODY);
    req.resume();
  });
  return {
    server,
    setWorkUs(us) {
      if (!(us >= 0)) throw new Error(`the floor's work per request must be a number of µs ≥ 0, not ${us}`);
      workMs = us / 1000;
    },
  };
}
