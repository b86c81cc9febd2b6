/**
 * The conformance suite's wall time, as a CI job waits for it (docs/performance.md "What a run does"): a default `catalog-kit conform` and a default `catalog-kit drift` (its reference
 * in-process), each the built command spawned against the reference server in another process,
 * timed from spawn to exit. The server counts the requests each run made. Targets: conform ≤ 10 s,
 * drift ≤ 20 s. Runs the built command (dist/); says why not when it is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTarget } from './targets.ts';

const BIN = fileURLToPath(new URL('../dist/bin/catalog-kit.js', import.meta.url));

/** What a default run must not exceed, spawn to exit. */
const TARGET_SECONDS = { conform: 10, drift: 20 } as const;

interface CommandRun {
  command: 'conform' | 'drift';
  argv: string[];
  seconds: number;
  requests: number;
  exitCode: number | null;
  targetSeconds: number;
  outputTail: string;
}

export type ConformanceSpeed = { skipped: string } | { runs: CommandRun[] };

function timed(args: string[]): Promise<{ seconds: number; exitCode: number | null; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
  return new Promise((resolve) => child.once('exit', (exitCode) => resolve({ seconds: (performance.now() - started) / 1000, exitCode, output })));
}

export async function runConformanceSpeed(extraArgs: string[]): Promise<ConformanceSpeed> {
  if (!existsSync(BIN)) return { skipped: 'dist/bin/catalog-kit.js does not exist: run npm run build' };
  const target = await startTarget('reference');
  try {
    const runs: CommandRun[] = [];
    for (const command of ['conform', 'drift'] as const) {
      const argv = [command, '--target', `${target.origin}/api`, '--token', target.token, ...extraArgs];
      const before = await target.rpc<{ count: number }>('requests');
      const { seconds, exitCode, output } = await timed(argv);
      const after = await target.rpc<{ count: number }>('requests');
      runs.push({
        command,
        argv: argv.map((a) => (a === target.token ? '<token>' : a)),
        seconds,
        requests: after.count - before.count,
        exitCode,
        targetSeconds: TARGET_SECONDS[command],
        outputTail: output.slice(-400),
      });
    }
    return { runs };
  } finally {
    await target.stop();
  }
}
