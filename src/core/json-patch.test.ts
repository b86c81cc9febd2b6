/**
 * A JSON Patch within bounds (src/core/json-patch.ts): its result no larger than the limit (or
 * than the document was), its operations handling at most WORK_FACTOR times the limit, each
 * refused before the document that would cross it is built; every other patch as RFC 6902 says.
 */
import type { Operation } from 'fast-json-patch';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CatalogError } from './errors.ts';
import { applyPatchWithin, jsonSize, WORK_FACTOR } from './json-patch.ts';

const LIMIT = 100_000;

/** The 400 a patch gets, or undefined when it applies; `result` is what it made. */
function attempt(document: unknown, operations: Operation[], limit = LIMIT): { result?: unknown; error?: string } {
  try {
    return { result: applyPatchWithin(document, operations, limit, 'table') };
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    return { error: error.message };
  }
}

describe('applyPatchWithin: what a patch may make (given a document and a patch, want its result or its 400)', () => {
  it('eighteen copies of a field into itself: refused at the copy that would cross the limit, before it is made', () => {
    const document = { name: 't', extension: { note: 'x'.repeat(1_000) } };
    const operations: Operation[] = Array.from({ length: 18 }, (_, i) => ({ op: 'copy', from: '/extension', path: `/extension/c${i}` }));
    const { error } = attempt(document, operations);
    // 1 KB doubled: 64 KB after six copies, so the seventh (index 6) would cross 100 KB.
    expect(error).toBe('Invalid JSON Patch: operation 6 (copy /extension/c6) would make the table larger than 100000 bytes, the request body limit: refused before it is built');
    expect(jsonSize(document)).toBeLessThan(LIMIT);
  });

  it.each<{ given: string; document: Record<string, unknown>; operations: Operation[]; want: unknown }>([
    {
      given: 'a large value replaced by another as large (the one it replaces is taken away)',
      document: { description: 'a'.repeat(60_000) },
      operations: [{ op: 'replace', path: '/description', value: 'b'.repeat(60_000) }],
      want: { description: 'b'.repeat(60_000) },
    },
    {
      given: 'an add that replaces a member',
      document: { description: 'a'.repeat(60_000) },
      operations: [{ op: 'add', path: '/description', value: 'c'.repeat(60_000) }],
      want: { description: 'c'.repeat(60_000) },
    },
    {
      given: 'a copy onto a member it replaces, and a move',
      document: { a: 'x'.repeat(40_000), b: 'y'.repeat(40_000) },
      operations: [
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'move', from: '/b', path: '/c' },
      ],
      want: { a: 'x'.repeat(40_000), c: 'x'.repeat(40_000) },
    },
    {
      given: 'adds to arrays and a test',
      document: { tags: [], owners: [] },
      operations: [
        { op: 'add', path: '/tags/0', value: { tagFQN: 'PII.Sensitive' } },
        { op: 'add', path: '/owners/-', value: { id: 'u', type: 'user' } },
        { op: 'test', path: '/tags/0/tagFQN', value: 'PII.Sensitive' },
      ],
      want: { tags: [{ tagFQN: 'PII.Sensitive' }], owners: [{ id: 'u', type: 'user' }] },
    },
  ])('$given: applied', ({ document, operations, want }) => {
    expect(attempt(document, operations)).toEqual({ result: want });
  });

  it('a document already larger than the limit may grow by the values the patch carries, not by copies', () => {
    const document = { description: 'a'.repeat(2 * LIMIT), note: 'n'.repeat(1_000) };
    expect(attempt(structuredClone(document), [{ op: 'add', path: '/displayName', value: 'x'.repeat(1_000) }]).error).toBeUndefined();
    expect(attempt(structuredClone(document), [{ op: 'copy', from: '/note', path: '/displayName' }]).error).toMatch(
      /^Invalid JSON Patch: operation 0 \(copy \/displayName\) would make the table larger than 2010\d\d bytes/,
    );
  });

  it(`operations that handle more than ${WORK_FACTOR} times the limit are refused, whatever they leave`, () => {
    const document = { big: 'x'.repeat(30_000) };
    // Each copies 30 KB and removes it again: the document never grows past 60 KB, the work does.
    const operations: Operation[] = Array.from({ length: 40 }, (): Operation[] => [
      { op: 'copy', from: '/big', path: '/again' },
      { op: 'remove', path: '/again' },
    ]).flat();
    expect(attempt(document, operations).error).toBe(
      `Invalid JSON Patch: its operations copy, move, remove or compare more than ${WORK_FACTOR * LIMIT} bytes (${WORK_FACTOR} times the limit of ${LIMIT}): send fewer operations`,
    );
  });

  it("fast-json-patch's own checks still apply (a test that fails, a path that is not there)", () => {
    expect(() => attempt({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow(/Test operation failed/);
    expect(() => attempt({ a: 1 }, [{ op: 'remove', path: '/b/c' }])).toThrow();
    expect(() => attempt({ a: 1 }, [{ op: 'add', path: '/__proto__/polluted', value: true }])).toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('jsonSize', () => {
  it('is the length of the JSON text for values without escapes (fast-check, fixed seed)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '1', 'é') });
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(value, (v) => {
        expect(jsonSize(v)).toBe(JSON.stringify(v).length);
      }),
      { seed: 30_2026, numRuns: 1000 },
    );
  });

  it('stops counting past its cap', () => {
    expect(jsonSize({ a: 'x'.repeat(1_000), b: 'y'.repeat(1_000) }, 10)).toBeLessThan(1_100);
  });
});
