/**
 * One server under test, in its own process so that it does not share an event loop (or a heap)
 * with the load generator. Forked by the bench with an IPC channel:
 *   argv: reference|baseline|floor [--fixtures default|none|<dir>] [--data <file>]
 *   → {type:'ready', origin, fixtures}
 *   ← {id, cmd:'memory'}                → {id, rss, heapUsed}
 *   ← {id, cmd:'requests'}              → {id, count}   (HTTP requests served so far)
 *   ← {id, cmd:'clock'}                 → {id, us}   (monotonic µs, to cut a --cpu-prof profile to a window)
 *   ← {id, cmd:'cpu'}                   → {id, user, system}   (process.cpuUsage(), µs)
 *   ← {id, cmd:'gc'}                    → {id, count, totalMs, maxMs}   (GC pauses since the last 'gc' call)
 *   ← {id, cmd:'grow', to, sample}      → {id, count, heapUsed, jsonBytes, ids, cursors} (reference only:
 *                                         adds containers through the domain function the POST handler calls)
 *   ← {id, cmd:'work', us}             → {id}   (floor only: the busy time per request, bench/floor-app.ts)
 *   ← {cmd:'stop'}                      → exits (so that --cpu-prof writes its profile)
 */
import type { Server } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { createBaselineApp } from './baseline-app.ts';
import type { FloorServer } from './floor-app.ts';
import { createFloorServer } from './floor-app.ts';

type Message = { id?: number; cmd: string; to?: number; sample?: number; us?: number };
type Grow = (to: number, sample: number) => Record<string, unknown>;

const [kind, ...rest] = process.argv.slice(2);
const send = (message: Record<string, unknown>) => process.send!(message);

let server: Server;
let grow: Grow | undefined;
let fixtures = 'none';
let floor: FloorServer | undefined;
if (kind === 'floor') {
  floor = createFloorServer();
  server = floor.server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
} else if (kind === 'baseline') {
  // Nothing of src/ is loaded here, so the baseline's RSS is that of a plain express app.
  server = await new Promise<Server>((resolve) => {
    const s = createBaselineApp().listen(0, '127.0.0.1', () => resolve(s));
  });
} else {
  const { startReference } = await import('./reference-target.ts');
  const option = (name: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
  ({ server, grow, fixtures } = await startReference(option('--fixtures'), option('--data')));
}
// Every GC pause of this process (V8's young and full collections alike), summed between two 'gc'
// calls: the bench reads it before and after a scenario, to set the pauses beside the p99.
let pauses = { count: 0, totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.count++;
    pauses.totalMs += entry.duration;
    pauses.maxMs = Math.max(pauses.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
let served = 0;
server.on('request', () => served++);
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;
send({ type: 'ready', origin: `http://127.0.0.1:${port}`, fixtures });

process.on('message', (message: Message) => {
  if (message.cmd === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    return;
  }
  if (message.cmd === 'memory') {
    const { rss, heapUsed } = process.memoryUsage();
    send({ id: message.id, rss, heapUsed });
  } else if (message.cmd === 'requests') {
    send({ id: message.id, count: served });
  } else if (message.cmd === 'clock') {
    // Microseconds on the monotonic clock V8's CPU profiles are stamped with (Linux).
    send({ id: message.id, us: Number(process.hrtime.bigint() / 1000n) });
  } else if (message.cmd === 'gc') {
    send({ id: message.id, ...pauses });
    pauses = { count: 0, totalMs: 0, maxMs: 0 };
  } else if (message.cmd === 'cpu') {
    send({ id: message.id, ...process.cpuUsage() });
  } else if (message.cmd === 'work') {
    if (!floor) throw new Error('work needs the floor server');
    floor.setWorkUs(message.us ?? 0);
    send({ id: message.id });
  } else if (message.cmd === 'grow') {
    if (!grow) throw new Error('grow needs the reference server');
    send({ id: message.id, ...grow(message.to ?? 0, message.sample ?? 500) });
  }
});
process.on('disconnect', () => process.exit(0));
