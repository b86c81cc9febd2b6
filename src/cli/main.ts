/**
 * The `catalog-kit` command (DESIGN.md "Command-line interface"; other tools rely on these names):
 * `serve`, `token`, `conform`.
 */
import { runServe } from './serve.ts';
import { runToken } from './token.ts';

const USAGE = `Usage: catalog-kit <command> [options]

Commands:
  serve     Start the stateful mock server
            [--port 8585] [--host 127.0.0.1] [--profile contract|openmetadata] [--fixtures default|none|<dir>]
            [--cors-origin <origin>[,...]] [--log pretty|quiet|json] [--data <state.json>]
  token     Print a JWT the server accepts
            [--user admin] [--role Admin|DataSteward|DataConsumer] [--expires 1h]
  conform   Run the conformance suite against a server
            --target <base-url-ending-in-/api> [--token <jwt>] [--profile contract|openmetadata] ...
`;

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const stdio: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await runServe(rest, io);
      case 'token':
        return await runToken(rest, io);
      case 'conform': {
        const { runConform } = await import('./conform.ts');
        return await runConform(rest, io);
      }
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.err(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    io.err(`catalog-kit ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
