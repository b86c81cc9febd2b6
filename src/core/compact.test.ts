import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entity } from './entity.ts';
import { SharedReferences, compactEntity as compactIn } from './compact.ts';

/** One store's compaction: its references shared among the entities it holds. */
const store = () => {
  const references = new SharedReferences();
  return (entity: Entity, previous?: Entity) => compactIn(entity, references, previous);
};
const compactEntity = store();

const service = { id: '6f1c0e3e-0000-4000-8000-000000000001', type: 'storageService', name: 'svc', fullyQualifiedName: 'svc', deleted: false };
const container = (name: string, extra: Record<string, unknown> = {}): Entity =>
  ({
    id: `id-${name}`,
    name,
    fullyQualifiedName: `svc.${name}`,
    version: 0.1,
    deleted: false,
    owners: [],
    tags: [],
    votes: { upVotes: 0, downVotes: 0, upVoters: [], downVoters: [] },
    service: { ...service },
    ...extra,
  }) as unknown as Entity;

describe('a stored entity is kept compact (memory per entity, docs/performance.md) and means the same', () => {
  it.each([
    { given: 'a container', entity: container('a') },
    {
      given: 'nested values (columns with children, an extension)',
      entity: container('b', { columns: [{ name: 's', children: [{ name: 'x', tags: [] }] }], extension: { k: [1, 2] } }),
    },
    { given: 'an object that looks like a reference but holds objects', entity: container('c', { parent: { id: 'p', type: 'container', extra: { nested: true } } }) },
  ])('$given: the same JSON', ({ entity }) => {
    expect(JSON.stringify(compactEntity(entity))).toBe(JSON.stringify(entity));
  });

  it.each([
    { given: 'empty arrays, of any field', field: 'owners', other: 'tags', want: { same: true, frozen: true } },
    { given: 'equal references', field: 'service', other: 'service', want: { same: true, frozen: true } },
    { given: 'objects that are not references', field: 'votes', other: 'votes', want: { same: false, frozen: false } },
  ])('two entities: $given shared → $want', ({ field, other, want }) => {
    const [a, b] = [compactEntity(container('a')), compactEntity(container('b'))];
    expect({ same: a[field] === b[other], frozen: Object.isFrozen(a[field]) }).toEqual(want);
  });

  it('equal references in two stores are two objects: a store shares only its own', () => {
    const [a, b] = [store()(container('a')), store()(container('b'))];
    expect(a.service).toEqual(b.service);
    expect(a.service).not.toBe(b.service);
  });

  it('a store shares at most `max` references, then starts afresh (references to deleted entities do not pile up)', () => {
    const references = new SharedReferences(2);
    const ref = (n: number) => ({ id: `u${n}`, type: 'user', name: `u${n}` });
    const first = references.share(ref(1));
    references.share(ref(2));
    expect(references.share(ref(1))).toBe(first);
    references.share(ref(3)); // full: cleared, then holds u3
    expect(references.share(ref(1))).not.toBe(first);
  });

  it.each([
    { given: 'one object under two fields (a change and its incremental change)', shared: true, want: true },
    { given: 'two equal objects under two fields', shared: false, want: false },
  ])('within one entity: $given → one object in the copy: $want', ({ shared, want }) => {
    const change = { fieldsAdded: [], fieldsUpdated: [{ name: 'deleted', oldValue: false, newValue: true }], fieldsDeleted: [], previousVersion: 0.1 };
    const entity = container('k', { changeDescription: change, incrementalChangeDescription: shared ? change : structuredClone(change) });
    const copy = compactEntity(entity);
    expect(copy.changeDescription === copy.incrementalChangeDescription).toBe(want);
    expect(copy.changeDescription).not.toBe(change);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(entity));
  });

  it('a new version shares with the version it replaces what it took unchanged, and only that', () => {
    const previous = compactEntity(container('m', { votes: { upVotes: 1, downVotes: 0, upVoters: [{ id: 'u', type: 'user' }], downVoters: [] }, description: 'old' }));
    // As a write builds it: the old version spread, some fields replaced.
    const next = { ...previous, description: 'new', extension: { k: 1 }, version: 0.2 } as unknown as Entity;
    const copy = compactEntity(next, previous);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(next));
    // The same object: the previous version's own. (Equal strings are shared too; JavaScript cannot tell two equal strings apart.)
    expect(copy.votes).toBe(previous.votes);
    // A value the write brought: a copy of its own.
    expect(copy.extension).not.toBe(next.extension);
    expect(copy.description).toBe('new');
    // An equal object that is not the previous version's is not taken for it.
    const rebuilt = compactEntity({ ...previous, votes: structuredClone(previous.votes) } as Entity, previous);
    expect(rebuilt.votes).not.toBe(previous.votes);
  });

  it('a shared array fails loudly when changed in place; the entity itself stays writable', () => {
    const a = compactEntity({ ...container('a'), type: 'looks-like-a-reference' } as Entity);
    expect(() => (a.owners as unknown[]).push(1)).toThrow(TypeError);
    expect(Object.isFrozen(a)).toBe(false);
    a.description = 'changed';
    expect(a.description).toBe('changed');
  });
});

describe('whatever the entity holds, the copy is its JSON', () => {
  it('any extension, keys that look like integers or prototypes included', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('1', '01', '-1', '1.5', '4294967295', '__proto__')), fc.jsonValue({ maxDepth: 3 })),
        (extra) => {
          const entity = container('j', { extension: extra });
          expect(JSON.stringify(compactEntity(entity))).toBe(JSON.stringify(entity));
        },
      ),
      { seed: 20_261_124, numRuns: 1_000 },
    );
  });
});
