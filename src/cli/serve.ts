/**
 * `catalog-kit serve`: starts the mock at http://<host>:<port>/api and prints the base URL, the
 * docs URL and a ready-to-use Admin token (DESIGN.md "Command-line interface").
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { signToken } from '../auth/tokens.ts';
import type { ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import { startServer } from '../server.ts';
import type { Io } from './main.ts';

export async function runServe(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      profile: { type: 'string', default: 'contract' },
      fixtures: { type: 'string', default: 'default' },
      'jwt-secret': { type: 'string' },
      'jwt-public-key': { type: 'string' },
      'jwt-issuer': { type: 'string' },
      'jwt-audience': { type: 'string' },
      'body-limit': { type: 'string' },
    },
    strict: true,
  });
  const profile = profileByName(values.profile).name as ProfileName;
  const port = Number(values.port ?? process.env.PORT ?? 8585);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port ${values.port ?? process.env.PORT}`);
  const auth = {
    ...(values['jwt-secret'] ? { secret: values['jwt-secret'] } : {}),
    ...(values['jwt-public-key'] ? { publicKey: readFileSync(values['jwt-public-key'], 'utf8') } : {}),
    ...(values['jwt-issuer'] ? { issuer: values['jwt-issuer'] } : {}),
    ...(values['jwt-audience'] ? { audience: values['jwt-audience'] } : {}),
  };
  const server = await startServer({
    port,
    host: values.host,
    profile,
    auth,
    ...(values['body-limit'] ? { bodyLimit: values['body-limit'] } : {}),
  });
  const token = auth.publicKey ? undefined : await signToken({ user: 'admin', role: 'Admin', expires: '7d', ...(auth.secret ? { secret: auth.secret } : {}) });
  io.out(`catalog-kit mock server (profile ${profile}) listening on ${server.baseUrl}\n`);
  io.out(`API base URL: ${server.baseUrl}\n`);
  if (token) io.out(`Admin token (7 days): ${token}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((resolve) => server.server.once('close', () => resolve()));
  return 0;
}
