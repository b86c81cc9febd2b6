import { describe, expect, it } from 'vitest';
import { expandRules, parseConformArgs, UsageError } from './args.ts';
import { RULE_IDS } from './rules.ts';

describe('catalog-kit conform arguments', () => {
  it('reads every option docs/cli.md lists, in both --opt value and --opt=value forms', () => {
    const args = parseConformArgs([
      'conform',
      '--target',
      'http://127.0.0.1:8585/api/',
      '--token=abc',
      '--restricted-token',
      'def',
      '--profile',
      'openmetadata',
      '--runs',
      '50',
      '--seed',
      '-12',
      '--path',
      '3:1:0~AB:C',
      '--rules',
      'upsert.creates,errors.body-shape',
      '--junit',
      'out/junit.xml',
      '--json',
      'out/report.json',
      '--timeout',
      '2.5',
      '--settle-timeout',
      '0.5',
      '--openapi',
      'https://om.example/swagger.json',
      '--min-coverage=95%',
      '--list-rules',
    ]);
    expect(args).toEqual({
      target: 'http://127.0.0.1:8585/api',
      token: 'abc',
      tokenCommand: undefined,
      restrictedToken: 'def',
      profile: 'openmetadata',
      runs: 50,
      seed: -12,
      path: '3:1:0~AB:C',
      rules: ['upsert.creates', 'errors.body-shape'],
      junit: 'out/junit.xml',
      json: 'out/report.json',
      timeoutMs: 2500,
      settleTimeoutMs: 500,
      openapi: 'https://om.example/swagger.json',
      minCoverage: 95,
      listRules: true,
      help: false,
    });
  });

  it('defaults to the contract profile and no target (the in-process reference)', () => {
    const args = parseConformArgs([]);
    expect(args.profile).toBe('contract');
    expect(args.target).toBeUndefined();
    expect(args.timeoutMs).toBeUndefined(); // the client's default applies (30 s)
    expect(args.settleTimeoutMs).toBeUndefined(); // each scenario's own patience applies (search 5 s, events 10 s)
    expect(parseConformArgs(['--settle-timeout', '0']).settleTimeoutMs).toBe(0); // ask once
    expect(args.help).toBe(false);
  });

  it.each([
    [['--target', 'http://127.0.0.1:8585'], /ending in \/api/],
    [['--target', 'ftp://x/api'], /http/],
    [['--profile', 'strict'], /^unknown --profile "strict" \(expected contract, openmetadata or openmetadata-1\.10\)$/],
    [['--runs', '0'], /positive/],
    [['--seed', 'abc'], /integer/],
    [['--path', '1:2'], /--seed/],
    [['--seed', '1', '--path', 'x'], /not a path/],
    [['--rules', 'no.such-rule'], /unknown rule/],
    [['--token', 'a', '--token-command', 'echo b'], /not both/],
    [['--bogus'], /unknown option/],
    [['--runs'], /needs a value/],
    [['--runs', '3', '--runs', '4'], /twice/],
    [['stray'], /unexpected argument/],
    [['--timeout', '0'], /--timeout must be a number of seconds/],
    [['--timeout', '5s'], /--timeout must be a number of seconds/],
    [['--settle-timeout', '-1'], /--settle-timeout must be a number of seconds/],
    [['--settle-timeout', '5000ms'], /--settle-timeout must be a number of seconds/],
    [['--min-coverage', '101'], /--min-coverage must be a percentage/],
    [['--min-coverage', 'all'], /--min-coverage must be a percentage/],
    [['--openapi='], /--openapi needs/],
  ])('rejects %j with a usage error', (argv, message) => {
    expect(() => parseConformArgs(argv)).toThrow(UsageError);
    expect(() => parseConformArgs(argv)).toThrow(message);
  });

  it('expands a group with .* and removes duplicates', () => {
    const upserts = RULE_IDS.filter((id) => id.startsWith('upsert.'));
    expect(expandRules('upsert.*,upsert.creates')).toEqual(upserts);
  });
});
