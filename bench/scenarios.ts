/**
 * The load scenarios of docs/performance.md ("What a run does"). A scenario is a cycle of steps; autocannon replays the cycle on
 * every connection (one step per request, `setupRequest` building each one fresh, so bodies and
 * names are unique), and the correctness check sends one cycle with fetch before any timing.
 * Steps of one cycle share a context object (the delete step leaves the id for the restore step).
 */
import type { Target } from './targets.ts';
import { SEED_SERVICE } from './targets.ts';

export interface Step {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** The status a correct server answers. */
  expect: number;
  /** Extra check of the answer body (correctness check only): a problem, or undefined. */
  verify?: (body: unknown) => string | undefined;
}

type StepFn = (cycle: Record<string, unknown>) => Step;

export interface Scenario {
  name: string;
  steps(target: Target): StepFn[];
}

let unique = 0;
const api = '/api/v1/containers';
const pick = <T>(list: readonly T[]): T => list[unique++ % list.length]!;

const getById =
  (t: Target): StepFn =>
  () => {
    const id = pick(t.ids);
    return { method: 'GET', path: `${api}/${id}`, expect: 200, verify: (b) => ((b as { id?: string }).id === id ? undefined : `id is not ${id}`) };
  };
const create =
  (t: Target): StepFn =>
  () => {
    const name = `new-${t.kind}-${process.pid}-${unique++}`;
    return {
      method: 'POST',
      path: api,
      body: { name, service: SEED_SERVICE, description: 'created by the bench' },
      expect: 201,
      verify: (b) => ((b as { name?: string }).name === name ? undefined : `name is not ${name}`),
    };
  };
const listPage =
  (t: Target, query = ''): StepFn =>
  () => ({
    method: 'GET',
    path: `${api}?limit=10&after=${encodeURIComponent(pick(t.cursors))}${query}`,
    expect: 200,
    verify: (b) => ((b as { data?: unknown[] }).data?.length === 10 ? undefined : 'the page does not hold 10 items'),
  });
const upsert =
  (t: Target): StepFn =>
  () => {
    const fqn = pick(t.names);
    return { method: 'PUT', path: api, body: { name: fqn.slice(SEED_SERVICE.length + 1), service: SEED_SERVICE, description: `changed ${unique++}` }, expect: 200 };
  };

export const SCENARIOS: readonly Scenario[] = [
  { name: 'GET by id', steps: (t) => [getById(t)] },
  {
    name: 'GET by name',
    steps: (t) => [
      () => {
        const fqn = pick(t.names);
        return {
          method: 'GET',
          path: `${api}/name/${encodeURIComponent(fqn)}`,
          expect: 200,
          verify: (b) => ((b as { fullyQualifiedName?: string }).fullyQualifiedName === fqn ? undefined : `fqn is not ${fqn}`),
        };
      },
    ],
  },
  { name: 'list page', steps: (t) => [listPage(t)] },
  // A UI's list view: the relationship fields a table of entities shows.
  { name: 'list fields=owners,tags,followers', steps: (t) => [listPage(t, '&fields=owners,tags,followers')] },
  // A page read right after a write to its kind: what a UI does after a save.
  { name: 'list after write', steps: (t) => [upsert(t), listPage(t)] },
  { name: 'POST create', steps: (t) => [create(t)] },
  { name: 'PUT upsert', steps: (t) => [upsert(t)] },
  {
    name: 'delete+restore',
    steps: (t) => [
      (cycle) => {
        cycle.id = pick(t.cyclePool);
        return { method: 'DELETE', path: `${api}/${String(cycle.id)}`, expect: 200, verify: (b) => ((b as { deleted?: boolean }).deleted === true ? undefined : 'not deleted') };
      },
      (cycle) => ({
        method: 'PUT',
        path: `${api}/restore`,
        body: { id: cycle.id },
        expect: 200,
        verify: (b) => ((b as { deleted?: boolean }).deleted === false ? undefined : 'not restored'),
      }),
    ],
  },
  {
    // 70% reads, 20% creates, 10% updates, interleaved.
    name: 'mixed 70/20/10',
    steps: (t) => {
      const [r, c, u] = [getById(t), create(t), upsert(t)];
      return [r, r, c, r, r, u, r, r, c, r];
    },
  },
];
