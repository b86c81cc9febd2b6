import { describe, expect, it } from 'vitest';
import { addToFqn, quoteName, splitFqn } from './fqn.ts';

describe('fully qualified names (docs/behaviour.md "Fully qualified names")', () => {
  it('quotes a name only when it contains a dot', () => {
    expect(quoteName('raw_events')).toBe('raw_events');
    expect(quoteName('with space/and slash')).toBe('with space/and slash');
    expect(quoteName('a.b')).toBe('"a.b"');
  });
  it('rejects a name with a double quote as a 400', () => {
    expect(() => quoteName('a"b')).toThrowError(/Invalid name a"b/);
  });
  it('builds service.parent.child and splits it back', () => {
    const fqn = addToFqn(addToFqn('s3', 'logs.2024'), 'day.01');
    expect(fqn).toBe('s3."logs.2024"."day.01"');
    expect(splitFqn(fqn)).toEqual(['s3', 'logs.2024', 'day.01']);
  });
});
