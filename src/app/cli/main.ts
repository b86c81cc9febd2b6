/**
 * The `catalog-kit` command: `serve`, `token`, `conform`, `drift` (docs/cli.md).
 *
 * Nothing heavy is imported here: each subcommand's module is imported when it runs, so
 * `catalog-kit --help`, `--version` and `token` never load express, the OpenAPI document or the
 * server (only `token` loads jose).
 */
import { cliErrorKind, EXIT, oneLine } from './options.ts';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Aborting it stops a running `serve` as Ctrl-C would (tests run serve in-process). */
  stop?: AbortSignal;
}

const stdio: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

type Command = (argv: string[], io: Io) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve-loader.ts')).loadServe(),
  token: async () => (await import('./token.ts')).runToken,
  conform: async () => (await import('./conform.ts')).runConform,
  drift: async () => (await import('./drift.ts')).runDrift,
};

const USAGE = `Usage: catalog-kit <command> [options]

Commands:
  serve     start the stateful mock server (default http://127.0.0.1:8585/api)
  token     print a JWT that serve accepts
  conform   run the conformance suite against a server
  drift     compare a server's answers with a reference's, call for call

Options:
  -h, --help      show this help; catalog-kit <command> --help lists the command's options
  -v, --version   print the version of catalog-kit

Exit status: 0 success; 1 the command could not do its work (serve could not start, conform
found a rule broken, drift found a difference); 2 wrong command line (conform and drift: also a
server they cannot use).
`;

/** The package version (src/config/version.ts reads it from catalog-kit's own package.json). */
async function version(): Promise<string> {
  return (await import('../../config/version.ts')).VERSION;
}

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case '-h':
    case '--help':
      io.out(USAGE);
      return EXIT.ok;
    case 'help':
      // `catalog-kit help serve` is `catalog-kit serve --help`.
      if (rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0])) return main([rest[0], '--help'], io);
      io.out(USAGE);
      return EXIT.ok;
    case '-v':
    case '--version':
      io.out(`${await version()}\n`);
      return EXIT.ok;
    case undefined:
      io.err(USAGE);
      return EXIT.usage;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    io.err(`catalog-kit: unknown ${command.startsWith('-') ? 'option' : 'command'} "${command}" (see catalog-kit --help)\n`);
    return EXIT.usage;
  }
  try {
    return await (
      await load()
    )(rest, io);
  } catch (error) {
    const kind = cliErrorKind(error);
    if (kind === 'usage') {
      io.err(`catalog-kit ${command}: ${oneLine(error)} (see catalog-kit ${command} --help)\n`);
      return EXIT.usage;
    }
    // A start-up problem (StartupError) or anything unforeseen: one line, never a stack.
    io.err(`catalog-kit ${command}: ${kind === 'startup' ? '' : 'error: '}${oneLine(error)}\n`);
    return EXIT.failed;
  }
}
