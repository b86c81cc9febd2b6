/** Command-line arguments of `catalog-kit conform` (docs/cli.md). */
import { isProfile, PROFILE_CHOICES, type Profile } from './profiles.ts';
import { isRuleId, RULE_IDS } from './rules.ts';

/**
 * Laid out as every catalog-kit command's `--help`: one column of options, `(default: …)`, the exit
 * statuses last, lines of at most 100 characters (src/app/cli/cli.test.ts checks the layout).
 */
export const CONFORM_USAGE = `Usage: catalog-kit conform [options]

Runs the conformance suite against a server: random sequences of valid calls and fixed scenarios,
each answer checked against a model of the contract and the OpenAPI document; prints a table of the
rules, then the failures with the calls that replay them.

Options:
      --target URL              base URL of the API to test, ending in /api (e.g.
                                http://127.0.0.1:8585/api) (default: an in-process reference server)
      --token JWT               token of a user allowed to create and delete (default: $CK_TOKEN)
      --token-command "CMD"     run CMD and use the last word it prints as the token
      --restricted-token JWT    token of a user without write permission, for the 403 rule (default:
                                $CK_RESTRICTED_TOKEN)
      --profile NAME            what the target is expected to do where the contract and
                                OpenMetadata differ: contract, openmetadata (2.0) or
                                openmetadata-1.10 (default: contract)
      --runs N                  random sequences to run (default: 25)
      --seed S                  seed of the random sequences (default: a new one, printed by every
                                run)
      --path P                  replay one failing sequence (printed with its seed by a failure)
      --rules ID,...            check only these rules; a trailing .* selects a group, e.g. upsert.*
                                (default: all)
      --junit FILE              write a JUnit XML report
      --ctrf FILE               write a CTRF JSON report (test dashboards)
      --sarif FILE              write a SARIF 2.1.0 report (code-scanning views): a result per
                                failed rule, at its operation in the OpenAPI document
      --html FILE               write a self-contained HTML report (failures first, coverage matrix,
                                filter)
      --json FILE               write a JSON report
      --timeout SECONDS         give up on a request after this long: a target that does not answer
                                in time stops the run with exit 2 (default: 30)
      --settle-timeout SECONDS  how long to keep asking for what a target may record in the
                                background (search hits, change events, feed threads) before a rule
                                fails; 0 asks once (default: 5 for search, 10 for events and the
                                feed)
      --openapi URL|FILE        check every response against the target's own OpenAPI document (JSON
                                or YAML, 3.0 or 3.1) instead of the kit's
      --min-coverage PERCENT    fail the run (exit 1) when fewer of the operations of the
                                interface's kinds than this were exercised and checked by a rule
      --list-rules              print the rules with their sources and what each profile expects,
                                and exit
  -h, --help                    show this help and exit

Exit status: 0 every rule held; 1 a rule failed (or less was covered than --min-coverage); 2 wrong
command line, or a target it cannot use (down, not this API, token refused).
`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ConformArgs {
  target?: string;
  token?: string;
  tokenCommand?: string;
  restrictedToken?: string;
  profile: Profile;
  runs?: number;
  seed?: number;
  path?: string;
  rules?: string[];
  junit?: string;
  ctrf?: string;
  sarif?: string;
  html?: string;
  json?: string;
  /** Per-request time limit in milliseconds (--timeout is in seconds). */
  timeoutMs?: number;
  /** How long eventually consistent reads are retried, in milliseconds (--settle-timeout is in seconds). */
  settleTimeoutMs?: number;
  openapi?: string;
  minCoverage?: number;
  listRules: boolean;
  help: boolean;
}

const VALUE_OPTIONS = new Set([
  'target',
  'token',
  'token-command',
  'restricted-token',
  'profile',
  'runs',
  'seed',
  'path',
  'rules',
  'junit',
  'ctrf',
  'sarif',
  'html',
  'json',
  'timeout',
  'settle-timeout',
  'openapi',
  'min-coverage',
]);

export function parseConformArgs(argv: readonly string[]): ConformArgs {
  const args = argv[0] === 'conform' ? argv.slice(1) : [...argv];
  const values = new Map<string, string>();
  let help = false;
  let listRules = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '--list-rules') {
      listRules = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option --${name}`);
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      i += 1;
    }
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    if (values.has(name)) throw new UsageError(`--${name} given twice`);
    values.set(name, value);
  }
  const out: ConformArgs = { profile: 'contract', help, listRules };
  const target = values.get('target');
  if (target !== undefined) out.target = parseBaseUrl('target', target);
  out.token = values.get('token');
  out.tokenCommand = values.get('token-command');
  if (out.token !== undefined && out.tokenCommand !== undefined) throw new UsageError('give --token or --token-command, not both');
  out.restrictedToken = values.get('restricted-token');
  const profile = values.get('profile');
  if (profile !== undefined) {
    if (!isProfile(profile)) throw new UsageError(`unknown --profile "${profile}" (expected ${PROFILE_CHOICES})`);
    out.profile = profile;
  }
  const runs = values.get('runs');
  if (runs !== undefined) {
    if (!/^\d+$/.test(runs) || Number(runs) < 1) throw new UsageError('--runs must be a positive integer');
    out.runs = Number(runs);
  }
  const seed = values.get('seed');
  if (seed !== undefined) {
    if (!/^-?\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) throw new UsageError('--seed must be an integer');
    out.seed = Number(seed);
  }
  out.path = values.get('path');
  if (out.path !== undefined) {
    if (out.seed === undefined) throw new UsageError('--path needs the --seed it was printed with');
    if (!/^\d+(:\d+)*(~.+)?$/.test(out.path)) throw new UsageError(`--path "${out.path}" is not a path printed by a failure`);
  }
  const rules = values.get('rules');
  if (rules !== undefined) out.rules = expandRules(rules);
  for (const format of ['junit', 'ctrf', 'sarif', 'html', 'json'] as const) out[format] = values.get(format);
  const timeout = values.get('timeout');
  if (timeout !== undefined) {
    const seconds = Number(timeout);
    if (!/^\d+(\.\d+)?$/.test(timeout) || seconds <= 0 || seconds > 3600) throw new UsageError('--timeout must be a number of seconds, more than 0 and at most 3600');
    out.timeoutMs = Math.round(seconds * 1000);
  }
  const settle = values.get('settle-timeout');
  if (settle !== undefined) {
    const seconds = Number(settle);
    if (!/^\d+(\.\d+)?$/.test(settle) || seconds > 3600) throw new UsageError('--settle-timeout must be a number of seconds, from 0 to 3600');
    out.settleTimeoutMs = Math.round(seconds * 1000);
  }
  out.openapi = values.get('openapi');
  if (out.openapi === '') throw new UsageError('--openapi needs a URL or a file');
  const minCoverage = values.get('min-coverage');
  if (minCoverage !== undefined) {
    const percent = Number(minCoverage.replace(/%$/, ''));
    if (!/^\d+(\.\d+)?%?$/.test(minCoverage) || percent > 100) throw new UsageError('--min-coverage must be a percentage from 0 to 100');
    out.minCoverage = percent;
  }
  return out;
}

/** The API base URL given as `--<option>`, without a trailing slash; anything else is a usage error. */
export function parseBaseUrl(option: string, value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UsageError(`--${option} "${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${option} must be an http(s) URL`);
  if (!url.pathname.endsWith('/api')) throw new UsageError(`--${option} must be the API base URL ending in /api (got ${value})`);
  return trimmed;
}

/** `a.b,c.*` → rule ids; unknown ids are a usage error. */
export function expandRules(list: string): string[] {
  const out: string[] = [];
  for (const raw of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (raw.endsWith('.*')) {
      const prefix = raw.slice(0, -1);
      const group = RULE_IDS.filter((id) => id.startsWith(prefix));
      if (group.length === 0) throw new UsageError(`--rules: no rule id starts with "${prefix}"`);
      out.push(...group);
    } else if (isRuleId(raw)) out.push(raw);
    else throw new UsageError(`--rules: unknown rule "${raw}". Known rules:\n  ${RULE_IDS.join('\n  ')}`);
  }
  if (out.length === 0) throw new UsageError('--rules needs at least one rule id');
  return [...new Set(out)];
}
