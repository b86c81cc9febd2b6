/**
 * The bench's output: each scenario × round as reference vs baseline with ratios (reference ÷
 * baseline measured in the same round), as a terminal table and as JSON.
 */
import type { FloorPoint } from './floor.ts';
import type { Measurement } from './load.ts';

export interface Comparison {
  scenario: string;
  round: number;
  reference: Measurement;
  baseline: Measurement;
  ratios: { requestsPerSecond: number; p50Ms: number; p99Ms: number; rssBytes: number; cpuUsPerRequest: number };
  /** The host's floor (bench/floor.ts) at the reference's CPU per request, in the same round; undefined when not measured or out of its range. */
  floorP99Ms?: number | undefined;
}

export function compare(scenario: string, round: number, reference: Measurement, baseline: Measurement): Comparison {
  const r = (a: number, b: number) => (b > 0 ? a / b : NaN);
  return {
    scenario,
    round,
    reference,
    baseline,
    ratios: {
      requestsPerSecond: r(reference.requestsPerSecond, baseline.requestsPerSecond),
      p50Ms: r(reference.p50Ms, baseline.p50Ms),
      p99Ms: r(reference.p99Ms, baseline.p99Ms),
      rssBytes: r(reference.rssBytes, baseline.rssBytes),
      cpuUsPerRequest: r(reference.cpuUsPerRequest, baseline.cpuUsPerRequest),
    },
  };
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');
const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '-');
const mb = (n: number) => (n / 1048576).toFixed(0);

/** Renders rows of cells as a fixed-width table (first column left-aligned, the rest right). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Milliseconds of GC pause per second of load. */
function gcShare(m: Measurement): number {
  const seconds = m.requests / m.requestsPerSecond;
  return seconds > 0 ? m.gc.totalMs / seconds : NaN;
}

export function comparisonTable(comparisons: Comparison[]): string {
  const header = [
    'scenario',
    'rnd',
    'req/s ref',
    'base',
    'ratio',
    'p50 ms ref',
    'base',
    'ratio',
    'p99 ms ref',
    'base',
    'ratio',
    'floor p99',
    'CPU µs/req ref',
    'base',
    'ratio',
    'non2xx ref',
    'base',
    'RSS MB ref',
    'base',
    'ratio',
    'GC max ms ref',
    'base',
    'GC ms/s ref',
    'base',
  ];
  const rows = comparisons.map((c) => [
    c.scenario,
    String(c.round),
    int(c.reference.requestsPerSecond),
    int(c.baseline.requestsPerSecond),
    x(c.ratios.requestsPerSecond),
    ms(c.reference.p50Ms),
    ms(c.baseline.p50Ms),
    x(c.ratios.p50Ms),
    ms(c.reference.p99Ms),
    ms(c.baseline.p99Ms),
    x(c.ratios.p99Ms),
    c.floorP99Ms === undefined ? '-' : ms(c.floorP99Ms),
    int(c.reference.cpuUsPerRequest),
    int(c.baseline.cpuUsPerRequest),
    x(c.ratios.cpuUsPerRequest),
    int(c.reference.non2xx + c.reference.errors),
    int(c.baseline.non2xx + c.baseline.errors),
    mb(c.reference.rssBytes),
    mb(c.baseline.rssBytes),
    x(c.ratios.rssBytes),
    ms(c.reference.gc.maxMs),
    ms(c.baseline.gc.maxMs),
    ms(gcShare(c.reference)),
    ms(gcShare(c.baseline)),
  ]);
  return table(header, rows);
}

/** The host's floor of each round: the floor server's p99 at each amount of work per request. */
export function floorTable(floors: FloorPoint[][]): string {
  const rows = floors.flatMap((points, i) => points.map((p) => [String(i + 1), int(p.workUs), int(p.cpuUsPerRequest), int(p.requestsPerSecond), ms(p.p50Ms), ms(p.p99Ms)]));
  return table(['floor rnd', 'work µs', 'CPU µs/req', 'req/s', 'p50 ms', 'p99 ms'], rows);
}

/** Statuses other than 2xx, per scenario and server, so a non-2xx count can be read. */
export function statusNotes(comparisons: Comparison[]): string[] {
  const notes: string[] = [];
  for (const c of comparisons) {
    for (const [side, m] of [
      ['reference', c.reference],
      ['baseline', c.baseline],
    ] as const) {
      const bad = Object.entries(m.statuses).filter(([s]) => !s.startsWith('2'));
      if (bad.length || m.errors)
        notes.push(`${c.scenario} round ${c.round} ${side}: ${bad.map(([s, n]) => `${n}×${s}`).join(', ')}${m.errors ? ` ${m.errors} socket errors/timeouts` : ''}`);
    }
  }
  return notes;
}
