/**
 * Memory and scale (docs/performance.md, "What one run does" step 2): the reference server, in a process run with --expose-gc,
 * grows to 1,000 and then 100,000 containers. Containers are added with `createEntity`, the domain
 * function the POST handler calls after validation (HTTP would take minutes and stores exactly the
 * same objects). Heap per stored entity = heap growth after a full GC ÷ containers added; it counts
 * the store's indexes too. GET by id and list page are timed at both sizes with the same load.
 */
import type { LoadOptions, Measurement } from './load.ts';
import { runLoad } from './load.ts';
import { SCENARIOS } from './scenarios.ts';
import type { Target } from './targets.ts';
import { call, startTarget } from './targets.ts';

interface Grown {
  count: number;
  heapUsed: number;
  jsonBytes: number;
  ids: string[];
  cursors: string[];
}

export interface ScaleResult {
  method: string;
  entities: number;
  heapBytesPerEntity: number;
  storedJsonBytesPerEntity: number;
  responseJsonBytes: number;
  heapToJsonRatio: number;
  secondsToCreate: number;
  small: { entities: number; getById: Measurement; listPage: Measurement };
  large: { entities: number; getById: Measurement; listPage: Measurement };
  ratios: { getByIdP50: number; getByIdP99: number; getByIdRps: number; listPageP50: number; listPageP99: number; listPageRps: number };
}

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;

async function measureAt(target: Target, grown: Grown, load: LoadOptions) {
  target.ids = grown.ids;
  target.cursors = grown.cursors;
  return { entities: grown.count, getById: await runLoad(target, scenario('GET by id'), load), listPage: await runLoad(target, scenario('list page'), load) };
}

export async function runScale(small: number, large: number, load: LoadOptions, log: (line: string) => void): Promise<ScaleResult> {
  const target = await startTarget('scale', { execArgv: ['--expose-gc'] });
  try {
    const empty = await target.rpc<Grown>('grow', { to: 0 });
    const atSmall = await target.rpc<Grown>('grow', { to: small, sample: 500 });
    await runLoad(target, scenario('GET by id'), { ...load, duration: 1 }); // warm-up (JIT, lazy validators)
    const smallRun = await measureAt(target, atSmall, load);
    log(`  ${small.toLocaleString('en-US')} containers measured; creating ${large.toLocaleString('en-US')}…`);
    const started = performance.now();
    const atLarge = await target.rpc<Grown>('grow', { to: large, sample: 500 });
    const secondsToCreate = (performance.now() - started) / 1000;
    const largeRun = await measureAt(target, atLarge, load);
    const sampleBody = await call(target, 'GET', `/api/v1/containers/${atLarge.ids[0]}`);
    const heapBytesPerEntity = (atLarge.heapUsed - empty.heapUsed) / atLarge.count;
    const r = (a: number, b: number) => a / b;
    return {
      method: 'createEntity() (the domain function behind POST), in the server process',
      entities: atLarge.count,
      heapBytesPerEntity,
      storedJsonBytesPerEntity: atLarge.jsonBytes,
      responseJsonBytes: Buffer.byteLength(sampleBody.text),
      heapToJsonRatio: heapBytesPerEntity / atLarge.jsonBytes,
      secondsToCreate,
      small: smallRun,
      large: largeRun,
      ratios: {
        getByIdP50: r(largeRun.getById.p50Ms, smallRun.getById.p50Ms),
        getByIdP99: r(largeRun.getById.p99Ms, smallRun.getById.p99Ms),
        getByIdRps: r(largeRun.getById.requestsPerSecond, smallRun.getById.requestsPerSecond),
        listPageP50: r(largeRun.listPage.p50Ms, smallRun.listPage.p50Ms),
        listPageP99: r(largeRun.listPage.p99Ms, smallRun.listPage.p99Ms),
        listPageRps: r(largeRun.listPage.requestsPerSecond, smallRun.listPage.requestsPerSecond),
      },
    };
  } finally {
    await target.stop();
  }
}
