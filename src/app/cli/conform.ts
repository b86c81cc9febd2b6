/**
 * `catalog-kit conform`: the conformance suite (conformance/, which never imports src/; its options
 * and `--help` are in conformance/args.ts). Without `--target` it runs against the reference: the
 * catalog of the profile in process (src/app/in-process/catalog.ts), answering the suite's `fetch`
 * through the same dispatcher as `serve`, with no port; it is imported only then, so
 * `conform --help` and runs against a target do not load it. `drift` takes the same reference.
 */
import type { ReferenceServer } from '../../../conformance/cli.ts';
import { conformMain } from '../../../conformance/cli.ts';
import { profileByName } from '../../config/profiles.ts';
import type { Io } from './main.ts';

/** The empty catalog of a profile, in process, with an Admin and a DataConsumer token. */
export async function startReference({ profile }: { profile: string }): Promise<ReferenceServer> {
  const { createCatalog } = await import('../in-process/catalog.ts');
  const catalog = await createCatalog({ profile: profileByName(profile).name, fixtures: 'none' });
  return {
    baseUrl: catalog.baseUrl,
    fetch: catalog.fetch,
    token: await catalog.token({ user: 'conformance-admin', role: 'Admin' }),
    restrictedToken: await catalog.token({ user: 'conformance-reader', role: 'DataConsumer' }),
    close: async () => catalog.close(),
  };
}

export async function runConform(argv: string[], io: Io): Promise<number> {
  return conformMain(argv, { stdout: io.out, stderr: io.err, startReference });
}
