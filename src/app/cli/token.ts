/**
 * `catalog-kit token`: prints one JWT that `catalog-kit serve` accepts. It takes the key options
 * under the names `serve` uses (`--jwt-secret`, `--jwt-issuer`, `--jwt-audience`), so the same
 * flags on both commands make a token the server accepts. Loads only jose, through
 * src/auth/tokens.ts.
 */
import type { Role } from '../../auth/tokens.ts';
import { ROLES, signToken, tokenLifetime } from '../../auth/tokens.ts';
import type { Io } from './main.ts';
import type { CommandSpec } from './options.ts';
import { EXIT, formatHelp, parseOptions, UsageError } from './options.ts';

export const TOKEN_COMMAND: CommandSpec = {
  name: 'token',
  summary: 'Prints a signed JWT (HS256) that catalog-kit serve accepts when started with the same --jwt-* options.',
  options: [
    { name: 'user', value: 'NAME', default: 'admin', help: 'user name (the `sub` claim); created by the server on first use' },
    { name: 'role', value: 'ROLE', default: 'Admin', help: `role (the \`roles\` claim): ${ROLES.join(', ')}` },
    { name: 'expires', value: 'DURATION', default: '1h', help: 'lifetime: a number of seconds or a time span, e.g. 30m, 1h, 7d, 2w' },
    { name: 'jwt-secret', value: 'SECRET', shownDefault: 'the built-in development key', help: 'HMAC secret to sign with; give serve the same --jwt-secret' },
    { name: 'secret', value: 'SECRET', aliasOf: 'jwt-secret', help: '' },
    { name: 'jwt-issuer', value: 'ISSUER', help: 'the `iss` claim, for a server started with --jwt-issuer' },
    { name: 'jwt-audience', value: 'AUDIENCE', help: 'the `aud` claim, for a server started with --jwt-audience' },
  ],
  exitStatus: '0 the token was printed, 2 wrong command line.',
};

export async function runToken(argv: string[], io: Io): Promise<number> {
  const args = parseOptions(TOKEN_COMMAND, argv);
  if (args.help) {
    io.out(formatHelp(TOKEN_COMMAND));
    return EXIT.ok;
  }
  const role = args.string('role')!;
  if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`unknown role "${role}" (expected ${ROLES.join(', ')})`);
  const expires = args.string('expires')!;
  try {
    if ((await tokenLifetime(expires)) <= 0) throw new Error('must be more than 0');
  } catch (error) {
    throw new UsageError(`--expires "${expires}" is not a duration (expected e.g. 30m, 1h, 7d)`, { cause: error });
  }
  const secret = args.string('jwt-secret');
  if (secret === '') throw new UsageError('--jwt-secret must not be empty');
  const issuer = args.string('jwt-issuer');
  const audience = args.string('jwt-audience');
  const token = await signToken({
    user: args.string('user')!,
    role: role as Role,
    expires,
    ...(secret !== undefined ? { secret } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(audience !== undefined ? { audience } : {}),
  });
  io.out(`${token}\n`);
  return EXIT.ok;
}
