/**
 * The patterns a search request supplies (docs/behaviour.md "Search" and "Limits of one request"): regular
 * expressions (a `regexp` query, the aggregate `value` / `fieldValue`) and wildcards (`*` and `?`
 * in `q`, a `wildcard` query, `fieldQuery`'s `fieldValue`). Every one is matched in time linear in
 * the text it is matched against and bounded by its own length, never by backtracking, as
 * Elasticsearch matches them with Lucene's automata:
 *
 * - a regular expression through re2js (RE2's automata, in pure JavaScript), so a pattern such as
 *   `(a+)+$` costs what any other of its size costs;
 * - a wildcard through `Wildcard` below: the runs of text between its stars are placed, in order,
 *   each at its first fit, which is where the best placement of a run puts it (an earlier fit
 *   leaves more room to the ones after it), so no placement is ever tried again.
 *
 * A pattern is at most `MAX_PATTERN_LENGTH` characters (Elasticsearch's `index.max_regex_length`),
 * and a regular expression's compiled program at most `MAX_PROGRAM_SIZE` instructions (what its
 * repetitions expand to: `.{1000}` is a thousand). Pure JavaScript, no Node built-in: it runs
 * where the catalog runs.
 */
import { RE2JS } from 're2js';

/** The longest pattern a request may give, in characters: Elasticsearch's `index.max_regex_length` default. */
export const MAX_PATTERN_LENGTH = 1000;

/** The largest RE2 program a regular expression may compile to: matching costs up to this much per character. */
export const MAX_PROGRAM_SIZE = 2000;

/** Why a pattern is refused (`syntax`: it is not one; `limit`: it is over a limit); the caller turns it into its 400. */
export class PatternError extends Error {
  constructor(
    readonly reason: 'syntax' | 'limit',
    message: string,
  ) {
    super(message);
  }
}

/** A compiled pattern: whether a whole text matches (the text lower-cased by the caller for a wildcard). */
export interface TextMatcher {
  matches(text: string): boolean;
}

function checkLength(source: string): void {
  if (source.length > MAX_PATTERN_LENGTH) throw new PatternError('limit', `is longer than the limit of ${MAX_PATTERN_LENGTH} characters`);
}

/**
 * A regular expression over a whole value, case-insensitive, `.` matching line breaks too (as
 * Elasticsearch's `regexp` query matches a whole term). The syntax is RE2's, which Lucene's
 * shares for what the web UI sends (`.*text.*`, classes, groups, `|`, `{n,m}`); Lucene's optional
 * operators (`~`, `&`, `<n-m>`, `@`, `#`) are plain characters. Throws a PatternError when it does
 * not compile (lookarounds and back-references too: neither engine has them) or is too large.
 */
export function compileRegexp(source: string): TextMatcher {
  checkLength(source);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE | RE2JS.DOTALL);
  } catch (error) {
    throw new PatternError('syntax', error instanceof Error ? error.message : String(error));
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) throw new PatternError('limit', `compiles to more than ${MAX_PROGRAM_SIZE} instructions (its repetitions expanded), the limit`);
  return { matches: (text) => compiled.testExact(text) };
}

/** `?` in a run: one character, whatever it is. */
const ANY = -1;

/**
 * A wildcard pattern in Elasticsearch's syntax: `*` any run of characters (none included), `?`
 * one character, `\` makes the next character plain. Matching is case-sensitive: callers give the
 * pattern and the text lower-cased. A pattern and a text of lengths p and n cost at most p × n
 * character comparisons.
 */
export class Wildcard implements TextMatcher {
  /** The runs between stars, as character codes (`ANY` for `?`); one run when there is no star. */
  private readonly runs: readonly (readonly number[])[];
  /** The fewest characters a match has. */
  private readonly least: number;
  /** The longest part of the pattern without a wildcard: every match contains it (a quick test before matching). */
  readonly needle: string;
  /** `text`, `*text`, `text*` or `*text*`: a test for a substring does (`leading` and `trailing` say where the stars are). */
  readonly simple: { readonly text: string; readonly leading: boolean; readonly trailing: boolean } | undefined;

  constructor(pattern: string) {
    checkLength(pattern);
    const runs: number[][] = [[]];
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i]!;
      if (c === '\\' && i + 1 < pattern.length) runs[runs.length - 1]!.push(pattern.charCodeAt(++i));
      else if (c === '*') runs.push([]);
      else runs[runs.length - 1]!.push(c === '?' ? ANY : pattern.charCodeAt(i));
    }
    this.runs = runs;
    this.least = runs.reduce((sum, run) => sum + run.length, 0);
    const parts = runs.flatMap((run) => String.fromCharCode(...run.map((code) => (code === ANY ? 0 : code))).split('\0'));
    this.needle = parts.reduce((a, b) => (b.length > a.length ? b : a), '');
    const texts = runs.map((run) => String.fromCharCode(...run));
    const [a = '', b = '', c = ''] = texts;
    this.simple = undefined;
    if (runs.some((run) => run.includes(ANY))) return;
    if (runs.length === 1) this.simple = { text: a, leading: false, trailing: false };
    else if (runs.length === 2 && (a === '' || b === '')) this.simple = { text: a + b, leading: a === '', trailing: b === '' };
    else if (runs.length === 3 && a === '' && c === '') this.simple = { text: b, leading: true, trailing: true };
  }

  matches(text: string): boolean {
    return this.matchesWithin(text, 0, text.length);
  }

  /** Whether `text[start, end)` matches as a whole. */
  matchesWithin(text: string, start: number, end: number): boolean {
    const runs = this.runs;
    if (end - start < this.least) return false;
    const first = runs[0]!;
    if (runs.length === 1) return end - start === first.length && runAt(first, text, start);
    const last = runs[runs.length - 1]!;
    if (!runAt(first, text, start) || !runAt(last, text, end - last.length)) return false;
    let at = start + first.length;
    const limit = end - last.length;
    for (let i = 1; i < runs.length - 1; i++) {
      const run = runs[i]!;
      const found = firstFit(run, text, at, limit);
      if (found < 0) return false;
      at = found + run.length;
    }
    return true;
  }
}

function runAt(run: readonly number[], text: string, at: number): boolean {
  for (let k = 0; k < run.length; k++) {
    const code = run[k]!;
    if (code !== ANY && text.charCodeAt(at + k) !== code) return false;
  }
  return true;
}

/** Where `run` first fits in `text[from, limit)`, or -1. */
function firstFit(run: readonly number[], text: string, from: number, limit: number): number {
  for (let at = from; at + run.length <= limit; at++) if (runAt(run, text, at)) return at;
  return -1;
}
