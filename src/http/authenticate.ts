/**
 * Authentication (contract "Authentication" 1–2): every `/api` request carries
 * `Authorization: Bearer <JWT>`; a missing, malformed, expired or badly signed token is 401 with
 * OpenMetadata's texts (docs/behaviour.md "Authentication"). A user named in a valid token is created on first use.
 */
import type { Principal, TokenVerifier } from '../auth/tokens.ts';
import { TokenError } from '../auth/tokens.ts';
import { CatalogError } from '../core/errors.ts';
import { ApiError } from './errors.ts';
import type { ApiRequest } from './exchange.ts';

export interface RequestIdentity extends Principal {
  userId: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** OpenMetadata's text for a missing token; a header in another form also says what was expected. */
const NOT_PRESENT = 'Not Authorized! Token not present';

/**
 * Why a non-empty Authorization header is not `Bearer <token>`, and what to send instead: a bare
 * token (the most common slip) or another scheme would otherwise get only "Token not present".
 */
function malformedAuthorization(header: string): string {
  const value = header.trim();
  // An empty header is no token at all: OpenMetadata's text, as for a missing one.
  if (!value) return NOT_PRESENT;
  const expected = 'expected "Authorization: Bearer <token>"';
  const [scheme = '', ...rest] = value.split(/\s+/);
  let got: string;
  if (rest.length === 0 && /^bearer$/i.test(scheme)) got = '"Bearer" without a token';
  else if (rest.length === 0) got = 'a value without the "Bearer " prefix';
  else if (/^bearer$/i.test(scheme)) got = 'more than one value after "Bearer"';
  // Named only when it looks like a scheme (Basic, Token...): never echo what may be a secret.
  else got = /^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(scheme) ? `the ${scheme} scheme` : 'another scheme';
  return `${NOT_PRESENT}: ${expected}, got ${got}`;
}

/** Sets the request's identity from its bearer token, or throws the 401 ApiError that says what is wrong with it. */
export function authenticate(verifier: TokenVerifier, ensureUser: (name: string) => string): (req: ApiRequest) => void | Promise<void> {
  const admit = (req: ApiRequest, principal: Principal): void => {
    let userId: string;
    try {
      userId = ensureUser(principal.user);
    } catch (error) {
      // A name that cannot be a user name: the token is refused, not the request.
      const refused = error instanceof ApiError || error instanceof CatalogError ? ApiError.from(error) : undefined;
      throw refused?.status === 400 ? ApiError.unauthorized(`Not Authorized! ${refused.message}`) : error;
    }
    req.identity = { user: principal.user, roles: principal.roles, userId };
  };
  return (req) => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    if (!match) throw ApiError.unauthorized(typeof header === 'string' ? malformedAuthorization(header) : NOT_PRESENT);
    // A token verified a moment ago is admitted at once (every request passes here).
    const known = verifier.cached?.(match[1]!);
    if (known) return admit(req, known);
    return verifier.verify(match[1]!).then(
      (principal) => admit(req, principal),
      (error: unknown) => {
        throw error instanceof TokenError ? ApiError.unauthorized(error.message) : error;
      },
    );
  };
}
