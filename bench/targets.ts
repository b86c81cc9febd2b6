/**
 * The bench's side of a server under test: forks bench/target.ts, talks to it over IPC, seeds it
 * through its HTTP API (the same requests on both servers) and stops it.
 */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signToken } from '../src/auth/tokens.ts';

export type TargetKind = 'reference' | 'baseline' | 'scale' | 'floor';

export interface Target {
  kind: TargetKind;
  /** `http://127.0.0.1:<port>` — paths start with `/api`. */
  origin: string;
  token: string;
  fixtures: string;
  /** Seeded containers (read by the GET, list and upsert scenarios). */
  ids: string[];
  names: string[];
  /** `after` cursors of list pages, as the server handed them out. */
  cursors: string[];
  /** Containers reserved for the delete + restore cycle. */
  cyclePool: string[];
  /** The server's process id (its memory can be read from outside while its event loop is busy). */
  pid?: number | undefined;
  rpc<T>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

const TARGET_SCRIPT = fileURLToPath(new URL('./target.ts', import.meta.url));

export async function startTarget(kind: TargetKind, options: { fixtures?: string; data?: string; execArgv?: string[] } = {}): Promise<Target> {
  const args = [kind === 'scale' ? 'reference' : kind, ...(options.fixtures ? ['--fixtures', options.fixtures] : []), ...(options.data ? ['--data', options.data] : [])];
  const child = fork(TARGET_SCRIPT, args, { execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<{ origin: string; fixtures: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { origin: string; fixtures: string }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code} before it was ready`)));
  });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  child.on('message', (m: { id?: number }) => {
    if (m.id !== undefined) pending.get(m.id)?.(m);
    pending.delete(m.id ?? -1);
  });
  return {
    kind,
    ...ready,
    // Both servers get the same Authorization header; the baseline ignores it.
    token: await signToken({ user: 'admin', role: 'Admin', expires: '1d' }),
    ids: [],
    names: [],
    cursors: [],
    cyclePool: [],
    pid: child.pid,
    rpc: <T>(cmd: string, extra: Record<string, unknown> = {}) =>
      new Promise<T>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve as (value: unknown) => void);
        child.send({ id, cmd, ...extra });
      }),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ cmd: 'stop' });
  });
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

export async function call(target: Target, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${target.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

async function expectStatus(target: Target, expected: number, method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await call(target, method, path, body);
  if (answer.status !== expected) throw new Error(`seeding ${target.kind}: ${method} ${path} answered ${answer.status}, expected ${expected}: ${answer.text.slice(0, 300)}`);
  return answer;
}

export const SEED_SERVICE = 'bench';

/**
 * Seeds a storage service, `count` containers and a pool for the delete/restore cycle through the
 * API (20 requests in flight), then walks the list to collect real `after` cursors.
 */
export async function seed(target: Target, count: number, poolSize: number): Promise<void> {
  await expectStatus(target, 201, 'POST', '/api/v1/services/storageServices', { name: SEED_SERVICE, serviceType: 'S3', connection: { config: { type: 'S3' } } });
  const create = async (name: string) => {
    const answer = await expectStatus(target, 201, 'POST', '/api/v1/containers', { name, service: SEED_SERVICE, description: `Seeded container ${name}` });
    return (answer.body as { id: string }).id;
  };
  const names = Array.from({ length: count }, (_, i) => `seed-${String(i).padStart(6, '0')}`);
  target.names = names.map((n) => `${SEED_SERVICE}.${n}`);
  target.ids = await inBatches(names, create);
  target.cyclePool = await inBatches(
    Array.from({ length: poolSize }, (_, i) => `cycle-${String(i).padStart(6, '0')}`),
    create,
  );
  let after: string | undefined;
  for (let page = 0; page < Math.min(100, Math.floor(count / 10) - 1); page++) {
    const answer = await expectStatus(target, 200, 'GET', `/api/v1/containers?limit=10${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    after = (answer.body as { paging: { after?: string } }).paging.after;
    if (!after) break;
    target.cursors.push(after);
  }
}

async function inBatches<T>(items: string[], fn: (item: string) => Promise<T>, width = 20): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}
