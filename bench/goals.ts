/** The performance targets, checked against one bench run (reported, never enforced). */
import type { ColdStartResult, CommandTiming } from './cold-start.ts';
import type { DurableWrites } from './durable-writes.ts';
import type { InProcessBench } from './in-process.ts';
import type { Comparison } from './report.ts';
import type { ScaleResult } from './scale.ts';
import type { SearchBench } from './search.ts';

export interface GoalCheck {
  goal: string;
  measured: string;
  met: boolean;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The req/s each scenario must reach, as a ratio to the plain-express baseline in the same round. */
const RATIO_TARGETS: readonly [string, number][] = [
  ['GET by id', 1.5],
  ['POST create', 1.0],
  ['mixed 70/20/10', 1.2],
];

/** The worst p99 of a run, with the host's floor beside it: reported, not a target. */
export function worstP99(comparisons: Comparison[]): string | undefined {
  if (!comparisons.length) return undefined;
  const worst = comparisons.reduce((a, b) => (b.reference.p99Ms > a.reference.p99Ms ? b : a));
  return `worst p99 ${worst.reference.p99Ms.toFixed(2)} ms (${worst.scenario}, round ${worst.round})${floorNote(worst)}`;
}

/** The host's floor beside a p99 (bench/floor.ts): what any server spending that CPU per request got in that round. */
const floorNote = (c: Comparison): string =>
  c.floorP99Ms === undefined ? '' : `; the host's floor at its ${Math.round(c.reference.cpuUsPerRequest)} µs of CPU per request: ${c.floorP99Ms.toFixed(2)} ms`;

export function checkGoals(
  comparisons: Comparison[],
  scale: ScaleResult | undefined,
  cold: ColdStartResult | undefined,
  commands: CommandTiming[] = [],
  durable?: DurableWrites,
  search?: SearchBench,
  inProcess?: InProcessBench,
): GoalCheck[] {
  const checks: GoalCheck[] = [];
  for (const [name, target] of RATIO_TARGETS) {
    const rows = comparisons.filter((c) => c.scenario === name);
    if (!rows.length) continue;
    const ratio = mean(rows.map((c) => c.ratios.requestsPerSecond));
    checks.push({ goal: `${name}: req/s ≥ ${target.toFixed(1)}x baseline`, measured: `${ratio.toFixed(2)}x (mean of ${rows.length} rounds)`, met: ratio >= target });
  }
  if (scale) {
    checks.push({
      goal: 'heap per stored entity ≤ 1.5x its JSON size',
      measured: `${scale.heapToJsonRatio.toFixed(2)}x (${Math.round(scale.heapBytesPerEntity)} B vs ${Math.round(scale.storedJsonBytesPerEntity)} B)`,
      met: scale.heapToJsonRatio <= 1.5,
    });
    const r = scale.ratios;
    checks.push({ goal: 'GET by id p50 at 100k within 1.2x of 1k', measured: `${r.getByIdP50.toFixed(2)}x (p99 ${r.getByIdP99.toFixed(2)}x)`, met: r.getByIdP50 <= 1.2 });
    checks.push({ goal: 'list page p50 at 100k within 1.2x of 1k', measured: `${r.listPageP50.toFixed(2)}x (p99 ${r.listPageP99.toFixed(2)}x)`, met: r.listPageP50 <= 1.2 });
  }
  if (durable)
    checks.push({
      goal: 'POST create with --data ≥ 0.5x in memory (req/s)',
      measured: `${durable.ratio.toFixed(2)}x (mean of ${durable.rounds.length} rounds)`,
      met: durable.ratio >= 0.5,
    });
  if (search?.timings.length) {
    const worst = search.timings.reduce((a, b) => (b.p50Ms > a.p50Ms ? b : a));
    checks.push({
      goal: `search at ${search.entities.toLocaleString('en-US')} entities < 50 ms (p50 of every call)`,
      measured: `worst ${worst.p50Ms.toFixed(1)} ms (${worst.name})`,
      met: worst.p50Ms < 50,
    });
  }
  if (inProcess && !('skipped' in inProcess)) {
    const p = inProcess;
    checks.push({
      goal: 'in process: createCatalog (demo catalog) ≤ 150 ms',
      measured: `${p.firstCreateMs.toFixed(0)} ms (median of ${p.runs}; again: ${p.secondCreateMs.toFixed(0)} ms)`,
      met: p.firstCreateMs <= 150,
    });
    checks.push({ goal: 'in process: reset() ≤ 20 ms', measured: `${p.resetMedianMs.toFixed(2)} ms`, met: p.resetMedianMs <= 20 });
    checks.push({
      goal: 'in process: GET by id through fetch ≤ 50 µs median',
      measured: `${p.getByIdMedianUs.toFixed(1)} µs (p99 ${p.getByIdP99Us.toFixed(1)} µs)`,
      met: p.getByIdMedianUs <= 50,
    });
    checks.push({
      goal: 'browser build ≤ 1 MB gzipped',
      measured: `${(p.browserGzipBytes / 1e6).toFixed(2)} MB (${(p.browserBytes / 1e6).toFixed(2)} MB minified)`,
      met: p.browserGzipBytes <= 1e6,
    });
  }
  if (cold) checks.push({ goal: 'cold start to the first authenticated 200 < 300 ms (median)', measured: `${cold.medianMs.toFixed(0)} ms`, met: cold.medianMs < 300 });
  for (const c of commands) checks.push({ goal: `\`${c.command}\` < 150 ms (median, spawn to exit)`, measured: `${c.medianMs.toFixed(0)} ms`, met: c.medianMs < 150 });
  return checks;
}
