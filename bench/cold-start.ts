/**
 * Cold start: from spawning the built command (`node dist/bin/catalog-kit.js serve --port 0
 * --fixtures default`) to the first successful authenticated request, median of N. The token is
 * signed before the clock starts; the clock stops when `GET /api/v1/containers?limit=1` answers
 * 200. Also the short commands a user types (`--help`, `token`): spawn to exit.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { signToken } from '../src/auth/tokens.ts';

const BIN = fileURLToPath(new URL('../dist/bin/catalog-kit.js', import.meta.url));

function requireBuild(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface ColdStartResult {
  command: string;
  runsMs: number[];
  medianMs: number;
  /** What the first successful request saw: paging.total of containers (shows fixtures loaded). */
  containersAtStart: number;
}

async function once(args: string[], token: string): Promise<{ ms: number; containers: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /API base URL: (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    for (;;) {
      try {
        const response = await fetch(`${base}/v1/containers?limit=1`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await response.json()) as { paging?: { total?: number } };
        if (response.status === 200) return { ms: performance.now() - started, containers: body.paging?.total ?? 0 };
        if (performance.now() - started > 30_000) throw new Error(`no 200 after 30 s: ${response.status}`);
      } catch (error) {
        if (performance.now() - started > 30_000) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

export async function runColdStart(runs: number, fixtures: string): Promise<ColdStartResult> {
  requireBuild();
  const token = await signToken({ user: 'admin', role: 'Admin' });
  const args = ['serve', '--port', '0', '--fixtures', fixtures];
  const runsMs: number[] = [];
  let containers = 0;
  for (let i = 0; i < runs; i++) {
    const result = await once(args, token);
    runsMs.push(result.ms);
    containers = result.containers;
  }
  return { command: `node dist/bin/catalog-kit.js ${args.join(' ')}`, runsMs, medianMs: median(runsMs), containersAtStart: containers };
}

export interface CommandTiming {
  command: string;
  runsMs: number[];
  medianMs: number;
}

/**
 * Spawn to exit of a short command (median of N); it must exit 0. `bare`: `node -e 0`, node's own
 * start-up on this machine at this moment, printed beside the others so a slow run (a busy or
 * oversubscribed host: see `st` in top) shows as such.
 */
export async function timeCommand(args: string[], runs: number, bare = false): Promise<CommandTiming> {
  requireBuild();
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const child = spawn(process.execPath, bare ? ['-e', '0'] : [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`catalog-kit ${args.join(' ')} exited with ${code}: ${errors}`);
    runsMs.push(performance.now() - started);
  }
  return { command: bare ? 'node -e 0' : `catalog-kit ${args.join(' ')}`, runsMs, medianMs: median(runsMs) };
}
