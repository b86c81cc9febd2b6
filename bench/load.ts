/**
 * Drives a scenario with autocannon and measures it. Latencies are taken from autocannon's
 * per-response events (sub-millisecond; its own histogram rounds to whole milliseconds) and
 * statuses are counted per code, so an error-answering server is visible in the figures.
 */
import type { BenchRequest, RequestParams } from 'autocannon';
import autocannon from 'autocannon';
import type { Scenario, Step } from './scenarios.ts';
import type { Target } from './targets.ts';
import { call } from './targets.ts';

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
  rssBytes: number;
  /** Server CPU time (user + system) per request served while the load ran, µs: steadier than req/s on a busy machine. */
  cpuUsPerRequest: number;
  /** The server's GC pauses while the load ran: how many, their sum and the longest (ms). */
  gc: GcPauses;
}

export interface GcPauses {
  count: number;
  totalMs: number;
  maxMs: number;
}

export interface LoadOptions {
  duration: number;
  connections: number;
}

function toRequest(target: Pick<Target, 'token'>, step: Step): RequestParams {
  return {
    method: step.method,
    path: step.path,
    headers: { authorization: `Bearer ${target.token}`, ...(step.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
  };
}

/**
 * The scenario's steps as autocannon requests. autocannon's request defaults (hostname and port,
 * from which it writes the Host header) are kept: a request built from nothing went out as
 * `Host: undefined:undefined`, and every `href` the reference rendered was
 * `http://undefined:undefined/api/…`, a URI only the general `uri` format check accepts.
 */
export function benchRequests(target: Target, scenario: Scenario): BenchRequest[] {
  return scenario.steps(target).map((fn) => ({
    setupRequest: (defaults: RequestParams, context: Record<string, unknown>) => ({ ...defaults, ...toRequest(target, fn(context)) }),
  }));
}

type Cpu = { user: number; system: number };
type Count = { count: number };

/** What one drive of a target leaves, before any percentile: drives of the same target pool. */
export interface Sample {
  /** Every response's latency, ms. */
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
  seconds: number;
  /** Server CPU (user + system) and requests served between the drive's two readings. */
  cpuUs: number;
  served: number;
  gc: GcPauses;
  rssBytes: number;
}

export async function runLoad(target: Target, scenario: Scenario, options: LoadOptions): Promise<Measurement> {
  return summarize([await sample(target, scenario, options)]);
}

/**
 * The same scenario on several targets, in `slices` turns each of `duration ÷ slices` seconds, the
 * order reversed every turn (A B, B A, A B...), each target's turns pooled into one measurement.
 * For two servers compared under one load on a host whose speed moves from second to second: one
 * after the other, 3 s each, a slow second fell on one of them only.
 */
export async function runAlternating(
  targets: readonly Target[],
  scenario: Scenario,
  options: LoadOptions,
  slices: number,
  turn: (target: Target, scenario: Scenario, options: LoadOptions) => Promise<Sample> = sample,
): Promise<Measurement[]> {
  const samples: Sample[][] = targets.map(() => []);
  const slice = { ...options, duration: options.duration / slices };
  for (let n = 0; n < slices; n++) {
    const order = targets.map((_, i) => i);
    if (n % 2 === 1) order.reverse();
    for (const i of order) samples[i]!.push(await turn(targets[i]!, scenario, slice));
  }
  return samples.map(summarize);
}

/** Pools samples of one target: percentiles over every latency, rates over the total time. */
export function summarize(samples: readonly Sample[]): Measurement {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const statuses: Record<string, number> = {};
  for (const s of samples) for (const [status, n] of Object.entries(s.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const ok = Object.entries(statuses)
    .filter(([status]) => status.startsWith('2'))
    .reduce((a, [, n]) => a + n, 0);
  const sum = (pick: (s: Sample) => number) => samples.reduce((a, s) => a + pick(s), 0);
  const served = sum((s) => s.served);
  return {
    requestsPerSecond: total / sum((s) => s.seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    requests: total,
    non2xx: total - ok,
    errors: sum((s) => s.errors),
    statuses,
    rssBytes: samples.at(-1)?.rssBytes ?? NaN,
    cpuUsPerRequest: served > 0 ? sum((s) => s.cpuUs) / served : NaN,
    gc: { count: sum((s) => s.gc.count), totalMs: sum((s) => s.gc.totalMs), maxMs: Math.max(0, ...samples.map((s) => s.gc.maxMs)) },
  };
}

async function sample(target: Target, scenario: Scenario, options: LoadOptions): Promise<Sample> {
  const [cpuBefore, servedBefore] = [await target.rpc<Cpu>('cpu'), await target.rpc<Count>('requests')];
  await target.rpc<GcPauses>('gc');
  const driven = await drive(target, scenario, options);
  const gc = await target.rpc<GcPauses>('gc');
  const [cpuAfter, servedAfter] = [await target.rpc<Cpu>('cpu'), await target.rpc<Count>('requests')];
  const { rss } = await target.rpc<{ rss: number }>('memory');
  return {
    ...driven,
    cpuUs: cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system,
    served: servedAfter.count - servedBefore.count,
    gc: { count: gc.count, totalMs: gc.totalMs, maxMs: gc.maxMs },
    rssBytes: rss,
  };
}

function drive(target: Target, scenario: Scenario, options: LoadOptions): Promise<Pick<Sample, 'latencies' | 'statuses' | 'errors' | 'seconds'>> {
  const requests = benchRequests(target, scenario);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: target.origin, connections: options.connections, duration: options.duration, pipelining: 1, timeout: 10, requests }, (error, result) => {
      if (error) return reject(error);
      resolve({ latencies, statuses, errors: result.errors + result.timeouts, seconds: result.duration || options.duration });
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

/** Sends one cycle of the scenario with fetch; returns the problems (empty when correct). */
export async function checkScenario(target: Target, scenario: Scenario): Promise<string[]> {
  const problems: string[] = [];
  const cycle: Record<string, unknown> = {};
  for (const fn of scenario.steps(target)) {
    const step = fn(cycle);
    const answer = await call(target, step.method, step.path, step.body);
    const problem = answer.status !== step.expect ? `answered ${answer.status}, expected ${step.expect}` : step.verify?.(answer.body);
    if (problem) problems.push(`${target.kind} ${scenario.name}: ${step.method} ${step.path} ${problem}: ${answer.text.slice(0, 300)}`);
  }
  return problems;
}
