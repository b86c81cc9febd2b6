/**
 * Which webhook endpoints the server may call, and for how long (src/features/events/destinations.ts;
 * docs/behaviour.md "Webhooks"): given an endpoint and the operator's host patterns, want the
 * reason it is refused, or none. Nothing here connects anywhere.
 */
import { describe, expect, it } from 'vitest';
import { endpointProblem, TIMEOUT_RANGE_S, timeoutOf } from './destinations.ts';

describe('endpointProblem (given an endpoint and --webhook-allow patterns, want why it is refused)', () => {
  it.each<{ endpoint: unknown; allow?: string[]; want: RegExp | undefined }>([
    // Loopback: called without any pattern.
    { endpoint: 'http://127.0.0.1:8080/hook', want: undefined },
    { endpoint: 'https://127.9.8.7/hook', want: undefined },
    { endpoint: 'http://localhost:3000/', want: undefined },
    { endpoint: 'http://hooks.localhost/', want: undefined },
    { endpoint: 'http://[::1]:9000/', want: undefined },
    { endpoint: 'http://[::ffff:127.0.0.1]/', want: undefined },
    // Other spellings of 127.0.0.1, which the URL parser normalises.
    { endpoint: 'http://2130706433/', want: undefined },
    { endpoint: 'http://0x7f.1/', want: undefined },
    // Schemes other than http and https: never.
    { endpoint: 'file:///etc/passwd', want: /only http and https endpoints are called, not file$/ },
    { endpoint: 'data:text/plain,hi', want: /not data$/ },
    { endpoint: 'gopher://127.0.0.1:70/', want: /not gopher$/ },
    { endpoint: 'javascript:alert(1)', want: /not javascript$/ },
    { endpoint: 'ftp://127.0.0.1/', want: /not ftp$/ },
    { endpoint: 'ws://127.0.0.1/', want: /not ws$/ },
    { endpoint: 'file:///etc/passwd', allow: ['*'], want: /not file$/ },
    // Outside loopback: refused unless a pattern names the host.
    {
      endpoint: 'http://169.254.169.254/latest/meta-data/',
      want: /169\.254\.169\.254 is not a loopback host, and the server calls other hosts only when started with --webhook-allow/,
    },
    { endpoint: 'http://10.0.0.5:8080/', want: /10\.0\.0\.5 is not a loopback host/ },
    { endpoint: 'http://0.0.0.0:8080/', want: /0\.0\.0\.0 is not a loopback host/ },
    { endpoint: 'http://[::]:8080/', want: /:: is not a loopback host/ },
    { endpoint: 'https://hooks.example.com/x', want: /hooks\.example\.com is not a loopback host/ },
    { endpoint: 'https://hooks.example.com/x', allow: ['hooks.example.com'], want: undefined },
    { endpoint: 'https://HOOKS.Example.com/x', allow: ['hooks.example.com'], want: undefined },
    { endpoint: 'https://a.hooks.example.com/x', allow: ['*.example.com'], want: undefined },
    { endpoint: 'https://example.com/x', allow: ['*.example.com'], want: /example\.com is not a loopback host/ },
    { endpoint: 'http://10.0.0.5/', allow: ['10.0.0.*'], want: undefined },
    { endpoint: 'http://169.254.169.254/', allow: ['10.0.0.*', 'hooks.example.com'], want: /is not a loopback host/ },
    { endpoint: 'http://anything.test/', allow: ['*'], want: undefined },
    // Not a URL at all.
    { endpoint: 'not a url', want: /is not a URL$/ },
    { endpoint: 42, want: /is not a URL$/ },
  ])('$endpoint with $allow', ({ endpoint, allow, want }) => {
    const problem = endpointProblem(endpoint, allow ?? []);
    if (want === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(want);
  });
});

describe(`timeoutOf: a destination's timeout kept within ${TIMEOUT_RANGE_S.min}–${TIMEOUT_RANGE_S.max} s`, () => {
  it.each<{ timeout: number | undefined; want: number }>([
    { timeout: undefined, want: 10 },
    { timeout: 30, want: 30 },
    { timeout: 1_000_000_000, want: 60 },
    { timeout: 0, want: 1 },
    { timeout: -5, want: 1 },
  ])('timeout $timeout → $want s', ({ timeout, want }) => {
    const destination = { category: 'External', type: 'Webhook', enabled: true, readTimeout: 12 } as Parameters<typeof timeoutOf>[0];
    if (timeout !== undefined) destination.timeout = timeout;
    expect(timeoutOf(destination)).toBe(want);
  });
});
