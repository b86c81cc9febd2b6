/**
 * `catalog-kit conform`: the conformance suite (conformance/, which never imports src/). Without
 * `--target` it runs against an in-process reference server started here, on a loopback port.
 */
import { conformMain } from '../../conformance/cli.ts';
import { signToken } from '../auth/tokens.ts';
import type { ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import { startServer } from '../server.ts';
import type { Io } from './main.ts';

export async function runConform(argv: string[], io: Io): Promise<number> {
  return conformMain(argv, {
    stdout: io.out,
    stderr: io.err,
    startReference: async ({ profile }) => {
      const server = await startServer({ port: 0, host: '127.0.0.1', profile: profileByName(profile).name as ProfileName, log: () => {} });
      return {
        baseUrl: server.baseUrl,
        token: await signToken({ user: 'conformance-admin', role: 'Admin' }),
        restrictedToken: await signToken({ user: 'conformance-reader', role: 'DataConsumer' }),
        close: () => server.close(),
      };
    },
  });
}
