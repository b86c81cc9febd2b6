/**
 * Memory and scale (docs/performance.md "What a run does"): two reference servers, in
 * processes run with --expose-gc, grow to 1,000 and to 100,000 containers. Containers are added with
 * `createEntity`, the domain function the POST handler calls after validation (HTTP would take
 * minutes and stores exactly the same objects). Heap per stored entity = heap growth after a full GC
 * ÷ containers added; it counts the store's indexes too. GET by id and list page are timed at both
 * sizes with the same load, the two servers alternating in every round as the reference and the
 * baseline do, and within a round in short turns (SLICES): timed one after the other, once each, the
 * ratio moved with the machine's load between the two (0.80x to 1.65x for the same build,
 * docs/performance.md).
 */
import type { LoadOptions, Measurement } from './load.ts';
import { runAlternating, runLoad } from './load.ts';
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
  small: SizeRuns;
  large: SizeRuns;
  /** Large ÷ small in each round, then the mean over the rounds. */
  ratios: { getByIdP50: number; getByIdP99: number; getByIdRps: number; listPageP50: number; listPageP99: number; listPageRps: number };
}

interface Timed {
  getById: Measurement;
  listPage: Measurement;
}

/** One size's measurements, one per round. */
interface SizeRuns {
  entities: number;
  rounds: Timed[];
}

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;

/**
 * Each size's 3 s of a scenario, as 6 turns of 0.5 s alternating with the other size's: timed one
 * after the other, once each, a slow second of the host fell on one size only, and the ratio went
 * over 1.2x in runs where the step alone stayed within.
 */
const SLICES = 6;

function aim(target: Target, grown: Grown): void {
  target.ids = grown.ids;
  target.cursors = grown.cursors;
}

export async function runScale(small: number, large: number, load: LoadOptions, rounds: number, log: (line: string) => void): Promise<ScaleResult> {
  const [smallTarget, largeTarget] = await Promise.all([startTarget('scale', { execArgv: ['--expose-gc'] }), startTarget('scale', { execArgv: ['--expose-gc'] })]);
  try {
    const empty = await largeTarget.rpc<Grown>('grow', { to: 0 });
    aim(smallTarget, await smallTarget.rpc<Grown>('grow', { to: small, sample: 500 }));
    log(`  ${small.toLocaleString('en-US')} containers in one server; creating ${large.toLocaleString('en-US')} in the other…`);
    const started = performance.now();
    const atLarge = await largeTarget.rpc<Grown>('grow', { to: large, sample: 500 });
    const secondsToCreate = (performance.now() - started) / 1000;
    aim(largeTarget, atLarge);
    for (const target of [smallTarget, largeTarget]) await runLoad(target, scenario('GET by id'), { ...load, duration: 1 }); // warm-up (JIT, lazy validators)
    const runs = { small: [] as Timed[], large: [] as Timed[] };
    for (let round = 0; round < rounds; round++) {
      // Both sizes under one scenario, in alternating slices ([small, large], the first alternating by round).
      const both = async (name: string): Promise<[Measurement, Measurement]> => {
        if (round % 2 === 0) {
          const [atSmall, atLarge] = await runAlternating([smallTarget, largeTarget], scenario(name), load, SLICES);
          return [atSmall!, atLarge!];
        }
        const [atLarge, atSmall] = await runAlternating([largeTarget, smallTarget], scenario(name), load, SLICES);
        return [atSmall!, atLarge!];
      };
      const [getById, listPage] = [await both('GET by id'), await both('list page')];
      runs.small.push({ getById: getById[0], listPage: listPage[0] });
      runs.large.push({ getById: getById[1], listPage: listPage[1] });
    }
    const sampleBody = await call(largeTarget, 'GET', `/api/v1/containers/${atLarge.ids[0]}`);
    const heapBytesPerEntity = (atLarge.heapUsed - empty.heapUsed) / atLarge.count;
    const mean = (pick: (t: Timed) => number) => runs.large.reduce((sum, t, i) => sum + pick(t) / pick(runs.small[i]!), 0) / rounds;
    return {
      method: 'createEntity() (the domain function behind POST), in the server process',
      entities: atLarge.count,
      heapBytesPerEntity,
      storedJsonBytesPerEntity: atLarge.jsonBytes,
      responseJsonBytes: Buffer.byteLength(sampleBody.text),
      heapToJsonRatio: heapBytesPerEntity / atLarge.jsonBytes,
      secondsToCreate,
      small: { entities: small, rounds: runs.small },
      large: { entities: atLarge.count, rounds: runs.large },
      ratios: {
        getByIdP50: mean((t) => t.getById.p50Ms),
        getByIdP99: mean((t) => t.getById.p99Ms),
        getByIdRps: mean((t) => t.getById.requestsPerSecond),
        listPageP50: mean((t) => t.listPage.p50Ms),
        listPageP99: mean((t) => t.listPage.p99Ms),
        listPageRps: mean((t) => t.listPage.requestsPerSecond),
      },
    };
  } finally {
    await Promise.all([smallTarget.stop(), largeTarget.stop()]);
  }
}
