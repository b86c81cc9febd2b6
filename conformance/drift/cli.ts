/**
 * `catalog-kit drift`: parse arguments, get the two servers (without --reference, the reference of
 * the same profile through deps.startReference), run, print the parity table and the differences,
 * write reports, return the exit code: 0 every pair matched, 1 a difference, 2 usage or connection.
 */
import { parseArgs } from 'node:util';
import { parseBaseUrl, UsageError } from '../args.ts';
import { interruptible, runFailure } from '../run-failure.ts';
import { runTokenCommand, writer, type ReferenceServer, type Writer } from '../cli.ts';
import { isProfile, PROFILE_CHOICES, type Profile } from '../profiles.ts';
import { writeReportFiles, type ReportFiles } from '../report/write.ts';
import { driftConsole, driftCtrf, driftHtml, driftJson, driftJunit, driftSarif, failedOperations } from './report.ts';
import { runDrift, type DriftServer } from './run.ts';

/** Laid out as every catalog-kit command's `--help` (src/app/cli/cli.test.ts checks the layout). */
export const DRIFT_USAGE = `Usage: catalog-kit drift --target <base-url-ending-in-/api> [options]

Runs the suite's generated request sequences against the target and a reference server in lock-step,
each in its own namespace, and compares every pair of answers (ids, hrefs, ETags, versions and
cursors mapped by position, timestamps by kind, message texts by presence).

Options:
      --target URL                      base URL of the API to check, ending in /api
      --token JWT                       the target's token of a user allowed to create and delete
                                        (default: $CK_TOKEN)
      --token-command "CMD"             run CMD and use its output as the target's token
      --reference URL                   base URL of the reference API, ending in /api (default: an
                                        in-process reference server of the same profile)
      --reference-token JWT             the reference's token (default: $CK_REFERENCE_TOKEN)
      --restricted-token JWT            the target's token of a user without write permission
                                        (default: $CK_RESTRICTED_TOKEN)
      --reference-restricted-token JWT  the same for the reference; the restricted user's requests
                                        are sent only when both servers have one (default:
                                        $CK_REFERENCE_RESTRICTED_TOKEN)
      --profile NAME                    what both servers are expected to do where the contract and
                                        OpenMetadata differ: contract, openmetadata (2.0) or
                                        openmetadata-1.10 (default: contract)
      --runs N                          generated sequences (default: 25)
      --seed S                          seed of the sequences (default: a new one, printed by every
                                        run)
      --path P                          replay one sequence (printed with its seed by a difference)
      --timeout SECONDS                 give up on a request after this long (default: 30)
      --junit FILE                      write a JUnit XML report (a testcase per operation)
      --ctrf FILE                       write a CTRF JSON report
      --sarif FILE                      write a SARIF 2.1.0 report (a result per differing
                                        operation)
      --html FILE                       write a self-contained HTML report
      --json FILE                       write a JSON report
  -h, --help                            show this help and exit

Exit status: 0 every pair of answers matched, 1 a difference, 2 usage or connection error.
`;

interface DriftArgs extends ReportFiles {
  target: string;
  token?: string;
  tokenCommand?: string;
  reference?: string;
  referenceToken?: string;
  restrictedToken?: string;
  referenceRestrictedToken?: string;
  profile: Profile;
  runs?: number;
  seed?: number;
  path?: string;
  timeoutMs?: number;
}

const STRING = { type: 'string' } as const;

/** The command line of `drift`; undefined for --help. */
function parseDriftArgs(argv: readonly string[]): DriftArgs | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv[0] === 'drift' ? argv.slice(1) : [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        target: STRING,
        token: STRING,
        'token-command': STRING,
        reference: STRING,
        'reference-token': STRING,
        'restricted-token': STRING,
        'reference-restricted-token': STRING,
        profile: STRING,
        runs: STRING,
        seed: STRING,
        path: STRING,
        timeout: STRING,
        junit: STRING,
        ctrf: STRING,
        sarif: STRING,
        html: STRING,
        json: STRING,
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify .*$/s, ''));
  }
  const v = parsed.values;
  if (v.help) return undefined;
  if (v.target === undefined) throw new UsageError('--target is required (the base URL of the API to check, ending in /api)');
  const out: DriftArgs = { target: parseBaseUrl('target', v.target), profile: 'contract' };
  if (v.reference !== undefined) out.reference = parseBaseUrl('reference', v.reference);
  if (v.token !== undefined && v['token-command'] !== undefined) throw new UsageError('give --token or --token-command, not both');
  Object.assign(out, {
    token: v.token,
    tokenCommand: v['token-command'],
    referenceToken: v['reference-token'],
    restrictedToken: v['restricted-token'],
    referenceRestrictedToken: v['reference-restricted-token'],
    path: v.path,
    junit: v.junit,
    ctrf: v.ctrf,
    sarif: v.sarif,
    html: v.html,
    json: v.json,
  });
  if (v.profile !== undefined) {
    if (!isProfile(v.profile)) throw new UsageError(`unknown --profile "${v.profile}" (expected ${PROFILE_CHOICES})`);
    out.profile = v.profile;
  }
  if (v.runs !== undefined) {
    if (!/^\d+$/.test(v.runs) || Number(v.runs) < 1) throw new UsageError('--runs must be a positive integer');
    out.runs = Number(v.runs);
  }
  if (v.seed !== undefined) {
    if (!/^-?\d+$/.test(v.seed) || !Number.isSafeInteger(Number(v.seed))) throw new UsageError('--seed must be an integer');
    out.seed = Number(v.seed);
  }
  if (out.path !== undefined) {
    if (out.seed === undefined) throw new UsageError('--path needs the --seed it was printed with');
    if (!/^\d+(:\d+)*(~.+)?$/.test(out.path)) throw new UsageError(`--path "${out.path}" is not a path printed by a difference`);
  }
  if (v.timeout !== undefined) {
    const seconds = Number(v.timeout);
    if (!/^\d+(\.\d+)?$/.test(v.timeout) || seconds <= 0 || seconds > 3600) throw new UsageError('--timeout must be a number of seconds, more than 0 and at most 3600');
    out.timeoutMs = Math.round(seconds * 1000);
  }
  return out;
}

export interface DriftDeps {
  /** Starts the reference of a profile when --reference is absent (src/app/cli/drift.ts gives it). */
  startReference?: (opts: { profile: string }) => Promise<ReferenceServer>;
  stdout?: Writer;
  stderr?: Writer;
  /** Environment for the tokens (default process.env). */
  env?: Record<string, string | undefined>;
  /** Install a SIGINT handler that stops the run and cleans up (default true). */
  handleSigint?: boolean;
}

export async function driftMain(argv: string[], deps: DriftDeps = {}): Promise<number> {
  const out = writer(deps.stdout, process.stdout);
  const err = writer(deps.stderr, process.stderr);
  const env = deps.env ?? process.env;
  let args: DriftArgs | undefined;
  try {
    args = parseDriftArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`catalog-kit drift: ${e.message} (see catalog-kit drift --help)\n`);
      return 2;
    }
    throw e;
  }
  if (!args) {
    out(DRIFT_USAGE);
    return 0;
  }
  let started: ReferenceServer | undefined;
  const interrupt = interruptible(err, deps.handleSigint ?? true);
  try {
    const token = args.tokenCommand ? await runTokenCommand(args.tokenCommand) : (args.token ?? env.CK_TOKEN);
    if (!token) throw new UsageError('--target needs a token: --token, --token-command or CK_TOKEN');
    const target: DriftServer = { baseUrl: args.target, token, restrictedToken: args.restrictedToken ?? env.CK_RESTRICTED_TOKEN };
    let reference: DriftServer;
    if (args.reference) {
      const referenceToken = args.referenceToken ?? env.CK_REFERENCE_TOKEN;
      if (!referenceToken) throw new UsageError('--reference needs a token: --reference-token or CK_REFERENCE_TOKEN');
      reference = { baseUrl: args.reference, token: referenceToken, restrictedToken: args.referenceRestrictedToken ?? env.CK_REFERENCE_RESTRICTED_TOKEN };
    } else {
      if (!deps.startReference) throw new UsageError('no --reference given, and no in-process reference server is available here');
      err(`drift: no --reference: starting the in-process reference server (profile ${args.profile})\n`);
      started = await deps.startReference({ profile: args.profile });
      reference = {
        baseUrl: started.baseUrl,
        token: started.token,
        restrictedToken: started.restrictedToken,
        fetch: started.fetch,
        label: `the in-process reference (profile ${args.profile})`,
      };
    }
    const report = await runDrift({
      target,
      reference,
      profile: args.profile,
      runs: args.runs,
      seed: args.seed,
      path: args.path,
      timeoutMs: args.timeoutMs,
      log: (line) => err(`drift: ${line}\n`),
      isAborted: interrupt.aborted,
    });
    await writeReportFiles(args, {
      junit: () => driftJunit(report),
      ctrf: () => driftCtrf(report),
      sarif: () => driftSarif(report),
      html: () => driftHtml(report),
      json: () => driftJson(report),
    });
    out(driftConsole(report));
    return failedOperations(report) > 0 ? 1 : 0;
  } catch (e) {
    err(runFailure('drift', e, 'a server', Boolean(env.CK_DEBUG)));
    return 2;
  } finally {
    interrupt.dispose();
    if (started) await started.close().catch(() => {});
  }
}
