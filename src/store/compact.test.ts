import { describe, expect, it } from 'vitest';
import type { Entity } from '../domain/entity.ts';
import { compactEntity, flatString } from './compact.ts';

const service = { id: '6f1c0e3e-0000-4000-8000-000000000001', type: 'storageService', name: 'svc', fullyQualifiedName: 'svc', deleted: false };
const container = (name: string): Entity =>
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
  }) as unknown as Entity;

describe('a stored entity is kept compact (memory per entity, docs/performance.md)', () => {
  it('compactEntity_anyEntity_keepsTheSameJson', () => {
    const entity = container('a');
    expect(JSON.stringify(compactEntity(entity))).toBe(JSON.stringify(entity));
  });

  it('compactEntity_twoEntities_shareEmptyArraysAndEqualReferences', () => {
    const [a, b] = [compactEntity(container('a')), compactEntity(container('b'))];
    expect(a.owners).toBe(b.tags);
    expect(a.service).toBe(b.service);
    expect(Object.isFrozen(a.service)).toBe(true);
    expect(() => (a.owners as unknown[]).push(1)).toThrow(TypeError);
  });

  it('compactEntity_entityItself_staysWritable', () => {
    const a = compactEntity({ ...container('a'), type: 'looks-like-a-reference' } as Entity);
    expect(Object.isFrozen(a)).toBe(false);
    a.description = 'changed';
    expect(a.description).toBe('changed');
  });

  it('flatString_joinedText_sameCharacters', () => {
    expect(flatString(`svc.${'x'.repeat(20)}\u0000id`)).toBe(`svc.${'x'.repeat(20)}\u0000id`);
  });
});
