/**
 * `catalog-kit drift`: the suite's generated sequences against a target and a reference, answers
 * compared pair by pair (conformance/drift/; its options and `--help` are in conformance/drift/cli.ts).
 * Without `--reference` the reference is the catalog of the same profile in process, as `conform`
 * takes it (./conform.ts); it is imported only then.
 */
import { driftMain } from '../../../conformance/drift/cli.ts';
import type { Io } from './main.ts';

export async function runDrift(argv: string[], io: Io): Promise<number> {
  return driftMain(argv, {
    stdout: io.out,
    stderr: io.err,
    startReference: async (opts) => (await import('./conform.ts')).startReference(opts),
  });
}
