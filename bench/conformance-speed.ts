/**
 * The conformance suite's own speed (docs/performance.md, "What one run does" step 4): requests per second it drives against the
 * local reference server, counted by the server, with the CPU time each side spent (which side
 * bounds the run). Uses `conformMain` of the built conformance/cli.ts (dist/) when it exists; otherwise says why not.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTarget } from './targets.ts';

// The built suite (dist/), as users run it.
const CLI = fileURLToPath(new URL('../dist/conformance/cli.js', import.meta.url));

export type ConformanceSpeed =
  | { skipped: string }
  | {
      argv: string[];
      requests: number;
      seconds: number;
      requestsPerSecond: number;
      /** CPU seconds spent by the server process and by the suite (this process) during the run. */
      serverCpuSeconds: number;
      suiteCpuSeconds: number;
      exitCode: unknown;
      outputTail: string;
    };

type Writer = (text: string) => void;
type Entry = { conformMain?: (argv: string[], deps: { stdout: Writer; stderr: Writer; handleSigint: boolean }) => Promise<unknown> };

export async function runConformanceSpeed(extraArgs: string[]): Promise<ConformanceSpeed> {
  if (!existsSync(CLI)) return { skipped: 'dist/conformance/cli.js does not exist: run npm run build' };
  const module = (await import(pathToFileURL(CLI).href)) as Entry;
  if (!module.conformMain) return { skipped: 'conformance/cli.ts does not export conformMain' };
  const target = await startTarget('reference');
  let output = '';
  const write: Writer = (t) => (output += t);
  try {
    const argv = ['--target', `${target.origin}/api`, '--token', target.token, ...extraArgs];
    type Cpu = { user: number; system: number };
    const cpuSeconds = (a: Cpu, b: Cpu) => (b.user + b.system - a.user - a.system) / 1e6;
    const [before, serverCpu0, suiteCpu0] = [await target.rpc<{ count: number }>('requests'), await target.rpc<Cpu>('cpu'), process.cpuUsage()];
    const started = performance.now();
    const exitCode = await module.conformMain(argv, { stdout: write, stderr: write, handleSigint: false });
    const seconds = (performance.now() - started) / 1000;
    const [after, serverCpu1, suiteCpu1] = [await target.rpc<{ count: number }>('requests'), await target.rpc<Cpu>('cpu'), process.cpuUsage()];
    const requests = after.count - before.count;
    return {
      argv: argv.map((a) => (a === target.token ? '<token>' : a)),
      requests,
      seconds,
      requestsPerSecond: requests / seconds,
      serverCpuSeconds: cpuSeconds(serverCpu0, serverCpu1),
      suiteCpuSeconds: cpuSeconds(suiteCpu0, suiteCpu1),
      exitCode,
      outputTail: output.slice(-600),
    };
  } catch (error) {
    return { skipped: `conformance run failed: ${error instanceof Error ? error.message : String(error)}; output: ${output.slice(-400)}` };
  } finally {
    await target.stop();
  }
}
