import { describe, expect, it } from 'vitest';
import type { Entity } from '../domain/entity.ts';
import { compactEntity } from './compact.ts';

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
    { given: 'equal references (no nested objects)', field: 'service', other: 'service', want: { same: true, frozen: true } },
    { given: 'objects that are not references', field: 'votes', other: 'votes', want: { same: false, frozen: false } },
  ])('two entities: $given shared → $want', ({ field, other, want }) => {
    const [a, b] = [compactEntity(container('a')), compactEntity(container('b'))];
    expect({ same: a[field] === b[other], frozen: Object.isFrozen(a[field]) }).toEqual(want);
  });

  it('a shared array fails loudly when changed in place; the entity itself stays writable', () => {
    const a = compactEntity({ ...container('a'), type: 'looks-like-a-reference' } as Entity);
    expect(() => (a.owners as unknown[]).push(1)).toThrow(TypeError);
    expect(Object.isFrozen(a)).toBe(false);
    a.description = 'changed';
    expect(a.description).toBe('changed');
  });
});
