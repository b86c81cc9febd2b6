/**
 * The verified-token cache of createVerifier (src/auth/tokens.ts): a token is remembered until its
 * `exp` and never answered from memory after it, a token without `exp` for a short while, and the
 * cache holds at most `maxEntries` tokens, dropping the oldest first. The clock is injected, and
 * jose checks `exp` against the same clock, so nothing here depends on the time it runs at.
 */
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { createVerifier, DEVELOPMENT_SECRET, signToken, TokenError, tokenLifetime, VERIFIER_CACHE_DEFAULTS } from './tokens.ts';

const T0 = 1_900_000_000_000; // ms since the epoch, a whole second
const SECOND = 1000;

async function tokenFor(user: string, expiresAtMs?: number): Promise<string> {
  const jwt = new SignJWT({ roles: ['DataSteward'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user)
    .setIssuedAt(T0 / SECOND);
  if (expiresAtMs !== undefined) jwt.setExpirationTime(expiresAtMs / SECOND);
  return jwt.sign(new TextEncoder().encode(DEVELOPMENT_SECRET));
}

function clock(start = T0) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe('createVerifier: the cache lives as long as the token', () => {
  it.each([
    // given: exp (ms after T0; undefined = no exp), asked at (ms after T0); want: answered from the cache?
    { label: 'just verified', exp: 10 * SECOND, at: 0, hit: true },
    { label: 'a millisecond before exp', exp: 10 * SECOND, at: 10 * SECOND - 1, hit: true },
    { label: 'at exp', exp: 10 * SECOND, at: 10 * SECOND, hit: false },
    { label: 'after exp', exp: 10 * SECOND, at: 11 * SECOND, hit: false },
    { label: 'a 7-day token two hours later (longer than the no-exp bound)', exp: 7 * 86_400 * SECOND, at: 2 * 3600 * SECOND, hit: true },
    { label: 'no exp, within the bound', exp: undefined, at: VERIFIER_CACHE_DEFAULTS.withoutExpMs - 1, hit: true },
    { label: 'no exp, at the bound', exp: undefined, at: VERIFIER_CACHE_DEFAULTS.withoutExpMs, hit: false },
  ])('$label: cached() answers $hit', async ({ exp, at, hit }) => {
    const { state, now } = clock();
    const verifier = createVerifier({}, { now });
    const token = await tokenFor('alice', exp === undefined ? undefined : T0 + exp);
    const principal = await verifier.verify(token);
    expect(principal).toEqual({ user: 'alice', roles: ['DataSteward'] });
    state.now = T0 + at;
    expect(verifier.cached!(token)).toBe(hit ? principal : undefined);
  });

  it('verify() after exp is "Expired token!", not the remembered principal', async () => {
    const { state, now } = clock();
    const verifier = createVerifier({}, { now });
    const token = await tokenFor('bob', T0 + 5 * SECOND);
    await verifier.verify(token);
    state.now = T0 + 5 * SECOND;
    await expect(verifier.verify(token)).rejects.toThrow(new TokenError('Expired token!'));
  });

  it('verify() of a remembered token answers from the cache (the same principal object)', async () => {
    const verifier = createVerifier({}, clock());
    const token = await tokenFor('carol', T0 + 60 * SECOND);
    const first = await verifier.verify(token);
    expect(await verifier.verify(token)).toBe(first);
  });

  it('a token that failed verification is not remembered', async () => {
    const verifier = createVerifier({ secret: 'another-secret-of-sufficient-length-0000000000' }, clock());
    const token = await tokenFor('mallory', T0 + 60 * SECOND);
    await expect(verifier.verify(token)).rejects.toThrow(TokenError);
    expect(verifier.cached!(token)).toBeUndefined();
  });
});

describe('createVerifier: the cache is bounded', () => {
  it('holds at most maxEntries tokens and drops the oldest first, one at a time', async () => {
    const verifier = createVerifier({}, { ...clock(), maxEntries: 3 });
    const tokens = await Promise.all(['u1', 'u2', 'u3', 'u4'].map((u) => tokenFor(u, T0 + 3600 * SECOND)));
    for (const token of tokens) await verifier.verify(token);
    const remembered = () => tokens.map((t) => verifier.cached!(t)?.user ?? null);
    expect(remembered()).toEqual([null, 'u2', 'u3', 'u4']);
    // u1 again: verified anew, remembered as the newest, and u2 (now the oldest) makes room.
    await verifier.verify(tokens[0]!);
    expect(remembered()).toEqual(['u1', null, 'u3', 'u4']);
  });

  it('an expired entry is dropped when asked for, so it does not count against the bound', async () => {
    const { state, now } = clock();
    const verifier = createVerifier({}, { now, maxEntries: 2 });
    const shortLived = await tokenFor('short', T0 + SECOND);
    const longLived = await tokenFor('long', T0 + 3600 * SECOND);
    await verifier.verify(shortLived);
    await verifier.verify(longLived);
    state.now = T0 + 2 * SECOND;
    expect(verifier.cached!(shortLived)).toBeUndefined();
    const newcomer = await tokenFor('new', T0 + 3600 * SECOND);
    await verifier.verify(newcomer);
    // Had the expired entry still been there, the newcomer would have pushed `long` out.
    expect(verifier.cached!(longLived)?.user).toBe('long');
    expect(verifier.cached!(newcomer)?.user).toBe('new');
  });
});

describe('signToken: the lifetime is a time span jose reads, a bare number being seconds', () => {
  it.each([
    // given: expires; want: exp − iat in seconds
    { expires: '1h', want: 3600 },
    { expires: '30m', want: 1800 },
    { expires: '7d', want: 7 * 86_400 },
    { expires: '2 weeks', want: 14 * 86_400 },
    { expires: '90', want: 90 },
    { expires: ' 2h ', want: 7200 },
    { expires: '0s', want: 0 },
    { expires: '1h ago', want: -3600 },
  ])('$expires lives $want s', async ({ expires, want }) => {
    expect(await tokenLifetime(expires)).toBe(want);
    const { iat, exp } = decodeJwt(await signToken({ expires }));
    expect(exp! - iat!).toBe(want);
  });

  it.each(['soon', '1 fortnight', '-', '1h30m', ''])("%j is not a time span: jose's TypeError", async (expires) => {
    await expect(signToken({ expires })).rejects.toThrow(TypeError);
  });

  it('without expires a token lives an hour', async () => {
    const { iat, exp } = decodeJwt(await signToken({}));
    expect(exp! - iat!).toBe(3600);
  });

  it('a token signed across a second boundary still lives exactly as asked', async () => {
    // A clock 1 ms before a second's end that moves 1 ms at every reading: jose's `iat` and its
    // relative `exp` would each read it once, in different seconds.
    let ms = 1_700_000_000_999;
    class TickingDate extends Date {
      constructor(...args: [] | [number]) {
        if (args.length === 0) super(ms++);
        else super(...args);
      }
      static override now(): number {
        return ms++;
      }
    }
    vi.stubGlobal('Date', TickingDate);
    try {
      const { iat, exp } = decodeJwt(await signToken({ expires: '1h' }));
      expect(exp! - iat!).toBe(3600);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
