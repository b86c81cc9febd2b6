/**
 * Option tables of the `catalog-kit` subcommands. One table feeds both the parser and the `--help`
 * text, so a command's help lists exactly the options it accepts, with their defaults. Imports
 * nothing: `catalog-kit --help` and `catalog-kit token` load this and little else.
 */

/** Exit statuses shared by every subcommand (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The command line was fine but the work could not be done (serve: could not start). */
  failed: 1,
  /** The command line was wrong: unknown option, missing or invalid value. */
  usage: 2,
} as const;

/**
 * Marks the CLI's own errors with their kind. main() reads this mark, not `instanceof`: the serve
 * bundle (scripts/build.mjs) carries its own copy of this module and of these classes, and a
 * registered symbol is the same in every copy.
 */
const KIND = Symbol.for('catalog-kit.cli-error-kind');

/** A wrong command line: reported on one line with a pointer to `--help`, exit 2. */
export class UsageError extends Error {
  readonly [KIND] = 'usage';
}

/** The command line was fine, but the command could not start: one line, exit 1. */
export class StartupError extends Error {
  readonly [KIND] = 'startup';
}

/** `usage` or `startup` for an error of either class above, from any copy of this module; else undefined. */
export function cliErrorKind(error: unknown): 'usage' | 'startup' | undefined {
  const kind = error instanceof Error ? (error as { [KIND]?: unknown })[KIND] : undefined;
  return kind === 'usage' || kind === 'startup' ? kind : undefined;
}

interface OptionSpec {
  /** Long name, without the leading `--`. */
  name: string;
  short?: string;
  /** Placeholder of the value in the help (`PORT`); absent for a flag. */
  value?: string;
  /** Applied when the option is absent and shown in the help. */
  default?: string;
  /** Shown in the help instead of `default` when the real default is computed (`$PORT, else 8585`). */
  shownDefault?: string;
  /** May be given more than once; the values are collected in order. */
  multiple?: boolean;
  /** Another name of the option named here; its value is read under that name. */
  aliasOf?: string;
  help: string;
}

export interface CommandSpec {
  /** `serve`, `token`...; appears in the usage line and in every error message. */
  name: string;
  summary: string;
  options: readonly OptionSpec[];
  /** The meaning of each exit status, printed at the end of the help. */
  exitStatus: string;
}

export interface ParsedOptions {
  help: boolean;
  /** The last value given (or the default); undefined when absent without a default. */
  string(name: string): string | undefined;
  /** Every value given, in order (options with `multiple`). */
  list(name: string): string[];
  flag(name: string): boolean;
}

const HELP: OptionSpec = { name: 'help', short: 'h', help: 'show this help and exit' };

/**
 * Parses `--name value`, `--name=value`, `-s value` and flags. No positional arguments. Throws
 * UsageError with a one-line message naming the offending argument.
 */
export function parseOptions(spec: CommandSpec, argv: readonly string[]): ParsedOptions {
  const byLong = new Map(spec.options.map((o) => [o.name, o]));
  const byShort = new Map(spec.options.filter((o) => o.short).map((o) => [o.short!, o]));
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    let option: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      option = byLong.get(name);
      if (!option) throw new UsageError(`unknown option --${name}`);
      if (eq >= 0) inline = arg.slice(eq + 1);
    } else if (/^-[^-]$/.test(arg)) {
      option = byShort.get(arg.slice(1));
      if (!option) throw new UsageError(`unknown option ${arg}`);
    } else {
      throw new UsageError(`unexpected argument "${arg}"`);
    }
    const key = option.aliasOf ?? option.name;
    if (!option.value) {
      if (inline !== undefined) throw new UsageError(`--${option.name} takes no value`);
      flags.add(key);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = argv[i + 1];
      // `--jwt-secret --port 1` is a forgotten value, not a secret that starts with dashes.
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${option.name} needs a value (${option.value})`);
      i += 1;
    }
    const target = byLong.get(key);
    if (values.has(key) && !target?.multiple) throw new UsageError(`--${option.name} given twice`);
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return {
    help,
    string: (name) => values.get(name)?.at(-1) ?? byLong.get(name)?.default,
    list: (name) => values.get(name) ?? [],
    flag: (name) => flags.has(name),
  };
}

/** The `--help` text of a command: usage line, summary, one line per option, exit statuses. */
export function formatHelp(spec: CommandSpec): string {
  const rows = [...spec.options, HELP].map((o) => {
    const names = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.value ? ` ${o.value}` : ''}`;
    const shown = o.shownDefault ?? o.default;
    const help = o.aliasOf ? `the same as --${o.aliasOf}` : o.help;
    return [names, `${help}${shown !== undefined ? ` (default: ${shown})` : ''}`] as const;
  });
  const width = Math.max(...rows.map(([names]) => names.length)) + 2;
  const indent = ' '.repeat(2 + width);
  const lines = rows.map(([names, text]) => `  ${names.padEnd(width)}${wrap(text, COLUMNS - indent.length).join(`\n${indent}`)}`);
  return [
    `Usage: catalog-kit ${spec.name} [options]`,
    '',
    ...wrap(spec.summary, COLUMNS),
    '',
    'Options:',
    ...lines,
    '',
    ...wrap(`Exit status: ${spec.exitStatus}`, COLUMNS),
    '',
  ].join('\n');
}

const COLUMNS = 100;

/** Splits text into lines of at most `width` characters at spaces (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/**
 * An error message on one line: every CLI error is one line. Line breaks become spaces rather than
 * cutting the message, since some carry a quoted excerpt over several lines (JSON.parse's).
 */
export function oneLine(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim();
  const short = text.length > 400 ? `${text.slice(0, 399)}…` : text;
  return short || (error instanceof Error ? error.name : 'unknown error');
}
