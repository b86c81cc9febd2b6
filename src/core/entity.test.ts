import { describe, expect, it } from 'vitest';
import type { Entity } from './entity.ts';
import { withFields } from './entity.ts';

const base = (): Entity => ({ id: 'i', name: 'n', fullyQualifiedName: 's.n', version: 0.1, updatedAt: 1, updatedBy: 'u', deleted: false, tags: [] });

describe('withFields: a copy of an entity with fields set', () => {
  it.each([
    { fields: {}, want: base(), why: 'no fields: an equal copy' },
    { fields: { version: 0.2 }, want: { ...base(), version: 0.2 }, why: 'a field it has: replaced' },
    { fields: { displayName: 'D' }, want: { ...base(), displayName: 'D' }, why: 'a field it lacks: added' },
    { fields: { description: undefined }, want: { ...base(), description: undefined }, why: 'undefined is set, as a spread sets it' },
  ])('$why', ({ fields, want }) => {
    const entity = base();
    const copy = withFields(entity, fields);
    expect(copy).toStrictEqual(want);
    expect(copy).not.toBe(entity);
    expect(entity).toStrictEqual(base());
  });

  it('keeps_the_order_of_the_keys_new_ones_last_as_the_answer_shows_them', () => {
    expect(Object.keys(withFields(base(), { displayName: 'D', version: 0.2 }))).toEqual([...Object.keys(base()), 'displayName']);
  });

  it('copies_any_record_as_well_a_reference_given_its_href', () => {
    const ref = { id: 'i', type: 'storageService', name: 'n', fullyQualifiedName: 'n', deleted: false };
    expect(withFields(ref, { href: 'http://h/api/v1/services/storageServices/i' })).toStrictEqual({ ...ref, href: 'http://h/api/v1/services/storageServices/i' });
    expect(ref).not.toHaveProperty('href');
  });

  it('shares_nested_values_a_shallow_copy', () => {
    const entity = base();
    expect(withFields(entity, {}).tags).toBe(entity.tags);
  });
});
