/**
 * JWTs (DESIGN.md "Authentication and roles"), signed and verified with `jose`. A built-in
 * development key signs and verifies by default, so `catalog-kit token` works against
 * `catalog-kit serve` with no set-up; a shared deployment configures its own secret or public key.
 */
import { SignJWT, errors as joseErrors, importSPKI, jwtVerify } from 'jose';
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
 * EntityName (1..256 characters, one line, no `::`) without a double quote (FQN quoting, contract
 * "Common rules" 3). Checked here because users created from tokens bypass request validation.
 */
const USER_NAME = /^(?:(?!::)[^"\n\r\u2028\u2029]){1,256}$/u;

const HMAC = ['HS256', 'HS384', 'HS512'];
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export function parseDuration(text: string): number {
  const match = /^(\d+)\s*(s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`Invalid duration "${text}" (expected e.g. 30m, 1h, 7d)`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[(match[2] ?? 's') as 's' | 'm' | 'h' | 'd'];
}

export async function signToken(options: { user?: string; role?: Role; roles?: Role[]; expires?: string; secret?: string; issuer?: string; audience?: string }): Promise<string> {
  const jwt = new SignJWT({ roles: options.roles ?? [options.role ?? 'Admin'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.user ?? 'admin')
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + parseDuration(options.expires ?? '1h'));
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? DEVELOPMENT_SECRET));
}

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
  /** The principal of a token verified a moment ago, without waiting (the hot path), else undefined. */
  cached?(token: string): Principal | undefined;
}

/** Verifies tokens; caches each verified token for a short while (it is the hot path). */
export function createVerifier(options: AuthOptions = {}): TokenVerifier {
  let key: Promise<CryptoKey | Uint8Array>;
  let algorithms: string[];
  if (options.publicKey) {
    const pem = options.publicKey;
    algorithms = ASYMMETRIC;
    key = (async () => {
      const errorsSeen: unknown[] = [];
      for (const alg of ['RS256', 'ES256', 'ES384', 'ES512', 'EdDSA']) {
        try {
          return await importSPKI(pem, alg);
        } catch (error) {
          errorsSeen.push(error);
        }
      }
      throw new Error(`Cannot read the configured public key: ${String(errorsSeen[0])}`);
    })();
  } else {
    algorithms = HMAC;
    key = Promise.resolve(new TextEncoder().encode(options.secret ?? DEVELOPMENT_SECRET));
  }
  const cache = new Map<string, { principal: Principal; until: number }>();
  return {
    cached(token) {
      const hit = cache.get(token);
      return hit && hit.until > Date.now() ? hit.principal : undefined;
    },
    async verify(token) {
      const now = Date.now();
      const hit = cache.get(token);
      if (hit && hit.until > now) return hit.principal;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await key, {
          algorithms,
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
      if (cache.size > 10_000) cache.clear();
      const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : now + 60_000;
      cache.set(token, { principal, until: Math.min(expiresAt, now + 60_000) });
      return principal;
    },
  };
}
