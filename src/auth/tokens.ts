/**
 * JWTs (docs/behaviour.md "Authentication"), signed and verified with `jose`. A built-in
 * development key signs and verifies by default, so `catalog-kit token` works against
 * `catalog-kit serve` with no set-up; a shared deployment configures its own secret or public key.
 */
// Only jose's signing module at load: this module is all `catalog-kit token` loads besides
// src/app/cli/, and jose's index (JWE, JWK, JWKS too) costs that command ≈ 20-30 ms a run. The
// verifying modules are imported by the first createVerifier() (verifierModules below), the
// decoding one by tokenLifetime().
import { SignJWT } from 'jose/jwt/sign';
import type { JWTPayload } from 'jose';

/** The development key: public on purpose. Never use it for anything that matters. */
export const DEVELOPMENT_SECRET = 'catalog-kit-development-key-not-a-secret-do-not-use-in-production';

export const ROLES = ['Admin', 'DataSteward', 'DataConsumer'] as const;
export type Role = (typeof ROLES)[number];

export interface AuthOptions {
  /** HMAC secret (HS256/384/512). Defaults to the development key when no public key is given. */
  secret?: string;
  /** PEM public key (RS*, PS*, ES* algorithms); HMAC tokens are then refused. */
  publicKey?: string;
  issuer?: string;
  audience?: string;
}

export interface Principal {
  user: string;
  roles: Role[];
}

export class TokenError extends Error {}

/**
 * The subject becomes a user on first use, so it must be a valid user name: the document's
 * EntityName (1..256 characters, one line, no `::`) without a double quote (FQN quoting,
 * docs/behaviour.md "Fully qualified names"). Checked here because users created from tokens
 * bypass request validation.
 */
const USER_NAME = /^(?:(?!::)[^"\n\r\u2028\u2029]){1,256}$/u;

const HMAC = ['HS256', 'HS384', 'HS512'];
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * A token's lifetime as jose reads it (`setExpirationTime`: "30m", "1h", "7d", "2 weeks"...; a
 * malformed one throws jose's TypeError), where a bare number is seconds, as `--expires 3600` was.
 */
function timeSpan(expires: string): string {
  const text = expires.trim();
  return /^\d+$/.test(text) ? `${text}s` : text;
}

/**
 * A signed JWT the server accepts. `expires` is the lifetime from now (timeSpan above; default 1h);
 * `catalog-kit token` checks it with tokenLifetime first.
 */
export async function signToken(options: {
  user?: string;
  role?: Role;
  roles?: Role[];
  expires?: string;
  secret?: string;
  issuer?: string;
  audience?: string;
  id?: string;
}): Promise<string> {
  let jwt: SignJWT;
  let issuedAt: number;
  // jose reads the clock once for `iat` and again for a relative `exp`: across a second's boundary
  // the token lived a second longer than asked (and `tokenLifetime('0s')` was 1). Built again until
  // both readings fall in the one second `iat` states.
  do {
    issuedAt = Math.floor(Date.now() / 1000);
    jwt = new SignJWT({ roles: options.roles ?? [options.role ?? 'Admin'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(options.user ?? 'admin')
      .setIssuedAt(issuedAt)
      .setExpirationTime(timeSpan(options.expires ?? '1h'));
  } while (Math.floor(Date.now() / 1000) !== issuedAt);
  // A token id (`jti`) tells apart two tokens of one user signed in the same second.
  if (options.id) jwt.setJti(options.id);
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? DEVELOPMENT_SECRET));
}

/** Seconds a token signed with `expires` lives: exp − iat of a throwaway token, as jose made them. */
export async function tokenLifetime(expires: string): Promise<number> {
  const { decodeJwt } = await import('jose/jwt/decode');
  const { iat = 0, exp = 0 } = decodeJwt(await signToken({ expires }));
  return exp - iat;
}

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
  /** The principal of a token verified before and not expired since, without waiting (the hot path), else undefined. */
  cached?(token: string): Principal | undefined;
}

export interface VerifierCacheOptions {
  /** Most tokens remembered; past it the oldest entry makes room. */
  maxEntries?: number;
  /** How long a token without `exp` is remembered, in milliseconds. */
  withoutExpMs?: number;
  /** The clock, in milliseconds since the epoch; the verification checks `exp` and `nbf` against it too. */
  now?: () => number;
}

export const VERIFIER_CACHE_DEFAULTS = { maxEntries: 10_000, withoutExpMs: 60_000 } as const;

let verifying: Promise<[typeof import('jose/jwt/verify'), typeof import('jose/errors'), typeof import('jose/key/import')]> | undefined;
function verifierModules() {
  verifying ??= Promise.all([import('jose/jwt/verify'), import('jose/errors'), import('jose/key/import')]);
  return verifying;
}

/** Reads a PEM public key (SPKI) for any of the asymmetric algorithms the server accepts. */
export async function importPublicKey(pem: string): Promise<CryptoKey> {
  const [, , { importSPKI }] = await verifierModules();
  const errorsSeen: unknown[] = [];
  for (const alg of ['RS256', 'ES256', 'ES384', 'ES512', 'EdDSA']) {
    try {
      return await importSPKI(pem, alg);
    } catch (error) {
      errorsSeen.push(error);
    }
  }
  throw new Error(`Cannot read the configured public key: ${String(errorsSeen[0])}`);
}

/**
 * Verifies tokens. A verified token is remembered until its `exp` (a token without one: for
 * `withoutExpMs`), so the hot path checks a signature once per token, never answers from memory
 * for an expired token, and holds at most `maxEntries` tokens: Map keeps insertion order, so the
 * oldest entry is the first key, dropped one at a time rather than forgetting everything at once.
 */
export function createVerifier(options: AuthOptions = {}, cacheOptions: VerifierCacheOptions = {}): TokenVerifier {
  const maxEntries = Math.max(1, cacheOptions.maxEntries ?? VERIFIER_CACHE_DEFAULTS.maxEntries);
  const withoutExpMs = cacheOptions.withoutExpMs ?? VERIFIER_CACHE_DEFAULTS.withoutExpMs;
  const now = cacheOptions.now ?? Date.now;
  const modules = verifierModules();
  let key: Promise<CryptoKey | Uint8Array>;
  let algorithms: string[];
  if (options.publicKey) {
    algorithms = ASYMMETRIC;
    key = importPublicKey(options.publicKey);
    // A bad key fails each verify() instead; an unobserved rejection would end the process.
    key.catch(() => {});
  } else {
    algorithms = HMAC;
    key = Promise.resolve(new TextEncoder().encode(options.secret ?? DEVELOPMENT_SECRET));
  }
  const cache = new Map<string, { principal: Principal; until: number }>();
  const cached = (token: string, at: number): Principal | undefined => {
    const hit = cache.get(token);
    if (!hit) return undefined;
    if (hit.until > at) return hit.principal;
    cache.delete(token);
    return undefined;
  };
  const remember = (token: string, principal: Principal, until: number): void => {
    cache.delete(token);
    while (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(token, { principal, until });
  };
  return {
    cached: (token) => cached(token, now()),
    async verify(token) {
      const at = now();
      const hit = cached(token, at);
      if (hit) return hit;
      const [{ jwtVerify }, joseErrors] = await modules;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await key, {
          algorithms,
          currentDate: new Date(at),
          ...(options.issuer ? { issuer: options.issuer } : {}),
          ...(options.audience ? { audience: options.audience } : {}),
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new TokenError('Expired token!');
        const reason = error instanceof Error ? error.message : String(error);
        throw new TokenError(`Not Authorized! ${reason}`);
      }
      if (typeof payload.sub !== 'string' || payload.sub === '') throw new TokenError('Not Authorized! Token has no subject');
      if (!USER_NAME.test(payload.sub)) throw new TokenError(`Not Authorized! Invalid user name ${payload.sub.slice(0, 300)}`);
      const roles = (Array.isArray(payload.roles) ? payload.roles : []).filter((r): r is Role => (ROLES as readonly unknown[]).includes(r));
      const principal: Principal = { user: payload.sub, roles: roles.length ? roles : ['DataConsumer'] };
      // jose accepted the token at `at`, so exp * 1000 > at: the entry lives exactly as long as the token.
      remember(token, principal, typeof payload.exp === 'number' ? payload.exp * 1000 : at + withoutExpMs);
      return principal;
    },
  };
}
