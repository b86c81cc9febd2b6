/** `catalog-kit token [--user admin] [--role Admin] [--expires 1h]`: one JWT `serve` accepts. */
import { parseArgs } from 'node:util';
import type { Role } from '../auth/tokens.ts';
import { ROLES, signToken } from '../auth/tokens.ts';
import type { Io } from './main.ts';

export async function runToken(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      user: { type: 'string', default: 'admin' },
      role: { type: 'string', default: 'Admin' },
      expires: { type: 'string', default: '1h' },
      secret: { type: 'string' },
    },
    strict: true,
  });
  if (!(ROLES as readonly string[]).includes(values.role)) {
    io.err(`Unknown role "${values.role}" (expected ${ROLES.join(', ')})\n`);
    return 2;
  }
  const token = await signToken({
    user: values.user,
    role: values.role as Role,
    expires: values.expires,
    ...(values.secret !== undefined ? { secret: values.secret } : {}),
  });
  io.out(`${token}\n`);
  return 0;
}
