/**
 * The patterns a search request supplies (src/features/search/patterns.ts) as requirements: what a wildcard
 * and a regular expression match, what is refused, and that any pattern of their grammars —
 * nested quantifiers included — is answered as a reference matcher answers it, or refused. No
 * timing: the answers are compared with references, and the patterns that hang a backtracking
 * engine run in a child process that must finish (a hang detector with a generous timeout).
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRegexp, MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE, PatternError, Wildcard } from './patterns.ts';

/** The seed of every property here: a failure prints it (and the shrunk case) to replay. */
const SEED = 30_2026;

describe('Wildcard (given a pattern and a text, want whether the whole text matches)', () => {
  it.each<{ pattern: string; text: string; want: boolean }>([
    { pattern: 'orders', text: 'orders', want: true },
    { pattern: 'orders', text: 'order', want: false },
    { pattern: '*ord*', text: 'fact_orders', want: true },
    { pattern: 'fact_*', text: 'fact_orders', want: true },
    { pattern: 'fact_*', text: 'dim_fact_x', want: false },
    { pattern: '*stream', text: 'clickstream', want: true },
    { pattern: 'dim_custome?', text: 'dim_customer', want: true },
    { pattern: 'dim_custome?', text: 'dim_custome', want: false },
    { pattern: '?', text: '', want: false },
    { pattern: '*', text: '', want: true },
    { pattern: 'a*a', text: 'a', want: false },
    { pattern: 'a*b*c', text: 'abbbbc', want: true },
    { pattern: '*a*a*a*a*a*a*a*a*a*c', text: `${'a'.repeat(200)}!`, want: false },
    { pattern: '*a*a*a*a*a*a*a*a*a*c', text: `${'a'.repeat(200)}c`, want: true },
    { pattern: 'a\\*b', text: 'a*b', want: true },
    { pattern: 'a\\*b', text: 'axb', want: false },
    { pattern: 'a\\?', text: 'a?', want: true },
    { pattern: 'a\\\\b', text: 'a\\b', want: true },
  ])('$pattern ~ $text: $want', ({ pattern, text, want }) => {
    expect(new Wildcard(pattern).matches(text)).toBe(want);
  });

  it('matches within a range of a longer text (a term of a document)', () => {
    const wildcard = new Wildcard('f*s');
    expect(wildcard.matchesWithin('\u0001facts\u0001', 1, 6)).toBe(true);
    expect(wildcard.matchesWithin('\u0001fact\u0001s', 1, 5)).toBe(false);
  });

  it.each([
    { pattern: '*ord*', want: { text: 'ord', leading: true, trailing: true } },
    { pattern: 'ord*', want: { text: 'ord', leading: false, trailing: true } },
    { pattern: '*ord', want: { text: 'ord', leading: true, trailing: false } },
    { pattern: 'ord', want: { text: 'ord', leading: false, trailing: false } },
    { pattern: 'o*d', want: undefined },
    { pattern: '*o?d*', want: undefined },
  ])('$pattern is a substring test: $want', ({ pattern, want }) => {
    expect(new Wildcard(pattern).simple).toEqual(want);
  });

  it(`a pattern longer than ${MAX_PATTERN_LENGTH} characters is refused`, () => {
    expect(() => new Wildcard('a'.repeat(MAX_PATTERN_LENGTH))).not.toThrow();
    expect(() => new Wildcard('a'.repeat(MAX_PATTERN_LENGTH + 1))).toThrow(PatternError);
  });
});

describe('compileRegexp (given a pattern and a text, want whether the whole text matches)', () => {
  it.each<{ pattern: string; text: string; want: boolean }>([
    { pattern: '.*ali.*', text: 'Alice Smith', want: true },
    { pattern: 'fact.*', text: 'FACT_ORDERS', want: true },
    { pattern: 'fact', text: 'fact_orders', want: false },
    { pattern: 'a|b', text: 'b', want: true },
    { pattern: 'a.c', text: 'a\nc', want: true },
    { pattern: '[0-9]{4}', text: '2019', want: true },
    { pattern: '\\S+', text: 'no spaces', want: false },
    { pattern: '(a+)+$', text: `${'a'.repeat(200)}!`, want: false },
    { pattern: '((a+))+', text: `${'a'.repeat(200)}!`, want: false },
    { pattern: '(a|aa)*b', text: `${'a'.repeat(200)}!`, want: false },
    { pattern: '(.*a){20}', text: `${'a'.repeat(200)}!`, want: false },
    { pattern: '.*.*.*.*.*.*.*.*x', text: `${'a'.repeat(200)}!`, want: false },
    { pattern: '.*.*.*.*.*.*.*.*x', text: `${'a'.repeat(200)}x`, want: true },
  ])('$pattern ~ $text: $want', ({ pattern, text, want }) => {
    expect(compileRegexp(pattern).matches(text)).toBe(want);
  });

  it.each<{ pattern: string; reason: 'syntax' | 'limit' }>([
    { pattern: '(', reason: 'syntax' },
    { pattern: '[', reason: 'syntax' },
    { pattern: 'a(?=b)', reason: 'syntax' },
    { pattern: '(a)\\1', reason: 'syntax' },
    { pattern: 'a{1001}', reason: 'syntax' },
    { pattern: 'a'.repeat(MAX_PATTERN_LENGTH + 1), reason: 'limit' },
    { pattern: '.{1000}.{1000}.{1000}', reason: 'limit' },
  ])('$pattern is refused ($reason)', ({ pattern, reason }) => {
    let thrown: unknown;
    try {
      compileRegexp(pattern);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PatternError);
    expect((thrown as PatternError).reason).toBe(reason);
  });
});

/** A reference wildcard matcher: the textbook table over prefixes (O(p × n), no shortcut to get wrong). */
function referenceWildcard(pattern: string, text: string): boolean {
  const tokens: (string | '*' | '?')[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) tokens.push(`=${pattern[++i]}`);
    else tokens.push(c === '*' || c === '?' ? c : `=${c}`);
  }
  let row = [true, ...Array.from({ length: text.length }, () => false)];
  for (const token of tokens) {
    const next = [token === '*' && row[0]!];
    for (let j = 1; j <= text.length; j++) {
      if (token === '*') next[j] = row[j]! || next[j - 1]!;
      else next[j] = row[j - 1]! && (token === '?' || token.slice(1) === text[j - 1]);
    }
    row = next;
  }
  return row[text.length]!;
}

/** Regular expressions from a grammar of the syntax both engines share: literals, `.`, classes, groups, alternation, and quantifiers nested in quantifiers. */
const regexp: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('a', 'b', 'A', '.', '[ab]', '[^a]', '\\d', 'x'),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}${y}`),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(${x}|${y})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,2}')).map(([x, q]) => `(${x})${q}`),
  ),
})).node;

const shortText = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'x', '1', '\n'), maxLength: 10 });

describe('any pattern of the grammars is answered as a reference answers it, or refused', () => {
  it('wildcards: as the textbook matcher answers, on short texts and on long ones', () => {
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '\\*', '\\?'), maxLength: 30 });
    const text = fc.oneof(shortText, fc.string({ unit: fc.constantFrom('a', 'b', '*', '?'), minLength: 150, maxLength: 220 }));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        expect(new Wildcard(p).matches(t)).toBe(referenceWildcard(p, t));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('regular expressions (nested quantifiers included): as JavaScript answers on texts too short to backtrack long, or refused over a limit', () => {
    fc.assert(
      fc.property(regexp, fc.array(shortText, { minLength: 1, maxLength: 5 }), (source, texts) => {
        let compiled;
        try {
          compiled = compileRegexp(source);
        } catch (error) {
          expect(error).toBeInstanceOf(PatternError);
          expect((error as PatternError).reason).toBe('limit');
          return;
        }
        const reference = new RegExp(`^(?:${source})$`, 'is');
        for (const text of texts) expect(compiled.matches(text), `${source} ~ ${JSON.stringify(text)}`).toBe(reference.test(text));
        // And on a long text, where a backtracking engine could take exponential time: an answer.
        expect(typeof compiled.matches(`${'a'.repeat(200)}!`)).toBe('boolean');
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it(`the program limit (${MAX_PROGRAM_SIZE} instructions): the largest repetition RE2 takes is answered, three of them are refused`, () => {
    expect(() => compileRegexp('(.{1000})')).not.toThrow();
    expect(() => compileRegexp('.{1000}.{1000}.{1000}')).toThrow(/more than 2000 instructions/);
  });
});

describe('the patterns that hang a backtracking engine finish (hang detector)', () => {
  it('the attacks of a request, each against 201-character texts, in a child process that must end', () => {
    // Run apart so that a regression hangs the child, not the test worker; the timeout only
    // detects a hang (the work takes a fraction of it), it measures nothing.
    const script = `
      const { compileRegexp, Wildcard } = await import(${JSON.stringify(new URL('./patterns.ts', import.meta.url).href)});
      const texts = ['a'.repeat(200) + '!', 'a'.repeat(201), 'ab'.repeat(100) + 'c', 'x'.repeat(201)];
      let answered = 0;
      for (const source of ['(a+)+$', '((a+))+', '(a|aa)*b', '(.*a){20}', '.*.*.*.*.*.*.*.*x', '((((a*)*)*)*)*b', '(a|a?)+b', '(\\\\w+\\\\s?)+$']) {
        const regexp = compileRegexp(source);
        for (const text of texts) for (let i = 0; i < 200; i++) { regexp.matches(text + i); answered++; }
      }
      for (const pattern of ['*a*a*a*a*a*a*a*a*a*c', '*a*'.repeat(300), '?*'.repeat(400) + 'c']) {
        const wildcard = new Wildcard(pattern);
        for (const text of texts) for (let i = 0; i < 200; i++) { wildcard.matches(text + i); answered++; }
      }
      process.stdout.write('answered ' + answered);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    expect(child.error, child.stderr).toBeUndefined();
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout).toBe(`answered ${(8 + 3) * 4 * 200}`);
  });
});
