/**
 * The mixed load of the soak (docs/limits.md "Soak and fuzz"): concurrent clients that create, upsert, soft delete,
 * restore, hard delete (also recursively), follow, vote and read, all inside a small shared pool of
 * names so that they race with each other (409s and 404s are expected; a 5xx never is).
 *
 * The pool is bounded (SERVICES services, CONTAINERS containers each, NESTED nested containers
 * each) and services are hard-deleted now and then, so the state and its version histories stay
 * bounded however long the load runs: memory that keeps growing is a leak, not data.
 */
const SERVICES = 6;
const CONTAINERS = 8;
const NESTED = 4;
const SERVICE_PREFIX = 'soak-s';

export interface LoadTarget {
  baseUrl: string;
  admin: string;
  /** Bearer headers and ids of users that follow and vote (DataConsumer may do both). */
  fans: { auth: string; id: string }[];
}

export interface LoadStats {
  requests: number;
  statuses: Record<number, number>;
  ops: Record<string, number>;
  /** First few 5xx answers and transport failures, for the report. */
  failures: string[];
  serverErrors: number;
  transportErrors: number;
}

export const newStats = (): LoadStats => ({ requests: 0, statuses: {}, ops: {}, failures: [], serverErrors: 0, transportErrors: 0 });

/** A small seeded generator (mulberry32): the choice of operations is reproducible per client. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Known {
  id: string;
  service: string;
}

/** What the clients have seen (best effort: other clients make it stale, which only gives 404s). */
class Seen {
  readonly containers = new Map<string, Known>();
  readonly services = new Map<string, string>();
  note(body: unknown, service: string): void {
    const b = body as { id?: unknown; fullyQualifiedName?: unknown } | undefined;
    if (typeof b?.id !== 'string' || typeof b.fullyQualifiedName !== 'string') return;
    if (b.fullyQualifiedName === service) this.services.set(service, b.id);
    else this.containers.set(b.fullyQualifiedName, { id: b.id, service });
  }
  forgetContainer(id: string): void {
    for (const [fqn, c] of this.containers) if (c.id === id) this.containers.delete(fqn);
  }
  forget(service: string): void {
    for (const [fqn, c] of this.containers) if (c.service === service) this.containers.delete(fqn);
  }
  pick(rand: () => number): Known | undefined {
    const all = [...this.containers.values()];
    return all.length ? all[Math.floor(rand() * all.length)] : undefined;
  }
}

const serviceBody = (name: string, description?: string) => ({
  name,
  serviceType: 'CustomStorage',
  connection: { config: { type: 'CustomStorage' } },
  ...(description ? { description } : {}),
});

type Op = (c: Client) => Promise<unknown>;

/** Weighted operations; hard deletes of whole services keep the pool bounded. */
const OPS: [string, number, Op][] = [
  ['createService', 4, (c) => c.send('POST', '/services/storageServices', serviceBody(c.service), c.service)],
  ['upsertService', 3, (c) => c.send('PUT', '/services/storageServices', serviceBody(c.service, `d${c.int(5)}`), c.service)],
  ['createContainer', 16, (c) => c.send('POST', '/containers', { name: `c${c.int(CONTAINERS)}`, service: c.service }, c.service)],
  [
    'createNested',
    8,
    async (c) => {
      const parent = c.seen.pick(c.rand);
      if (parent) await c.send('POST', '/containers', { name: `n${c.int(NESTED)}`, service: parent.service, parent: { id: parent.id, type: 'container' } }, parent.service);
    },
  ],
  ['upsertContainer', 10, (c) => c.send('PUT', '/containers', { name: `c${c.int(CONTAINERS)}`, service: c.service, description: `d${c.int(5)}` }, c.service)],
  [
    'bulkUpsert',
    2,
    (c) =>
      c.send(
        'PUT',
        '/containers/bulk',
        [0, 1, 2].map(() => ({ name: `c${c.int(CONTAINERS)}`, service: c.service, description: `b${c.int(3)}` })),
        c.service,
      ),
  ],
  ['softDelete', 8, (c) => c.onContainer((k) => c.send('DELETE', `/containers/${k.id}?recursive=${c.rand() < 0.5}`, undefined, k.service))],
  ['restore', 8, (c) => c.onContainer((k) => c.send('PUT', '/containers/restore', { id: k.id }, k.service))],
  ['hardDelete', 3, (c) => c.onContainer((k) => c.send('DELETE', `/containers/${k.id}?hardDelete=true&recursive=${c.rand() < 0.7}`, undefined, k.service))],
  ['recursiveSoftDeleteService', 2, (c) => c.send('DELETE', `/services/storageServices/name/${c.service}?recursive=true`, undefined, c.service)],
  [
    'restoreService',
    4,
    async (c) => {
      const id = c.seen.services.get(c.service);
      if (id) await c.send('PUT', '/services/storageServices/restore', { id }, c.service);
    },
  ],
  ['recursiveHardDeleteService', 1, (c) => c.hardDeleteService(c.service)],
  ['follow', 8, (c) => c.onContainer((k) => c.send('PUT', `/containers/${k.id}/followers`, c.fan.id, k.service, c.fan.auth))],
  ['unfollow', 4, (c) => c.onContainer((k) => c.send('DELETE', `/containers/${k.id}/followers/${c.fan.id}`, undefined, k.service, c.fan.auth))],
  ['vote', 8, (c) => c.onContainer((k) => c.send('PUT', `/containers/${k.id}/vote`, { updatedVoteType: ['votedUp', 'votedDown', 'unVoted'][c.int(3)] }, k.service, c.fan.auth))],
  ['read', 6, (c) => c.send('GET', `/containers?service=${c.service}&include=all&limit=${1 + c.int(20)}&fields=followers,votes`, undefined, c.service)],
];
const TOTAL_WEIGHT = OPS.reduce((sum, [, w]) => sum + w, 0);

class Client {
  service = `${SERVICE_PREFIX}0`;
  fan: LoadTarget['fans'][number];
  readonly rand: () => number;

  constructor(
    private readonly target: LoadTarget,
    readonly seen: Seen,
    private readonly stats: LoadStats,
    seed: number,
  ) {
    this.rand = prng(seed);
    this.fan = target.fans[0]!;
  }

  int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  async step(): Promise<void> {
    this.service = `${SERVICE_PREFIX}${this.int(SERVICES)}`;
    this.fan = this.target.fans[this.int(this.target.fans.length)]!;
    let r = this.rand() * TOTAL_WEIGHT;
    const [name, , op] = OPS.find(([, w]) => (r -= w) < 0) ?? OPS[0]!;
    this.stats.ops[name] = (this.stats.ops[name] ?? 0) + 1;
    await op(this);
  }

  /** Runs `fn` on a container seen earlier; one that is gone (404) is forgotten. */
  async onContainer(fn: (k: Known) => Promise<number | undefined>): Promise<void> {
    const k = this.seen.pick(this.rand);
    if (k && (await fn(k)) === 404) this.seen.forgetContainer(k.id);
  }

  async hardDeleteService(name: string): Promise<void> {
    await this.send('DELETE', `/services/storageServices/name/${name}?hardDelete=true&recursive=true`, undefined, name);
  }

  /** Sends one request and records it; returns the status (undefined when nothing came back). */
  async send(method: string, path: string, body: unknown, service: string, auth = this.target.admin): Promise<number | undefined> {
    const headers: Record<string, string> = { authorization: auth, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    this.stats.requests += 1;
    let status: number;
    let text: string;
    try {
      const res = await fetch(`${this.target.baseUrl}/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      this.stats.transportErrors += 1;
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      if (this.stats.failures.length < 10) this.stats.failures.push(`${method} ${path}: no answer (${cause})`);
      return undefined;
    }
    this.stats.statuses[status] = (this.stats.statuses[status] ?? 0) + 1;
    if (status >= 500) {
      this.stats.serverErrors += 1;
      if (this.stats.failures.length < 10) this.stats.failures.push(`${method} ${path} ${body === undefined ? '' : JSON.stringify(body)} → ${status} ${text.slice(0, 300)}`);
      return status;
    }
    if (status >= 300) return status;
    if (method === 'DELETE' && path.includes('hardDelete=true') && path.startsWith('/services/')) {
      this.seen.forget(service);
      this.seen.services.delete(service);
      return status;
    }
    if (text && !path.includes('/bulk') && method !== 'GET') this.seen.note(JSON.parse(text), service);
    return status;
  }
}

/** Runs `clients` clients until `until()` is true; resolves when every request in flight is answered. */
export async function runLoad(target: LoadTarget, stats: LoadStats, opts: { clients: number; seed: number; until: () => boolean }): Promise<void> {
  const seen = new Seen();
  await Promise.all(
    Array.from({ length: opts.clients }, async (_, i) => {
      const client = new Client(target, seen, stats, opts.seed * 1000 + i);
      while (!opts.until()) await client.step();
    }),
  );
}

/** Hard-deletes every service of the pool, with everything under it (404s are fine). */
export async function removePool(target: LoadTarget, stats: LoadStats): Promise<void> {
  const client = new Client(target, new Seen(), stats, 0);
  for (let i = 0; i < SERVICES; i++) await client.hardDeleteService(`${SERVICE_PREFIX}${i}`);
}
