/**
 * `catalog-kit serve`: starts the mock at http://<host>:<port>/api and prints the base URL, the
 * docs URL and a ready-to-use Admin token (README.md "Command line").
 *
 * Order matters: the command line is checked first (exit 2), then what start-up will read — the
 * fixtures directory, the data file, the public key — and then the server starts; any problem so
 * far is one line on stderr and exit 1. The banner and the token are printed only once the server
 * listens. The server modules are imported only after the checks, so `serve --help` and a wrong
 * command line answer without loading express.
 */
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ProfileName } from '../config/profiles.ts';
import { PROFILES } from '../config/profiles.ts';
import type { LogFormat } from '../http/request-log.ts';
import { LOG_FORMATS } from '../http/request-log.ts';
import type { RunningServer } from '../server.ts';
import type { Io } from './main.ts';
import type { CommandSpec, ParsedOptions } from './options.ts';
import { EXIT, formatHelp, oneLine, parseOptions, StartupError, UsageError } from './options.ts';

const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  summary: 'Starts the stateful mock server at http://HOST:PORT/api and prints its URLs and an Admin token. Ctrl-C stops it.',
  options: [
    { name: 'port', short: 'p', value: 'PORT', shownDefault: '$PORT, else 8585', help: 'port to listen on; 0 picks a free one' },
    { name: 'host', value: 'HOST', default: '127.0.0.1', help: 'address to listen on; 0.0.0.0 lets other machines in (configure a real key then)' },
    { name: 'profile', value: 'NAME', default: 'contract', help: `behaviour where the contract and OpenMetadata differ: ${PROFILE_NAMES.join(' or ')}` },
    { name: 'fixtures', value: 'SOURCE', default: 'default', help: 'start-up catalog: default (the demo catalog), none, or a directory of *.json fixtures' },
    { name: 'data', value: 'FILE', help: 'keep the state in FILE across restarts (loaded instead of the fixtures when it exists)' },
    { name: 'log', value: 'FORMAT', default: 'pretty', help: `request log on stderr: ${LOG_FORMATS.join(', ')}` },
    { name: 'cors-origin', value: 'ORIGIN', multiple: true, shownDefault: 'any origin', help: 'allowed CORS origin(s), comma-separated or repeated' },
    { name: 'jwt-secret', value: 'SECRET', shownDefault: 'the built-in development key', help: 'HMAC secret that tokens must be signed with (catalog-kit token --jwt-secret)' },
    { name: 'jwt-public-key', value: 'PEM-FILE', help: 'verify tokens with this public key (RS*, PS*, ES*, EdDSA) instead; no token is printed' },
    { name: 'jwt-issuer', value: 'ISSUER', help: 'refuse tokens whose `iss` differs' },
    { name: 'jwt-audience', value: 'AUDIENCE', help: 'refuse tokens whose `aud` differs' },
    { name: 'body-limit', value: 'SIZE', shownDefault: '1mb', help: 'largest accepted request body (e.g. 512kb, 5mb)' },
    { name: 'allow-faults', help: 'test only: serve PUT /__admin/faults for the conformance self-test' },
  ],
  exitStatus:
    '0 stopped by Ctrl-C or SIGTERM; 1 could not start (port in use, unreadable fixtures, data file or key); 2 wrong command line.',
};

const PORT_PROBLEMS = new Set(['EADDRINUSE', 'EACCES']);
const HOST_PROBLEMS = new Set(['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN']);

interface ServeConfig {
  port: number;
  host: string;
  profile: ProfileName;
  fixtures: string;
  dataFile: string | undefined;
  log: LogFormat;
  corsOrigins: string[];
  secret: string | undefined;
  publicKeyFile: string | undefined;
  issuer: string | undefined;
  audience: string | undefined;
  bodyLimit: string | undefined;
  allowFaults: boolean;
}

/** The command line → a configuration, or UsageError (exit 2). Reads no file. */
function configFrom(args: ParsedOptions, env: NodeJS.ProcessEnv): ServeConfig {
  const portText = args.string('port') ?? env.PORT ?? '8585';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`${args.string('port') === undefined ? 'PORT' : '--port'} "${portText}" is not a port (0-65535)`);
  const profile = args.string('profile')!;
  if (!(PROFILE_NAMES as string[]).includes(profile)) throw new UsageError(`unknown --profile "${profile}" (expected ${PROFILE_NAMES.join(' or ')})`);
  const log = args.string('log')!;
  if (!(LOG_FORMATS as readonly string[]).includes(log)) throw new UsageError(`unknown --log "${log}" (expected ${LOG_FORMATS.join(', ')})`);
  const bodyLimit = args.string('body-limit');
  if (bodyLimit !== undefined && !/^\d+(\.\d+)?\s*(b|kb|mb|gb|tb|pb)?$/i.test(bodyLimit)) throw new UsageError(`--body-limit "${bodyLimit}" is not a size (e.g. 512kb, 5mb)`);
  const secret = args.string('jwt-secret');
  if (secret === '') throw new UsageError('--jwt-secret must not be empty');
  const publicKeyFile = args.string('jwt-public-key');
  if (secret !== undefined && publicKeyFile !== undefined) throw new UsageError('give --jwt-secret or --jwt-public-key, not both');
  return {
    port,
    host: args.string('host')!,
    profile: profile as ProfileName,
    fixtures: args.string('fixtures')!,
    dataFile: args.string('data'),
    log: log as LogFormat,
    corsOrigins: args.list('cors-origin').flatMap((o) => o.split(',')).map((o) => o.trim()).filter(Boolean),
    secret,
    publicKeyFile,
    issuer: args.string('jwt-issuer'),
    audience: args.string('jwt-audience'),
    bodyLimit,
    allowFaults: args.flag('allow-faults'),
  };
}

/** What start-up will read is there and readable, else StartupError (exit 1) before any work. */
function checkInputs(config: ServeConfig): void {
  if (config.fixtures !== 'default' && config.fixtures !== 'none') {
    try {
      if (!statSync(config.fixtures).isDirectory()) throw new Error('not a directory');
      readdirSync(config.fixtures);
    } catch (error) {
      throw new StartupError(`--fixtures ${config.fixtures}: ${fsReason(error)}`);
    }
  }
  if (config.dataFile) {
    const file = config.dataFile;
    try {
      const stat = statSync(file, { throwIfNoEntry: false });
      if (stat) {
        if (!stat.isFile()) throw new Error('not a file');
        accessSync(file, constants.R_OK | constants.W_OK);
      } else {
        // Created on the first change: its directory must exist and be writable now.
        const dir = dirname(resolve(file));
        if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
        accessSync(dir, constants.W_OK);
      }
    } catch (error) {
      throw new StartupError(`--data ${file}: ${fsReason(error)}`);
    }
  }
}

function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return oneLine(error);
}

function readPublicKey(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new StartupError(`--jwt-public-key ${file}: ${fsReason(error)}`);
  }
}

export async function runServe(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseOptions(SERVE_COMMAND, argv);
  if (args.help) {
    io.out(formatHelp(SERVE_COMMAND));
    return EXIT.ok;
  }
  const config = configFrom(args, env);
  checkInputs(config);
  const publicKey = config.publicKeyFile === undefined ? undefined : readPublicKey(config.publicKeyFile);
  const tokens = await import('../auth/tokens.ts');
  if (publicKey !== undefined) {
    try {
      await tokens.importPublicKey(publicKey);
    } catch (error) {
      throw new StartupError(`--jwt-public-key ${config.publicKeyFile}: ${oneLine(error)}`);
    }
  }
  const auth = {
    ...(config.secret !== undefined ? { secret: config.secret } : {}),
    ...(publicKey !== undefined ? { publicKey } : {}),
    ...(config.issuer !== undefined ? { issuer: config.issuer } : {}),
    ...(config.audience !== undefined ? { audience: config.audience } : {}),
  };
  const hadDataFile = config.dataFile !== undefined && statSync(config.dataFile, { throwIfNoEntry: false }) !== undefined;
  const { startServer, ListenError } = await import('../server.ts');
  let server: RunningServer;
  try {
    server = await startServer({
      fixtures: config.fixtures,
      requestLog: config.log,
      ...(config.corsOrigins.length ? { corsOrigins: config.corsOrigins } : {}),
      ...(config.dataFile !== undefined ? { dataFile: config.dataFile } : {}),
      port: config.port,
      host: config.host,
      profile: config.profile,
      auth,
      ...(config.bodyLimit !== undefined ? { bodyLimit: config.bodyLimit } : {}),
      ...(config.allowFaults ? { allowFaults: true } : {}),
    });
  } catch (error) {
    if (error instanceof ListenError) {
      const hint = PORT_PROBLEMS.has(error.code) ? 'choose another with --port' : HOST_PROBLEMS.has(error.code) ? 'choose another with --host' : '';
      throw new StartupError(`${error.message}${hint ? `; ${hint}` : ''}`, { cause: error });
    }
    throw new StartupError(await describeLoadError(error, config, hadDataFile), { cause: error });
  }
  // Listening: only now the banner and the token.
  const token = publicKey !== undefined ? undefined : await tokens.signToken({ user: 'admin', role: 'Admin', expires: '7d', ...auth });
  io.out(`catalog-kit mock server (profile ${config.profile}) listening on ${server.baseUrl}\n`);
  io.out(`API base URL: ${server.baseUrl}\n`);
  const origin = server.baseUrl.replace(/\/api$/, '');
  io.out(`API reference: ${origin}/docs  (OpenAPI: ${origin}/openapi.json, Admin API: ${origin}/__admin)\n`);
  io.out(`Catalog: ${[...server.ctx.store.all()].length} entities (${hadDataFile ? `data file: ${config.dataFile}` : `fixtures: ${config.fixtures}`})\n`);
  if (token) io.out(`Admin token (7 days): ${token}\n`);
  const stop = () => {
    server.dev.persister?.flush();
    void server.close().then(() => process.exit(EXIT.ok));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((done) => server.server.once('close', () => done()));
  return EXIT.ok;
}

/** A failure while building the start-up state, named after the option that supplied it. */
async function describeLoadError(error: unknown, config: ServeConfig, hadDataFile: boolean): Promise<string> {
  if (hadDataFile) {
    const reason = oneLine(error);
    return reason.includes(config.dataFile!) ? reason : `--data ${config.dataFile}: ${reason}`;
  }
  const { FixtureError } = await import('../fixtures/load-fixtures.ts');
  if (config.fixtures !== 'none' && (error instanceof FixtureError || error instanceof SyntaxError)) {
    // load-fixtures.ts names the file for a fixture it could not apply but not for one that is
    // not JSON: find that one here, on the failure path only.
    const broken = error instanceof SyntaxError ? firstInvalidJson(config.fixtures) : undefined;
    return `--fixtures ${config.fixtures}: ${broken ? `fixture ${broken}: ` : ''}${oneLine(error)}`;
  }
  return `cannot start: ${oneLine(error)}`;
}

function firstInvalidJson(fixtures: string): string | undefined {
  if (fixtures === 'default') return undefined;
  for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.json')).sort()) {
    try {
      JSON.parse(readFileSync(join(fixtures, file), 'utf8'));
    } catch {
      return file;
    }
  }
  return undefined;
}
