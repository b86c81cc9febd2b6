/**
 * A read's answer without relationship fields is rendered once per stored state and base URL and
 * kept: it is what `render` gives, it is never stale (a write stores a new state), its `href`s are
 * the reading client's, the store of kept answers is bounded, and the JSON sent is exactly
 * `JSON.stringify` of the answer.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { SLOW_START, startApp, v1 } from '../../test/kit.ts';
import type { StoredEntity } from '../store/entity-store.ts';
import type { Kind } from './context.ts';
import { isKeptAnswer, jsonOf, KEPT_BYTES_PER_GENERATION, keptPage, keptText, plainAnswer, renderAnswer } from './kept-answers.ts';
import { render } from './projection.ts';

const BASE = 'http://127.0.0.1:8585/api';
let app: TestApp;
let def: Kind;
let stored: () => StoredEntity;

beforeAll(async () => {
  app = await startApp();
  await app.create('services/storageServices', { name: 'kept', serviceType: 'S3', connection: { config: { type: 'S3' } } });
  const container = await app.create('containers', { name: 'bucket', service: 'kept', description: 'first' });
  def = app.ctx.kinds.of('container');
  stored = () => app.ctx.store.get(String(container.id))!;
}, SLOW_START);

describe('a kept answer', () => {
  it('is what render gives with no field asked for, frozen, and the same object for the same state and base URL', () => {
    const answer = plainAnswer(app.ctx, def, stored(), BASE);
    expect(answer).toEqual(render(app.ctx, def, stored(), new Set(), BASE));
    expect(Object.isFrozen(answer)).toBe(true);
    expect(isKeptAnswer(answer)).toBe(true);
    expect(plainAnswer(app.ctx, def, stored(), BASE)).toBe(answer);
  });

  it("carries the reading client's base URL in every href", () => {
    const other = plainAnswer(app.ctx, def, stored(), 'http://catalog.example:9000/api');
    expect(other.href).toBe(`http://catalog.example:9000/api/v1/containers/${stored().entity.id}`);
    expect((other.service as { href: string }).href).toMatch(/^http:\/\/catalog\.example:9000\/api\/v1\/services\/storageServices\//);
  });

  it('is rendered anew after a write: the new state shows the change', async () => {
    const before = plainAnswer(app.ctx, def, stored(), BASE);
    await app.patch(v1('containers', `/${String(before.id)}`), [{ op: 'replace', path: '/description', value: 'second' }]).expect(200);
    const after = plainAnswer(app.ctx, def, stored(), BASE);
    expect(after).not.toBe(before);
    expect(after.description).toBe('second');
    expect(before.description).toBe('first');
  });

  it('is kept only for the latest states read: two generations of at most KEPT_BYTES_PER_GENERATION of text', () => {
    const first = plainAnswer(app.ctx, def, stored(), BASE);
    const perGeneration = Math.ceil(KEPT_BYTES_PER_GENERATION / keptText(first)!.text.length);
    // Other states of the same entity (a write makes one): each takes its text's room among the kept.
    const others = Array.from({ length: 2 * perGeneration }, (_, i) => ({ ...stored(), entity: { ...stored().entity, description: `state ${String(i).padStart(6, '0')}` } }));
    for (const other of others.slice(0, perGeneration - 10)) plainAnswer(app.ctx, def, other, BASE);
    // Read again while in the older generation: moved to the newer, so still kept.
    expect(plainAnswer(app.ctx, def, stored(), BASE)).toBe(first);
    for (const other of others) plainAnswer(app.ctx, def, other, BASE);
    const again = plainAnswer(app.ctx, def, stored(), BASE);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('is used by renderAnswer only when no field is asked for', () => {
    expect(isKeptAnswer(renderAnswer(app.ctx, def, stored(), new Set(), BASE))).toBe(true);
    expect(isKeptAnswer(renderAnswer(app.ctx, def, stored(), new Set(['owners']), BASE))).toBe(false);
    expect(isKeptAnswer(renderAnswer(app.ctx, def, stored(), 'all', BASE))).toBe(false);
  });
});

describe('a kept page', () => {
  let builds = 0;
  const build = () => {
    builds++;
    return { data: [plainAnswer(app.ctx, def, stored(), BASE)], paging: { total: 1 } };
  };

  it('is built once per key, until an entity of its kind changes; its text is its JSON', async () => {
    builds = 0;
    const first = keptPage(app.ctx, 'container', 'page-a', build);
    expect(keptPage(app.ctx, 'container', 'page-a', build)).toBe(first);
    expect(builds).toBe(1);
    expect(keptText(first)!.text).toBe(JSON.stringify(first));
    expect(Object.isFrozen(first)).toBe(true);

    // A change of another kind leaves it kept.
    await app.create('services/storageServices', { name: app.unique('other'), serviceType: 'S3', connection: { config: { type: 'S3' } } });
    expect(keptPage(app.ctx, 'container', 'page-a', build)).toBe(first);
    // A change of one of its kind (any container), through the API: built again, showing it.
    await app.patch(v1('containers', `/${String(stored().entity.id)}`), [{ op: 'replace', path: '/description', value: 'changed for the page' }]).expect(200);
    const second = keptPage(app.ctx, 'container', 'page-a', build);
    expect(second).not.toBe(first);
    expect((second as { data: { description: string }[] }).data[0]!.description).toBe('changed for the page');
    expect(builds).toBe(2);
  });

  it('is built again after the store is cleared, and not kept when building it fails', async () => {
    // An app of its own: this one's store is cleared.
    const own = await startApp();
    const empty = () => ({ data: [], paging: { total: 0 } });
    const failing = () => {
      throw new Error('a broken cursor');
    };
    expect(() => keptPage(own.ctx, 'topic', 'page-c', failing)).toThrow('a broken cursor');
    let built = false;
    keptPage(own.ctx, 'topic', 'page-c', () => ((built = true), empty()));
    expect(built).toBe(true);
    const before = keptPage(own.ctx, 'topic', 'page-b', empty);
    expect(keptPage(own.ctx, 'topic', 'page-b', empty)).toBe(before);
    own.ctx.store.clear();
    expect(keptPage(own.ctx, 'topic', 'page-b', empty)).not.toBe(before);
  });
});

describe('never stale', () => {
  type Op = { op: 'create' | 'describe' | 'softDelete' | 'restore' | 'hardDelete'; name: string; text: string };
  const op = fc.record({
    op: fc.constantFrom<Op['op']>('create', 'describe', 'softDelete', 'restore', 'hardDelete'),
    name: fc.constantFrom('n0', 'n1', 'n2', 'n3'),
    text: fc.string({ maxLength: 8 }),
  });
  const SEED = 20_261_124;

  // The same reads answered without kept answers (`fields=tags`: a field is asked for, and tags are
  // shown by default anyway) must show what the kept ones show, after any sequence of writes.
  it('after any sequence of writes, a kept answer shows what an answer built anew shows', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const service = app.unique(`stale${run++}`);
        await app.create('services/storageServices', { name: service, serviceType: 'S3', connection: { config: { type: 'S3' } } });
        const ids = new Map<string, string>();
        const reads = () => [
          `?service=${service}&limit=2`,
          `?service=${service}&limit=10&include=all`,
          `?service=${service}&include=deleted`,
          ...[...ids.values()].map((id) => `/${id}?include=all`),
        ];
        for (const read of reads()) await app.get(v1('containers', read)); // kept before the writes
        for (const { op: what, name, text } of ops) {
          const id = ids.get(name);
          if (what === 'create') {
            const res = await app.post(v1('containers'), { name, service, description: text });
            if (res.status === 201) ids.set(name, String(res.body.id));
          } else if (id === undefined) {
            continue;
          } else if (what === 'describe') {
            await app.patch(v1('containers', `/${id}`), [{ op: 'add', path: '/description', value: text }]);
          } else if (what === 'softDelete') {
            await app.delete(v1('containers', `/${id}`));
          } else if (what === 'restore') {
            await app.put(v1('containers', '/restore'), { id });
          } else {
            await app.delete(v1('containers', `/${id}?hardDelete=true`));
            ids.delete(name);
          }
          for (const read of reads()) {
            const kept = await app.get(v1('containers', read));
            const sep = read.includes('?') ? '&' : '?';
            const built = await app.get(v1('containers', `${read}${sep}fields=tags`));
            expect(kept.status, read).toBe(built.status);
            expect(kept.body, `${read} after ${JSON.stringify(ops)}`).toEqual(built.body);
          }
        }
      }),
      {
        seed: SEED,
        numRuns: 15,
        reporter: (details) => {
          if (details.failed) throw new Error(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}\n(seed ${SEED})`);
        },
      },
    );
  });
});

describe('jsonOf', () => {
  const kept = () => plainAnswer(app.ctx, def, stored(), BASE);
  class Box {
    constructor(readonly data: unknown[]) {}
  }
  it.each<[string, () => unknown]>([
    ['a kept answer', () => kept()],
    ['a page of kept answers', () => ({ data: [kept(), kept()], paging: { total: 2, after: 'x' } })],
    ['a page mixing kept and other items', () => ({ data: [kept(), { id: 'plain', n: 1 }, null, kept()], paging: { total: 4 } })],
    ['a property without JSON (left out) and one whose key needs escaping', () => ({ data: [kept()], skipped: undefined, 'quo"te': 1, paging: {} })],
    ['integer-like keys (JSON.stringify writes them first)', () => ({ data: [kept()], 2: 'two', 1: 'one' })],
    ['a page of no kept answer', () => ({ data: [{ id: 'a' }], paging: { total: 1 } })],
    ['an array of kept answers at the top', () => [kept(), kept()]],
    ['an object of a class holding kept answers', () => new Box([kept()])],
    ['an empty page', () => ({ data: [], paging: { total: 0 } })],
    ['a string', () => 'text'],
    ['undefined', () => undefined],
  ])('%s: as JSON.stringify writes it', (_name, body) => {
    const value = body();
    expect(jsonOf(value)).toBe(JSON.stringify(value));
  });
});
