/**
 * `npm run soak` (docs/limits.md "Soak and fuzz"): the reference server on 127.0.0.1 (port 0) under a mixed load
 * from concurrent clients (test/robustness/soak-load.ts) for a bounded time, then three verdicts:
 *
 * 1. zero 5xx answers and zero dropped requests;
 * 2. the store passes the integrity check (src/core/integrity.ts), every few seconds under load
 *    (the check is synchronous, so it sees a state between two requests) and at the end;
 * 3. no leak: after the pool is removed and GC has run, the number of stored entities is exactly
 *    what it was after the warm-up (which lasts until the bounded event log and feed are full), and RSS is within `--rss-bound-mb` (default 64 MB) of the RSS
 *    measured the same way after the warm-up, and the V8 heap within `--heap-bound-mb` (default
 *    16 MB, the finer measure). Needs `--expose-gc` (the npm script passes it).
 *
 * Options: --duration S (load, default 120), --warmup S (default 10% of it, 2–15), --clients N
 * (default 8), --seed N, --rss-bound-mb N, --heap-bound-mb N. It stops by itself; exit 0 when all three hold, else 1.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { signToken } from '../../src/auth/tokens.ts';
import { startServer } from '../../src/app/server.ts';
import { EVENTS } from '../../src/core/change-events.ts';
import { THREADS } from '../../src/features/events/feed.ts';
import { checkIntegrity } from '../../src/core/integrity.ts';
import { newStats, removePool, runLoad, type LoadStats, type LoadTarget } from './soak-load.ts';

export interface SoakOptions {
  durationS: number;
  warmupS: number;
  clients: number;
  seed: number;
  rssBoundMb: number;
  heapBoundMb: number;
  log?: (line: string) => void;
}

export interface SoakResult {
  stats: LoadStats;
  integrity: string[];
  entitiesAfterWarmup: number;
  entitiesAtEnd: number;
  /** MB after warm-up and at the end (after GC); undefined without --expose-gc. */
  memory?: { rssBefore: number; rssAfter: number; heapBefore: number; heapAfter: number };
  ok: boolean;
  verdicts: string[];
}

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

async function settle(): Promise<{ rss: number; heap: number } | undefined> {
  if (!gc) return undefined;
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const m = process.memoryUsage();
  return { rss: m.rss / MB, heap: m.heapUsed / MB };
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const log = opts.log ?? (() => {});
  const server = await startServer({ port: 0, host: '127.0.0.1', log: () => {} });
  try {
    const admin = `Bearer ${await signToken({ user: 'soak-admin', role: 'Admin' })}`;
    const fans: LoadTarget['fans'] = [];
    for (let i = 0; i < 4; i++) {
      const auth = `Bearer ${await signToken({ user: `soak-fan${i}`, role: 'DataConsumer' })}`;
      const res = await fetch(`${server.baseUrl}/v1/users/name/soak-fan${i}`, { headers: { authorization: auth } });
      fans.push({ auth, id: ((await res.json()) as { id: string }).id });
    }
    const target: LoadTarget = { baseUrl: server.baseUrl, admin, fans };
    const stats = newStats();
    const integrity = new Set<string>();
    const check = (when: string) => {
      for (const p of checkIntegrity(server.ctx.store)) integrity.add(`${when}: ${p}`);
    };

    log(`soak: ${server.baseUrl}, ${opts.clients} clients, seed ${opts.seed}: warm-up ${opts.warmupS} s`);
    let end = Date.now() + opts.warmupS * 1000;
    await runLoad(target, stats, { clients: opts.clients, seed: opts.seed, until: () => Date.now() >= end });
    // The change-event log and the activity feed are bounded (`--max-events`, 10,000 each by
    // default; src/core/change-events.ts, src/features/events/feed.ts) and hold a copy of what each write
    // changed: until they are full they grow by design, ≈ 20 and ≈ 15 MB, which is not a leak. The
    // warm-up goes on until both are full (at most 150 s more), so the measure after it compares like
    // with like; a log that outgrew its bound would still show as growth. Only when memory is
    // measured (`--expose-gc`): the short run inside `npm test` has no memory verdict.
    const bounded = [EVENTS, THREADS];
    const full = () => bounded.every((area) => server.ctx.store.sideCount(area) >= server.ctx.events.max);
    if (gc && !full()) {
      const limit = Date.now() + 150_000;
      const filling = Date.now();
      await runLoad(target, stats, { clients: opts.clients, seed: opts.seed + 1, until: () => full() || Date.now() >= limit });
      const held = bounded.map((area) => server.ctx.store.sideCount(area)).join(' and ');
      log(`soak: warm-up went on ${Math.round((Date.now() - filling) / 1000)} s more, until the event log and the feed held ${held} of their ${server.ctx.events.max}`);
    }
    await removePool(target, stats);
    check('after warm-up');
    const entitiesAfterWarmup = [...server.ctx.store.all()].length;
    const before = await settle();
    if (before) log(`soak: after warm-up and GC: RSS ${before.rss.toFixed(1)} MB, heap ${before.heap.toFixed(1)} MB, ${entitiesAfterWarmup} entities`);

    log(`soak: load for ${opts.durationS} s`);
    const started = Date.now();
    end = started + opts.durationS * 1000;
    let nextCheck = started + 5000;
    const progress = setInterval(() => {
      if (Date.now() >= nextCheck) {
        check('under load');
        nextCheck = Date.now() + 5000;
      }
      log(
        `soak: ${Math.round((Date.now() - started) / 1000)} s, ${stats.requests} requests, ${stats.serverErrors} 5xx, ${[...server.ctx.store.all()].length} entities, RSS ${(process.memoryUsage().rss / MB).toFixed(0)} MB`,
      );
    }, 10_000);
    try {
      await runLoad(target, stats, { clients: opts.clients, seed: opts.seed + 1, until: () => Date.now() >= end });
    } finally {
      clearInterval(progress);
    }
    check('after the load');
    await removePool(target, stats);
    check('after removing the pool');
    const entitiesAtEnd = [...server.ctx.store.all()].length;
    const after = await settle();

    const verdicts: string[] = [];
    let ok = true;
    const verdict = (pass: boolean, text: string) => {
      ok &&= pass;
      verdicts.push(`${pass ? 'PASS' : 'FAIL'} ${text}`);
    };
    verdict(
      stats.serverErrors === 0 && stats.transportErrors === 0,
      `no 5xx and no dropped request (${stats.serverErrors} 5xx, ${stats.transportErrors} dropped of ${stats.requests})`,
    );
    verdict(integrity.size === 0, `store integrity under load and at the end (${integrity.size} problem(s))`);
    verdict(entitiesAtEnd === entitiesAfterWarmup, `entity count back to its warm-up value (${entitiesAfterWarmup} → ${entitiesAtEnd})`);
    const memory = before && after ? { rssBefore: before.rss, rssAfter: after.rss, heapBefore: before.heap, heapAfter: after.heap } : undefined;
    if (memory) {
      const growth = memory.rssAfter - memory.rssBefore;
      verdict(
        growth <= opts.rssBoundMb,
        `RSS after GC within ${opts.rssBoundMb} MB of the warm-up value (${memory.rssBefore.toFixed(1)} → ${memory.rssAfter.toFixed(1)} MB, ${growth >= 0 ? '+' : ''}${growth.toFixed(1)}; heap ${memory.heapBefore.toFixed(1)} → ${memory.heapAfter.toFixed(1)} MB)`,
      );
      const heap = memory.heapAfter - memory.heapBefore;
      verdict(heap <= opts.heapBoundMb, `V8 heap after GC within ${opts.heapBoundMb} MB of the warm-up value (${heap >= 0 ? '+' : ''}${heap.toFixed(1)} MB)`);
    } else verdicts.push('SKIP RSS bound: run with node --expose-gc (npm run soak does)');
    return { stats, integrity: [...integrity].slice(0, 20), entitiesAfterWarmup, entitiesAtEnd, memory, ok, verdicts };
  } finally {
    await server.close();
  }
}

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

const USAGE = `Usage: npm run soak -- [options]

Runs the reference server under a mixed load, then checks: no 5xx and no dropped request, the
store's integrity (under load and at the end), the entity count, and RSS and V8 heap after GC
(measured after the warm-up and at the end; printed in the last lines).

  --duration S        seconds of load (default 120; the full soak is --duration 600)
  --warmup S          seconds of warm-up before the first measure (default 10% of the duration, 2 to 15)
  --clients N         concurrent clients (default 8)
  --seed N            seed of the load (default 20240501)
  --rss-bound-mb N    largest RSS growth after GC accepted (default 64)
  --heap-bound-mb N   largest V8 heap growth after GC accepted (default 16)
  --kill-rounds N     then N rounds of the SIGKILL durability test with --data
                      (src/app/persistence/durability.test.ts; default 25, 0 skips it)
  -h, --help          this text

Exit status 0 when every check passes, else 1.
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      clients: { type: 'string' },
      seed: { type: 'string' },
      'rss-bound-mb': { type: 'string' },
      'heap-bound-mb': { type: 'string' },
      'kill-rounds': { type: 'string' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const durationS = positive(values.duration, 'duration', 120);
  const opts: SoakOptions = {
    durationS,
    warmupS: positive(values.warmup, 'warmup', Math.min(15, Math.max(2, Math.round(durationS / 10)))),
    clients: Math.round(positive(values.clients, 'clients', 8)),
    seed: Math.round(positive(values.seed, 'seed', 20_240_501)),
    rssBoundMb: positive(values['rss-bound-mb'], 'rss-bound-mb', 64),
    heapBoundMb: positive(values['heap-bound-mb'], 'heap-bound-mb', 16),
    log: (line) => process.stdout.write(`${line}\n`),
  };
  // A watchdog: the soak stops by itself even if something hangs.
  setTimeout(
    () => {
      process.stderr.write('soak: did not finish in time (watchdog)\n');
      process.exit(1);
    },
    (opts.durationS + opts.warmupS + 120) * 1000,
  ).unref();
  const r = await runSoak(opts);
  const s = r.stats;
  process.stdout.write(`\nrequests: ${s.requests}\nstatuses: ${JSON.stringify(s.statuses)}\noperations: ${JSON.stringify(s.ops)}\n`);
  for (const f of s.failures) process.stdout.write(`  failure: ${f}\n`);
  for (const p of r.integrity) process.stdout.write(`  integrity: ${p}\n`);
  process.stdout.write(`${r.verdicts.join('\n')}\n${r.ok ? 'soak passed' : 'soak FAILED'}\n`);
  const killRounds = values['kill-rounds'] === '0' ? 0 : Math.round(positive(values['kill-rounds'], 'kill-rounds', 25));
  const durable = killRounds > 0 ? await killRoundsPass(killRounds) : true;
  return r.ok && durable ? 0 : 1;
}

/** The SIGKILL durability test of `npm test`, with more rounds (it needs the build: dist/). */
function killRoundsPass(rounds: number): Promise<boolean> {
  process.stdout.write(`\nSIGKILL durability test, ${rounds} rounds (src/app/persistence/durability.test.ts)…\n`);
  // vitest's command (its package.json `bin`); its `exports` do not list the file itself.
  const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', 'src/app/persistence/durability.test.ts'], {
    stdio: 'inherit',
    env: { ...process.env, SOAK_ROUNDS: String(rounds) },
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code === 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`soak: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
