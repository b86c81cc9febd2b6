/**
 * The `q` parser as requirements (docs/behaviour.md "Search"): given a query string, want its
 * parse. Lenient: every input parses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueryNode } from './query-string.ts';
import { parseQueryString } from './query-string.ts';

const text = (t: string): QueryNode => ({ kind: 'text', text: t });
const field = (f: string, value: string, pattern?: string): QueryNode => ({ kind: 'field', field: f, value, pattern, exists: false });

describe('parseQueryString (given q, want the parse)', () => {
  it.each<{ q: string | undefined; want: QueryNode }>([
    { q: undefined, want: { kind: 'all' } },
    { q: '', want: { kind: 'all' } },
    { q: '  ', want: { kind: 'all' } },
    { q: '*', want: { kind: 'all' } },
    { q: '**', want: { kind: 'all' } },
    { q: 'orders', want: text('orders') },
    { q: 'fact orders', want: { kind: 'and', nodes: [text('fact'), text('orders')] } },
    { q: 'fact AND orders', want: { kind: 'and', nodes: [text('fact'), text('orders')] } },
    { q: 'fact && orders', want: { kind: 'and', nodes: [text('fact'), text('orders')] } },
    { q: 'fact OR orders', want: { kind: 'or', nodes: [text('fact'), text('orders')] } },
    { q: 'a b OR c', want: { kind: 'or', nodes: [{ kind: 'and', nodes: [text('a'), text('b')] }, text('c')] } },
    { q: 'a (b OR c)', want: { kind: 'and', nodes: [text('a'), { kind: 'or', nodes: [text('b'), text('c')] }] } },
    { q: 'NOT a', want: { kind: 'not', node: text('a') } },
    { q: '-a +b', want: { kind: 'and', nodes: [{ kind: 'not', node: text('a') }, text('b')] } },
    { q: '!a', want: { kind: 'not', node: text('a') } },
    { q: '"order line"', want: text('order line') },
    { q: '*ord*', want: { kind: 'wildcard', pattern: '*ord*' } },
    { q: 'Fact_?', want: { kind: 'wildcard', pattern: 'fact_?' } },
    { q: 'a\\*b*', want: { kind: 'wildcard', pattern: 'a\\*b*' } },
    { q: 'a\\*b', want: text('a*b') },
    { q: 'sales.fact', want: text('sales.fact') },
    { q: 'tags.tagFQN:PII.Sensitive', want: field('tags.tagFQN', 'PII.Sensitive') },
    { q: 'name:fact*', want: field('name', 'fact*', 'fact*') },
    { q: 'owners.displayName.keyword:"Alice Smith"', want: field('owners.displayName.keyword', 'Alice Smith') },
    { q: 'owners:*', want: { kind: 'field', field: 'owners', value: '*', pattern: undefined, exists: true } },
    { q: 'service.name:(lake OR archive)', want: { kind: 'or', nodes: [field('service.name', 'lake'), field('service.name', 'archive')] } },
    { q: 'a:b\\:c', want: field('a', 'b:c') },
    { q: '*orders* AND (deleted:false)', want: { kind: 'and', nodes: [{ kind: 'wildcard', pattern: '*orders*' }, field('deleted', 'false')] } },
    { q: 'a AND', want: text('a') },
    { q: 'OR a', want: text('a') },
    { q: '(a', want: text('a') },
    { q: 'a)', want: text('a') },
    { q: '* AND a', want: text('a') },
    { q: '* OR a', want: { kind: 'all' } },
  ])('q=$q', ({ q, want }) => {
    expect(parseQueryString(q)).toEqual(want);
  });

  it('every string parses', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab *?:()"\\-+!&|ANDORT '.split('')), maxLength: 40 }), (q) => {
        expect(() => parseQueryString(q)).not.toThrow();
      }),
    );
  });
});
