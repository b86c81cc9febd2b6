/**
 * `npm run bench` (docs/performance.md): the reference server against a plain-express baseline on loopback,
 * then memory and scale, cold start and the conformance suite's speed. Writes
 * bench/results/latest.json. `--help` lists the options; `--cpu-prof` profiles the reference under
 * one scenario instead.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ColdStartResult, CommandTiming } from './cold-start.ts';
import { runColdStart, timeCommand } from './cold-start.ts';
import type { ConformanceSpeed } from './conformance-speed.ts';
import type { InProcessBench } from './in-process.ts';
import { runInProcessBench } from './in-process.ts';
import { runConformanceSpeed } from './conformance-speed.ts';
import type { DurableWrites } from './durable-writes.ts';
import { runDurableWrites } from './durable-writes.ts';
import { checkGoals, worstP99 } from './goals.ts';
import type { FloorPoint } from './floor.ts';
import { floorP99At, measureFloor } from './floor.ts';
import { checkScenario, runLoad } from './load.ts';
import { busyMs, formatSummary } from './profile-summary.ts';
import type { Comparison } from './report.ts';
import { compare, comparisonTable, floorTable, statusNotes, table } from './report.ts';
import type { ScaleResult } from './scale.ts';
import { runScale } from './scale.ts';
import type { SearchBench } from './search.ts';
import { runSearchBench } from './search.ts';
import { SCENARIOS } from './scenarios.ts';
import type { Target } from './targets.ts';
import { seed, startTarget } from './targets.ts';

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '0.5' },
    seed: { type: 'string', default: '1000' },
    fixtures: { type: 'string', default: 'default' },
    only: { type: 'string' },
    scale: { type: 'string', default: '100000' },
    'cold-runs': { type: 'string', default: '5' },
    'conformance-runs': { type: 'string', default: '25' },
    'skip-scale': { type: 'boolean', default: false },
    search: { type: 'string', default: '100000' },
    'search-runs': { type: 'string', default: '20' },
    'skip-search': { type: 'boolean', default: false },
    'search-only': { type: 'boolean', default: false },
    'skip-cold': { type: 'boolean', default: false },
    'skip-conformance': { type: 'boolean', default: false },
    'skip-durable': { type: 'boolean', default: false },
    'skip-in-process': { type: 'boolean', default: false },
    'skip-floor': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    'reference-flags': { type: 'string', default: '' },
    out: { type: 'string', default: join(RESULTS, 'latest.json') },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (opts.help) {
  process.stdout.write(`Usage: npm run bench -- [--duration 3] [--connections 20] [--rounds 2] [--warmup 0.5] [--seed 1000]
  [--fixtures default|none|<dir>] [--only <scenario substring>] [--scale 100000] [--cold-runs 5] [--conformance-runs 25]
  [--skip-scale] [--skip-cold] [--skip-conformance] [--skip-durable] [--skip-in-process] [--skip-floor] [--out bench/results/latest.json]
  [--search 100000] [--search-runs 20] [--skip-search] [--search-only]   search calls at that many containers
  [--reference-flags="<node flags>"]   start the reference with these node flags too (e.g. --reference-flags=--trace-gc)
  [--cpu-prof]   profile the reference (node --cpu-prof) under --only (default "GET by id") and
                 summarise the samples taken while the load ran\n`);
  process.exit(0);
}
const load = { duration: Number(opts.duration), connections: Number(opts.connections) };
const log = (line = '') => process.stdout.write(`${line}\n`);
const scenarios = SCENARIOS.filter((s) => !opts.only || s.name.toLowerCase().includes(opts.only.toLowerCase()));
const started: Target[] = [];
const stopAll = () => Promise.all(started.splice(0).map((t) => t.stop()));
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

async function prepare(kind: 'reference' | 'baseline', execArgv: string[] = []): Promise<Target> {
  if (kind === 'reference') execArgv = [...opts['reference-flags'].split(/\s+/).filter(Boolean), ...execArgv];
  const target = await startTarget(kind, { ...(kind === 'reference' ? { fixtures: opts.fixtures } : {}), execArgv });
  started.push(target);
  await seed(target, Number(opts.seed), 500);
  return target;
}

/** A sample cycle of every scenario must answer the expected statuses before anything is timed. */
async function checkAll(targets: Target[], list = scenarios): Promise<void> {
  const problems: string[] = [];
  for (const scenario of list) for (const target of targets) problems.push(...(await checkScenario(target, scenario)));
  if (problems.length) {
    log('\n!!! CORRECTNESS CHECK FAILED — nothing was timed:');
    for (const p of problems) log(`!!!   ${p}`);
    await stopAll();
    process.exit(1);
  }
  log(`correctness check passed: ${list.length} scenarios × ${targets.map((t) => t.kind).join(' + ')}`);
}

async function profile(): Promise<void> {
  const dir = join(RESULTS, 'profiles');
  const startedAt = Date.now();
  mkdirSync(dir, { recursive: true });
  const scenario = scenarios.length === SCENARIOS.length ? SCENARIOS[0]! : scenarios[0]!;
  const reference = await prepare('reference', ['--cpu-prof', '--cpu-prof-dir', dir]);
  await checkAll([reference], [scenario]);
  const from = (await reference.rpc<{ us: number }>('clock')).us;
  const m = await runLoad(reference, scenario, load);
  const window = { from, to: (await reference.rpc<{ us: number }>('clock')).us };
  log(`${scenario.name}: ${Math.round(m.requestsPerSecond)} req/s under the profiler, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms`);
  await stopAll();
  // One profile per thread (tsx's loader runs in its own): summarise the busiest of this run.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).mtimeMs >= startedAt);
  const busiest = files.sort((a, b) => busyMs(b, window) - busyMs(a, window))[0];
  if (busiest) log(`${formatSummary(busiest, 30, window)}\n(whole-life profile, start-up included: ${busiest})`);
}

async function compareAll(): Promise<{ comparisons: Comparison[]; floors: FloorPoint[][] }> {
  const reference = await prepare('reference');
  const baseline = await prepare('baseline');
  log(`reference ${reference.origin} (fixtures ${reference.fixtures}), baseline ${baseline.origin}; ${opts.seed} containers seeded through the API on each`);
  await checkAll([reference, baseline]);
  const floor = opts['skip-floor'] ? undefined : await startTarget('floor');
  if (floor) started.push(floor);
  for (const scenario of scenarios) for (const t of [reference, baseline]) if (Number(opts.warmup) > 0) await runLoad(t, scenario, { ...load, duration: Number(opts.warmup) });
  if (floor && Number(opts.warmup) > 0) await measureFloor(floor, { ...load, duration: Number(opts.warmup) }, [0]);
  const comparisons: Comparison[] = [];
  const floors: FloorPoint[][] = [];
  for (let round = 1; round <= Number(opts.rounds); round++) {
    const inRound: Comparison[] = [];
    for (const scenario of scenarios) {
      // Alternate which server goes first, so neither always runs on a warmer machine.
      const order = round % 2 === 1 ? [reference, baseline] : [baseline, reference];
      const [first, second] = [await runLoad(order[0]!, scenario, load), await runLoad(order[1]!, scenario, load)];
      const [ref, base] = order[0] === reference ? [first, second] : [second, first];
      inRound.push(compare(scenario.name, round, ref, base));
      log(`  round ${round} ${scenario.name}: ${Math.round(ref.requestsPerSecond)} vs ${Math.round(base.requestsPerSecond)} req/s`);
    }
    if (floor) {
      // The same round's machine: the floor at each scenario's CPU per request.
      const points = await measureFloor(floor, load);
      floors.push(points);
      for (const c of inRound) c.floorP99Ms = floorP99At(points, c.reference.cpuUsPerRequest);
      log(`  round ${round} floor: p99 ${points.map((p) => `${p.p99Ms.toFixed(2)} ms at ${Math.round(p.cpuUsPerRequest)} µs`).join(', ')}`);
    }
    comparisons.push(...inRound);
  }
  await stopAll();
  return { comparisons, floors };
}

async function searchStep(): Promise<SearchBench | undefined> {
  if (opts['skip-search'] || Number(opts.search) <= 0) return undefined;
  log('\nSearch at scale…');
  const result = await runSearchBench(Number(opts.search), Number(opts['search-runs']), log);
  log(
    `  first search (builds the index): ${result.firstSearchMs.toFixed(0)} ms; index heap: ${(result.indexHeapBytes / 1e6).toFixed(1)} MB (${Math.round(result.indexHeapBytes / result.entities)} B per entity), ${(result.withFullTextHeapBytes / 1e6).toFixed(1)} MB with the full-text index; a write then the search that finds it: ${result.writeThenFindMs.toFixed(1)} ms`,
  );
  log(
    table(
      ['call', 'p50 ms', 'p95 ms', 'max ms', 'total'],
      result.timings.map((t) => [t.name, t.p50Ms.toFixed(1), t.p95Ms.toFixed(1), t.maxMs.toFixed(1), t.total.toLocaleString('en-US')]),
    ),
  );
  return result;
}

const logTargets = (goals: ReturnType<typeof checkGoals>): void =>
  void log(
    `\nTargets:\n${table(
      ['target', 'measured', 'met'],
      goals.map((g) => [g.goal, g.measured, g.met ? 'yes' : 'NO']),
    )}`,
  );

async function main(): Promise<void> {
  if (opts['cpu-prof']) return profile();
  if (opts['search-only']) {
    const search = await searchStep();
    const goals = checkGoals([], undefined, undefined, [], undefined, search);
    logTargets(goals);
    mkdirSync(RESULTS, { recursive: true });
    // Alone, the search step writes its own file rather than replace the whole run's.
    const out = opts.out === join(RESULTS, 'latest.json') ? join(RESULTS, 'search.json') : opts.out;
    writeFileSync(
      out,
      `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadAverage: loadavg()[0], options: opts, search, goals }, null, 2)}\n`,
    );
    log(`\nwritten ${out}`);
    return;
  }
  const loadBefore = loadavg()[0]!;
  log(
    `catalog-kit bench — node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadBefore.toFixed(1)}, ${load.connections} connections, ${load.duration} s per scenario per round`,
  );
  if (loadBefore > cpus().length / 2)
    log(`WARNING: the machine is busy (load average ${loadBefore.toFixed(1)} on ${cpus().length} CPUs): absolute figures will be low and noisy; the same-round ratios less so`);
  const { comparisons, floors } = await compareAll();
  log(`\n${comparisonTable(comparisons)}`);
  log('ratio = reference ÷ baseline in the same round (req/s: higher is better; latency, RSS: lower is better)');
  if (floors.length) {
    log(
      "floor p99 = the host's floor at the reference's CPU per request: the p99 of a server that only spends that CPU per request, measured in the same round (bench/floor-app.ts)",
    );
    log(floorTable(floors));
  }
  for (const note of statusNotes(comparisons)) log(`  non-2xx: ${note}`);

  let durable: DurableWrites | undefined;
  if (!opts['skip-durable']) {
    log('\nWrites with --data (durable before answered) vs in memory, POST create…');
    durable = await runDurableWrites(load, Number(opts.rounds));
    for (const r of durable.rounds)
      log(
        `  round ${r.round}: ${Math.round(r.withData.requestsPerSecond)} vs ${Math.round(r.inMemory.requestsPerSecond)} req/s = ${r.ratio.toFixed(2)}x (p99 ${r.withData.p99Ms.toFixed(2)} vs ${r.inMemory.p99Ms.toFixed(2)} ms)`,
      );
  }

  let scale: ScaleResult | undefined;
  if (!opts['skip-scale'] && Number(opts.scale) > 0) {
    log('\nMemory and scale…');
    scale = await runScale(1000, Number(opts.scale), load, Number(opts.rounds), log);
    log(
      `  heap per stored container: ${Math.round(scale.heapBytesPerEntity)} B; its JSON: ${Math.round(scale.storedJsonBytesPerEntity)} B (${scale.heapToJsonRatio.toFixed(2)}x); a GET answer: ${scale.responseJsonBytes} B; ${scale.entities.toLocaleString('en-US')} created in ${scale.secondsToCreate.toFixed(1)} s via ${scale.method}`,
    );
    const rows = (runs: ScaleResult['small']) =>
      runs.rounds.map((t, i) => [
        runs.entities.toLocaleString('en-US'),
        String(i + 1),
        ...[t.getById, t.listPage].flatMap((m) => [String(Math.round(m.requestsPerSecond)), m.p50Ms.toFixed(2), m.p99Ms.toFixed(2), String(m.non2xx)]),
      ]);
    log(table(['containers', 'rnd', 'GET id req/s', 'p50', 'p99', 'non2xx', 'list req/s', 'p50', 'p99', 'non2xx'], [...rows(scale.small), ...rows(scale.large)]));
  }
  const search = await searchStep();
  let cold: ColdStartResult | undefined;
  let bare: CommandTiming | undefined;
  const commands: CommandTiming[] = [];
  if (!opts['skip-cold']) {
    cold = await runColdStart(Number(opts['cold-runs']), opts.fixtures);
    log(
      `\nCold start (${cold.command}, to the first authenticated 200): median ${cold.medianMs.toFixed(0)} ms of [${cold.runsMs.map((m) => m.toFixed(0)).join(', ')}]; containers at start: ${cold.containersAtStart}`,
    );
    for (const args of [['--help'], ['token']]) {
      const timing = await timeCommand(args, Math.max(5, Number(opts['cold-runs'])));
      commands.push(timing);
      log(`${timing.command}: median ${timing.medianMs.toFixed(0)} ms of [${timing.runsMs.map((m) => m.toFixed(0)).join(', ')}]`);
    }
    bare = await timeCommand([], Math.max(5, Number(opts['cold-runs'])), true);
    log(`${bare.command} (node's own start-up, for reference: not a target): median ${bare.medianMs.toFixed(0)} ms of [${bare.runsMs.map((m) => m.toFixed(0)).join(', ')}]`);
  }
  let conformance: ConformanceSpeed | undefined;
  if (!opts['skip-conformance']) {
    conformance = await runConformanceSpeed(['--runs', opts['conformance-runs'], '--seed', '1']);
    const c = conformance;
    if ('skipped' in c) log(`\nConformance suite wall time: skipped — ${c.skipped}`);
    else
      for (const r of c.runs)
        log(
          `\nConformance suite wall time (catalog-kit ${r.argv.join(' ')}): ${r.seconds.toFixed(1)} s spawn to exit (target ≤ ${r.targetSeconds} s: ${r.seconds <= r.targetSeconds ? 'met' : 'NOT met'}), ${r.requests} requests to the target, exit ${String(r.exitCode)}`,
        );
  }
  let inProcess: InProcessBench | undefined;
  if (!opts['skip-in-process']) {
    inProcess = await runInProcessBench(Number(opts['cold-runs']));
    const p = inProcess;
    log(
      'skipped' in p
        ? `\nThe catalog in process: skipped — ${p.skipped}`
        : `\nThe catalog in process (catalog-kit/fetch, median of ${p.runs} processes): import ${p.importMs.toFixed(0)} ms; createCatalog (demo catalog) ${p.firstCreateMs.toFixed(0)} ms, again ${p.secondCreateMs.toFixed(0)} ms; reset ${p.resetMedianMs.toFixed(2)} ms; GET by id through fetch ${p.getByIdMedianUs.toFixed(1)} µs median, ${p.getByIdP99Us.toFixed(1)} µs p99; browser build ${(p.browserBytes / 1e6).toFixed(2)} MB, ${(p.browserGzipBytes / 1e6).toFixed(2)} MB gzipped`,
    );
  }
  const goals = checkGoals(comparisons, scale, cold, commands, durable, search, inProcess);
  logTargets(goals);
  const p99 = worstP99(comparisons);
  if (p99) log(`Reported, not a target: ${p99}`);
  mkdirSync(RESULTS, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    options: opts,
    comparisons,
    floors,
    scale,
    search,
    coldStart: cold,
    commands,
    nodeItself: bare,
    durable,
    conformance,
    inProcess,
    goals,
  };
  writeFileSync(opts.out, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nwritten ${opts.out}`);
}

try {
  await main();
} finally {
  await stopAll();
}
