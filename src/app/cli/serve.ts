/**
 * `catalog-kit serve`: starts the mock at http://<host>:<port>/api and prints the base URL, the
 * docs URL and a ready-to-use Admin token (docs/cli.md).
 *
 * Order matters: the command line is checked first (exit 2), then whether it would expose the
 * public development key (below), then what start-up will read — the fixtures directory, the data
 * file, the public key — and then the server starts; any problem so far is one line on stderr and
 * exit 1. The banner and the token are printed only once the server listens. The server modules
 * are imported only after the checks, so `serve --help` and a wrong command line answer without
 * loading express.
 */
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { dirname, resolve } from 'node:path';
import type { ProfileName } from '../../config/profiles.ts';
import { PROFILE_CHOICES, PROFILE_NAMES } from '../../config/profiles.ts';
import type { LogFormat } from '../request-log.ts';
import { LOG_FORMATS } from '../request-log.ts';
import type { ListeningHandler } from '../server.ts';
import type { Io } from './main.ts';
import type { CommandSpec, ParsedOptions } from './options.ts';
import { EXIT, formatHelp, oneLine, parseOptions, StartupError, UsageError } from './options.ts';

export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  summary: 'Starts the stateful mock server at http://HOST:PORT/api and prints its URLs and an Admin token. Ctrl-C stops it.',
  options: [
    { name: 'port', short: 'p', value: 'PORT', shownDefault: '$PORT, else 8585', help: 'port to listen on; 0 picks a free one' },
    { name: 'host', value: 'HOST', default: '127.0.0.1', help: 'address to listen on; a non-loopback one (0.0.0.0) needs --jwt-secret or --jwt-public-key' },
    { name: 'profile', value: 'NAME', default: 'contract', help: `behaviour where the contract and OpenMetadata differ: ${PROFILE_CHOICES}` },
    { name: 'fixtures', value: 'SOURCE', default: 'default', help: 'start-up catalog: default (the demo catalog), none, or a directory of *.json fixtures' },
    { name: 'data', value: 'FILE', help: 'keep the state in FILE across restarts (loaded instead of the fixtures when it exists)' },
    { name: 'log', value: 'FORMAT', default: 'pretty', help: `request log on stderr: ${LOG_FORMATS.join(', ')} (json: the start-up banner too is one JSON line)` },
    { name: 'cors-origin', value: 'ORIGIN', multiple: true, shownDefault: 'any origin', help: 'allowed CORS origin(s), comma-separated or repeated' },
    { name: 'jwt-secret', value: 'SECRET', shownDefault: 'the built-in development key', help: 'HMAC secret that tokens must be signed with (catalog-kit token --jwt-secret)' },
    { name: 'jwt-public-key', value: 'PEM-FILE', help: 'verify tokens with this public key (RS*, PS*, ES*, EdDSA) instead; no token is printed' },
    { name: 'jwt-issuer', value: 'ISSUER', help: 'refuse tokens whose `iss` differs' },
    { name: 'jwt-audience', value: 'AUDIENCE', help: 'refuse tokens whose `aud` differs' },
    { name: 'insecure-dev-key', help: 'listen on a non-loopback --host with the public development key anyway: anyone who can reach the server can mint an Admin token' },
    { name: 'body-limit', value: 'SIZE', shownDefault: '1mb', help: 'largest accepted request body (e.g. 512kb, 5mb)' },
    { name: 'max-events', value: 'N', shownDefault: '10000', help: 'change events (and feed notifications) kept; the oldest go first' },
    {
      name: 'webhook-allow',
      value: 'PATTERN',
      multiple: true,
      shownDefault: 'loopback hosts only',
      help: 'let webhooks call the hosts outside loopback this host pattern names (a host name or address, * for any run of characters: hooks.example.com, *.internal, 10.0.0.*); comma-separated or repeated',
    },
  ],
  exitStatus:
    '0 stopped by Ctrl-C or SIGTERM; 1 could not start (port in use, unreadable fixtures, data file or key, a non-loopback --host with the development key); 2 wrong command line.',
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
  maxEvents: number | undefined;
  insecureDevKey: boolean;
  webhookAllow: string[];
}

/** The command line → a configuration, or UsageError (exit 2). Reads no file. */
function configFrom(args: ParsedOptions, env: NodeJS.ProcessEnv): ServeConfig {
  const portText = args.string('port') ?? env.PORT ?? '8585';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`${args.string('port') === undefined ? 'PORT' : '--port'} "${portText}" is not a port (0-65535)`);
  const profile = args.string('profile')!;
  if (!(PROFILE_NAMES as readonly string[]).includes(profile)) throw new UsageError(`unknown --profile "${profile}" (expected ${PROFILE_CHOICES})`);
  const log = args.string('log')!;
  if (!(LOG_FORMATS as readonly string[]).includes(log)) throw new UsageError(`unknown --log "${log}" (expected ${LOG_FORMATS.join(', ')})`);
  const bodyLimit = args.string('body-limit');
  if (bodyLimit !== undefined && !/^\d+(\.\d+)?\s*(b|kb|mb|gb|tb|pb)?$/i.test(bodyLimit)) throw new UsageError(`--body-limit "${bodyLimit}" is not a size (e.g. 512kb, 5mb)`);
  const maxEventsText = args.string('max-events');
  if (maxEventsText !== undefined && !/^\d+$/.test(maxEventsText)) throw new UsageError(`--max-events "${maxEventsText}" is not a whole number`);
  const secret = args.string('jwt-secret');
  if (secret === '') throw new UsageError('--jwt-secret must not be empty');
  const publicKeyFile = args.string('jwt-public-key');
  if (secret !== undefined && publicKeyFile !== undefined) throw new UsageError('give --jwt-secret or --jwt-public-key, not both');
  const webhookAllow = args
    .list('webhook-allow')
    .flatMap((pattern) => pattern.split(','))
    .map((pattern) => pattern.trim());
  for (const pattern of webhookAllow) {
    if (!/^[\w.*:[\]-]+$/.test(pattern) || pattern.includes('://')) {
      throw new UsageError(`--webhook-allow "${pattern}" is not a host pattern (a host name or address, * for any run of characters: hooks.example.com, *.internal)`);
    }
  }
  return {
    port,
    host: args.string('host')!,
    profile: profile as ProfileName,
    fixtures: args.string('fixtures')!,
    dataFile: args.string('data'),
    log: log as LogFormat,
    corsOrigins: args
      .list('cors-origin')
      .flatMap((o) => o.split(','))
      .map((o) => o.trim())
      .filter(Boolean),
    secret,
    publicKeyFile,
    issuer: args.string('jwt-issuer'),
    audience: args.string('jwt-audience'),
    bodyLimit,
    maxEvents: maxEventsText === undefined ? undefined : Number(maxEventsText),
    insecureDevKey: args.flag('insecure-dev-key'),
    webhookAllow,
  };
}

/**
 * Loopback addresses: 127.0.0.0/8 (also as an IPv4-mapped IPv6 address), ::1 and `localhost`.
 * Any other host — 0.0.0.0, ::, a LAN address, a host name — may be reachable from other machines.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIPv4(v4) && v4.startsWith('127.');
}

/**
 * The built-in development key is in the source (src/auth/tokens.ts), so anyone can sign an Admin
 * token with it: on an address other machines can reach, that is an open server. Refused unless
 * the user says they mean it with --insecure-dev-key. True when the override is in effect.
 */
function exposesDevKey(config: ServeConfig): boolean {
  if (config.secret !== undefined || config.publicKeyFile !== undefined || isLoopbackHost(config.host)) return false;
  if (!config.insecureDevKey) {
    throw new StartupError(
      `--host ${config.host} is not a loopback address and tokens would be signed with the public development key: give --jwt-secret or --jwt-public-key (or --insecure-dev-key to allow it anyway)`,
    );
  }
  return true;
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
  if (config.log !== 'json') return serve(config, io);
  // `--log json`: a start-up problem too is one JSON line on stderr, for the log processor that
  // reads the rest (a wrong command line, exit 2, stays text: a person typed it).
  try {
    return await serve(config, io);
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    io.err(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', message: `catalog-kit serve: ${oneLine(error)}`, exitCode: EXIT.failed })}\n`);
    return EXIT.failed;
  }
}

async function serve(config: ServeConfig, io: Io): Promise<number> {
  const insecure = exposesDevKey(config);
  checkInputs(config);
  const publicKey = config.publicKeyFile === undefined ? undefined : readPublicKey(config.publicKeyFile);
  const tokens = await import('../../auth/tokens.ts');
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
  const { serveCatalog, ListenError } = await import('../server.ts');
  const json = config.log === 'json';
  let server: ListeningHandler;
  try {
    server = await serveCatalog({
      fixtures: config.fixtures,
      requestLog: config.log,
      // On stderr, through io (tests read it). `--log json`: every line is JSON, so the output can
      // go to a JSON log processor.
      log: json ? jsonLog(io.err) : (line: string) => io.err(`${line}\n`),
      ...(config.corsOrigins.length ? { corsOrigins: config.corsOrigins } : {}),
      ...(config.dataFile !== undefined ? { dataFile: config.dataFile } : {}),
      port: config.port,
      host: config.host,
      profile: config.profile,
      auth,
      ...(config.bodyLimit !== undefined ? { bodyLimit: config.bodyLimit } : {}),
      ...(config.maxEvents !== undefined ? { maxEvents: config.maxEvents } : {}),
      ...(config.webhookAllow.length ? { webhooks: { allowHosts: config.webhookAllow } } : {}),
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
  const entities = [...server.ctx.store.all()].length;
  const catalogSource = hadDataFile ? `data file: ${config.dataFile}` : `fixtures: ${config.fixtures}`;
  const origin = server.baseUrl.replace(/\/api$/, '');
  const warning = insecure
    ? `WARNING: listening on ${config.host} with the public development key: anyone who can reach this server can mint an Admin token (give --jwt-secret or --jwt-public-key)`
    : undefined;
  if (json) {
    io.out(
      `${JSON.stringify({
        time: new Date().toISOString(),
        message: 'listening',
        baseUrl: server.baseUrl,
        docsUrl: `${origin}/docs`,
        openapiUrl: `${origin}/openapi.json`,
        adminUrl: `${origin}/__admin`,
        profile: config.profile,
        catalog: { entities, source: catalogSource },
        ...(token ? { token, tokenExpiresIn: '7d' } : {}),
        ...(warning ? { warning } : {}),
      })}\n`,
    );
  } else {
    // The first link opens in a browser without a token (the API itself answers 401 without
    // one); the base URL is printed once, on the line scripts read (`API base URL: <url>`).
    io.out(`catalog-kit mock server listening (profile ${config.profile})\n`);
    if (warning) io.out(`${warning}\n`);
    io.out(`API reference: ${origin}/docs (${token ? 'Authorize with the token below' : 'Authorize with a token of your key'})\n`);
    io.out(`API base URL: ${server.baseUrl} (every call needs Authorization: Bearer <token>)\n`);
    io.out(`Admin API: ${origin}/__admin (no token) · OpenAPI: ${origin}/openapi.json\n`);
    io.out(`Catalog: ${entities} entities (${catalogSource})\n`);
    if (token) io.out(`Admin token (7 days): ${token}\n`);
  }
  const stop = () => {
    server.dev.persister?.flush();
    void server.close().then(() => process.exit(EXIT.ok));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const abort = () => {
    server.dev.persister?.flush();
    void server.close();
  };
  if (io.stop?.aborted) abort();
  else io.stop?.addEventListener('abort', abort, { once: true });
  await new Promise<void>((done) => server.server.once('close', () => done()));
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  io.stop?.removeEventListener('abort', abort);
  return EXIT.ok;
}

/** A failure while building the start-up state, named after the option that supplied it. */
async function describeLoadError(error: unknown, config: ServeConfig, hadDataFile: boolean): Promise<string> {
  if (hadDataFile) {
    const reason = oneLine(error);
    return reason.includes(config.dataFile!) ? reason : `--data ${config.dataFile}: ${reason}`;
  }
  const { FixtureError } = await import('../fixtures/load-fixtures.ts');
  // load-fixtures.ts names the file, and for a syntax error the line: the option is added here.
  if (config.fixtures !== 'none' && error instanceof FixtureError) return `--fixtures ${config.fixtures}: ${oneLine(error)}`;
  return `cannot start: ${oneLine(error)}`;
}

/**
 * `--log json`: a line that is not already a JSON object (a logged 500, a notice) becomes
 * `{"time", "message"}`, so every line is one JSON object.
 */
function jsonLog(write: (text: string) => void): (line: string) => void {
  return (line) => write(`${line.startsWith('{') && line.endsWith('}') ? line : JSON.stringify({ time: new Date().toISOString(), message: line })}\n`);
}

/**
 * What the build runs before it writes the code cache of this command's bundle (scripts/build.mjs):
 * what a start runs, the demo catalog built and one authenticated request answered, in process,
 * with no port (not the express app, which a start does not build: the cache holds what it runs).
 */
export async function warmUp(): Promise<void> {
  const [{ createHandler }, { signToken }] = await Promise.all([import('../app.ts'), import('../../auth/tokens.ts')]);
  const catalog = await createHandler({ fixtures: 'default', log: () => {} });
  try {
    const token = await signToken({ user: 'admin', role: 'Admin' });
    const answer = await catalog.dispatch({ method: 'GET', url: '/api/v1/containers?limit=1', origin: 'http://127.0.0.1:8585', headers: { authorization: `Bearer ${token}` } });
    if (answer.status !== 200) throw new Error(`the warm-up request was answered ${answer.status}: ${answer.body ?? ''}`);
  } finally {
    catalog.webhooks.stop();
  }
}
