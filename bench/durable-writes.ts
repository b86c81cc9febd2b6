/**
 * Writes with `--data` against writes in memory: the same reference server, once with a data file
 * (each answered write is durable first) and once without, under the same POST create load, in
 * alternating order. The ratio is the cost of durability.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadOptions, Measurement } from './load.ts';
import { runLoad } from './load.ts';
import { SCENARIOS } from './scenarios.ts';
import { seed, startTarget } from './targets.ts';

export interface DurableWrites {
  rounds: { round: number; withData: Measurement; inMemory: Measurement; ratio: number }[];
  /** Mean of the rounds' req/s ratios (with `--data` ÷ in memory). */
  ratio: number;
}

export async function runDurableWrites(load: LoadOptions, rounds: number): Promise<DurableWrites> {
  const scenario = SCENARIOS.find((s) => s.name === 'POST create');
  if (!scenario) throw new Error('the POST create scenario is missing');
  const dir = mkdtempSync(join(tmpdir(), 'catalog-kit-bench-data-'));
  const withData = await startTarget('reference', { data: join(dir, 'state.json') });
  const inMemory = await startTarget('reference');
  try {
    for (const target of [withData, inMemory]) await seed(target, 10, 0);
    const results: DurableWrites['rounds'] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? [withData, inMemory] : [inMemory, withData];
      const [first, second] = [await runLoad(order[0]!, scenario, load), await runLoad(order[1]!, scenario, load)];
      const [d, m] = order[0] === withData ? [first, second] : [second, first];
      results.push({ round, withData: d, inMemory: m, ratio: d.requestsPerSecond / m.requestsPerSecond });
    }
    return { rounds: results, ratio: results.reduce((sum, r) => sum + r.ratio, 0) / results.length };
  } finally {
    await Promise.all([withData.stop(), inMemory.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
