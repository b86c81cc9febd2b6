/**
 * `catalog-kit serve`: starts the mock at http://<host>:<port>/api and prints the base URL, the
 * docs URL and a ready-to-use Admin token (DESIGN.md "Command-line interface").
 */
import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { signToken } from '../auth/tokens.ts';
import type { ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import type { LogFormat } from '../http/request-log.ts';
import { LOG_FORMATS } from '../http/request-log.ts';
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
      'cors-origin': { type: 'string', multiple: true },
      log: { type: 'string', default: 'pretty' },
      data: { type: 'string' },
      'allow-faults': { type: 'boolean', default: false },
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
  if (!(LOG_FORMATS as readonly string[]).includes(values.log)) throw new Error(`Invalid --log ${values.log}: expected ${LOG_FORMATS.join('|')}`);
  const corsOrigins = (values['cors-origin'] ?? []).flatMap((o) => o.split(',')).map((o) => o.trim()).filter(Boolean);
  const server = await startServer({
    fixtures: values.fixtures,
    requestLog: values.log as LogFormat,
    ...(corsOrigins.length ? { corsOrigins } : {}),
    ...(values.data ? { dataFile: values.data } : {}),
    port,
    host: values.host,
    profile,
    auth,
    ...(values['body-limit'] ? { bodyLimit: values['body-limit'] } : {}),
    ...(values['allow-faults'] ? { allowFaults: true } : {}),
  });
  const token = auth.publicKey ? undefined : await signToken({ user: 'admin', role: 'Admin', expires: '7d', ...(auth.secret ? { secret: auth.secret } : {}) });
  io.out(`catalog-kit mock server (profile ${profile}) listening on ${server.baseUrl}\n`);
  io.out(`API base URL: ${server.baseUrl}\n`);
  const origin = server.baseUrl.replace(/\/api$/, '');
  io.out(`API reference: ${origin}/docs  (OpenAPI: ${origin}/openapi.json, Admin API: ${origin}/__admin)\n`);
  io.out(`Catalog: ${[...server.ctx.store.all()].length} entities (fixtures: ${values.data && existsSync(values.data) ? values.data : values.fixtures})\n`);
  if (token) io.out(`Admin token (7 days): ${token}\n`);
  const stop = () => {
    server.dev.persister?.flush();
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((resolve) => server.server.once('close', () => resolve()));
  return 0;
}
