/**
 * The formats of `date-cp`, `dateTime-cp` and `time-cp` custom properties: Java
 * `DateTimeFormatter` patterns, as OpenMetadata reads them (docs/behaviour.md "Custom properties";
 * `TypeRepository.validateDateFormat`, `CustomPropertyValidator.getFormattedDateTimeField`). A
 * format may use only its kind's letters (`yyyy-MM-dd`, `dd MMM yyyy HH:mm:ss`, `HH:mm`); text in
 * single quotes and other characters are literal. A value matches when it has the format's shape
 * and its month, day, hour, minute and second are in range.
 */
import { CatalogError } from './errors.ts';

const TOKENS: Record<'date-cp' | 'dateTime-cp' | 'time-cp', { letters: string; label: string }> = {
  'date-cp': { letters: 'yMdEDWw', label: 'date' },
  'dateTime-cp': { letters: 'yMdEDWwHhmsaTXZS', label: 'dateTime' },
  'time-cp': { letters: 'HhmsaS', label: 'time' },
};

/** 400 unless `format` is a format of this kind (OpenMetadata's `Invalid <kind> format: <format>`). */
export function checkFormat(type: keyof typeof TOKENS, format: unknown): void {
  const { letters, label } = TOKENS[type];
  if (typeof format !== 'string' || format === '') throw CatalogError.badRequest(`Invalid ${label} format must have Config populated with format.`);
  const unquoted = format.replace(/'[^']*'/g, '');
  for (const ch of unquoted) {
    if (/\p{L}/u.test(ch) && !letters.includes(ch)) throw CatalogError.badRequest(`Invalid ${label} format: ${format}`);
  }
  if (toRegex(format) === undefined) throw CatalogError.badRequest(`Invalid ${label} format: ${format}`);
}

const NUMERIC: Record<string, [number, number]> = { M: [1, 12], d: [1, 31], H: [0, 23], h: [1, 12], m: [0, 59], s: [0, 59] };

/** The regular expression of a format, with a named group for each field whose range is checked. */
function toRegex(format: string): RegExp | undefined {
  let source = '';
  const used = new Set<string>();
  for (let i = 0; i < format.length;) {
    const ch = format[i]!;
    if (ch === "'") {
      const end = format.indexOf("'", i + 1);
      if (end === -1) return undefined;
      source += end === i + 1 ? "'" : escape(format.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    let run = 1;
    while (format[i + run] === ch) run++;
    i += run;
    if (!/[A-Za-z]/.test(ch)) {
      source += escape(ch.repeat(run));
      continue;
    }
    const group = NUMERIC[ch] && !used.has(ch) ? `(?<${ch === 'M' ? 'month' : ch === 'd' ? 'day' : ch === 'H' || ch === 'h' ? 'hour' : ch === 'm' ? 'minute' : 'second'}>` : '(?:';
    if (NUMERIC[ch]) used.add(ch);
    switch (ch) {
      case 'y':
        source += `${group}${run === 2 ? '\\d{2}' : run >= 4 ? `\\d{${run}}` : '\\d{1,4}'})`;
        break;
      case 'M':
        source += run >= 4 ? `(?:[A-Za-z]+)` : run === 3 ? `(?:[A-Za-z]{3})` : `${group}${run === 2 ? '\\d{2}' : '\\d{1,2}'})`;
        break;
      case 'E':
        source += run >= 4 ? '(?:[A-Za-z]+)' : '(?:[A-Za-z]{3})';
        break;
      case 'a':
        source += '(?:AM|PM|am|pm)';
        break;
      case 'D':
        source += run >= 3 ? '(?:\\d{3})' : '(?:\\d{1,3})';
        break;
      case 'S':
        source += `(?:\\d{${run}})`;
        break;
      case 'X':
      case 'Z':
        source += '(?:Z|[+-]\\d{2}(?::?\\d{2})?)';
        break;
      case 'T':
        source += 'T';
        break;
      default:
        source += `${group}${run >= 2 ? `\\d{${run}}` : '\\d{1,2}'})`;
    }
  }
  return new RegExp(`^${source}$`);
}

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `value` is written in `format`. */
export function formatMatches(format: string, value: string): boolean {
  const match = toRegex(format)?.exec(value);
  if (!match) return false;
  const groups = match.groups ?? {};
  const ranges: [string, [number, number]][] = [
    ['month', NUMERIC.M!],
    ['day', NUMERIC.d!],
    ['hour', format.includes('h') ? NUMERIC.h! : NUMERIC.H!],
    ['minute', NUMERIC.m!],
    ['second', NUMERIC.s!],
  ];
  return ranges.every(([name, [lo, hi]]) => groups[name] === undefined || (Number(groups[name]) >= lo && Number(groups[name]) <= hi));
}
