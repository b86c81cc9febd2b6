/**
 * tokenSubject (conformance/probe.ts): the user a token names, read without verifying it, so the
 * suite can find that user when the target has no `loggedInUser` endpoint.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenSubject } from './probe.ts';

const key = new TextEncoder().encode('any-key-the-suite-does-not-verify-with');
const signed = (claims: Record<string, unknown>, subject?: string) => {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
  if (subject !== undefined) jwt.setSubject(subject);
  return jwt.sign(key);
};

describe('tokenSubject', () => {
  it.each([
    // given: a token; want: its subject
    { label: 'a signed JWT', token: () => signed({ roles: ['Admin'] }, 'alice'), want: 'alice' },
    { label: 'a JWT without sub', token: () => signed({ roles: ['Admin'] }), want: undefined },
    { label: 'a JWT whose sub is no string', token: () => signed({ sub: 42 }), want: undefined },
    { label: 'a JWT with a wrong signature (not checked)', token: async () => `${(await signed({}, 'bob')).split('.').slice(0, 2).join('.')}.x`, want: 'bob' },
    { label: 'an opaque token', token: async () => 'not-a-jwt', want: undefined },
    { label: 'a payload that is no JSON', token: async () => 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.x', want: undefined },
    { label: 'the empty string', token: async () => '', want: undefined },
  ])('$label: $want', async ({ token, want }) => {
    expect(tokenSubject(await token())).toBe(want);
  });
});
