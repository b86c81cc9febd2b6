/**
 * Which answers the server may check item by item (scripts/compile-validators.ts
 * `isItemwisePage`, used by src/http/operation-validation.ts): only a page whose schema checks each
 * of its `data` items on its own, so that a page with some items left out is valid exactly when
 * the whole is and each item is. Every list of a kind served is such a page.
 */
import { describe, expect, it } from 'vitest';
import { isItemwisePage } from '../scripts/compile-validators.ts';
import { KINDS } from '../src/kinds/index.ts';
import { compiledValidators, operationsOf } from '../src/openapi/compiled.ts';
import type { OpenApiDocument } from '../src/openapi/document.ts';

const item = { $ref: '#/components/schemas/Item' };
const paging = { type: 'object' };
const page = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: { data, paging },
  ...extra,
});
const doc = (schemas: Record<string, unknown>) => ({ components: { schemas } }) as unknown as OpenApiDocument;

describe('a page checked item by item', () => {
  it.each<[string, unknown, Record<string, unknown>, boolean]>([
    ['data: an array of items', page({ type: 'array', items: item }), {}, true],
    ['the same through a component reference', { $ref: '#/components/schemas/ItemList' }, { ItemList: page({ type: 'array', items: item }) }, true],
    ['with a description (documentation only)', page({ type: 'array', items: item, description: 'the items' }), {}, true],
    ['minItems: depends on how many', page({ type: 'array', items: item, minItems: 1 }), {}, false],
    ['maxItems', page({ type: 'array', items: item, maxItems: 10 }), {}, false],
    ['uniqueItems: depends on the others', page({ type: 'array', items: item, uniqueItems: true }), {}, false],
    ['contains', page({ type: 'array', items: item, contains: item }), {}, false],
    ['no items schema', page({ type: 'array' }), {}, false],
    ['data not an array', page({ type: 'object' }), {}, false],
    ['an allOf around the page', page({ type: 'array', items: item }, { allOf: [{ required: ['paging'] }] }), {}, false],
    ['unevaluatedProperties on the page', page({ type: 'array', items: item }, { unevaluatedProperties: false }), {}, false],
    ['no data', { type: 'object', properties: { paging } }, {}, false],
    ['a reference with siblings', { $ref: '#/components/schemas/ItemList', minProperties: 1 }, { ItemList: page({ type: 'array', items: item }) }, false],
  ])('%s: %s', (_name, schema, schemas, want) => {
    expect(isItemwisePage(doc(schemas), schema)).toBe(want);
  });

  it.each(['contract', 'openmetadata'] as const)('profile %s: the list of every kind served is a page checked item by item', (profile) => {
    const operations = operationsOf(compiledValidators().tables.api, profile);
    const lists = KINDS.map((kind) => operations.find((entry) => entry.method === 'GET' && entry.path === `/v1/${kind.collection}`));
    const notPages = lists.filter((entry) => entry !== undefined && !entry.pages?.includes('200')).map((entry) => entry!.operationId);
    expect(lists.filter(Boolean).length).toBeGreaterThan(20);
    expect(notPages).toEqual([]);
  });
});
