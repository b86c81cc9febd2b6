/**
 * `catalog-kit conform`: the conformance suite (conformance/, which never imports src/; its options
 * and `--help` are in conformance/args.ts). Without `--target` it runs against an in-process
 * reference server started here, on a loopback port; the server modules are imported only then,
 * so `conform --help` and runs against a target do not load them.
 */
import type { ReferenceServer } from '../../conformance/cli.ts';
import { conformMain } from '../../conformance/cli.ts';
import type { ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import type { Io } from './main.ts';

/** The reference server of a profile, on 127.0.0.1 and a free port, with an Admin and a DataConsumer token (also `drift`'s reference). */
export async function startReference({ profile }: { profile: string }): Promise<ReferenceServer> {
  const [{ startServer }, { signToken }] = await Promise.all([import('../server.ts'), import('../auth/tokens.ts')]);
  const server = await startServer({ port: 0, host: '127.0.0.1', profile: profileByName(profile).name as ProfileName, log: () => {} });
  return {
    baseUrl: server.baseUrl,
    token: await signToken({ user: 'conformance-admin', role: 'Admin' }),
    restrictedToken: await signToken({ user: 'conformance-reader', role: 'DataConsumer' }),
    close: () => server.close(),
  };
}

export async function runConform(argv: string[], io: Io): Promise<number> {
  return conformMain(argv, { stdout: io.out, stderr: io.err, startReference });
}
