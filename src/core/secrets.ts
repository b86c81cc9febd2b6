/**
 * Service connection secrets (contract "Storage service": secret values inside `connection.config`
 * are masked with asterisks in responses, and a nested credentials object is returned with
 * `enabled: false`; docs/behaviour.md "Services": the mask is nine asterisks and a client that sends the mask
 * back keeps the stored secret).
 */
export const SECRET_MASK = '*********';

/** Keys whose string values are secrets (OpenMetadata marks them `format: password`). */
const SECRET_KEY = /(password|secret|token|privatekey|apikey|accesskey(?!id)|credential(?!s)|passphrase)/i;
const CREDENTIALS_KEY = /credentials$/i;

type Json = unknown;

/** A copy of a connection with every secret replaced by the mask. */
export function maskConnection(connection: Json): Json {
  const walk = (value: Json, key: string): Json => {
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(value as Record<string, Json>)) out[k] = walk(v, k);
      if (CREDENTIALS_KEY.test(key)) out.enabled = false;
      return out;
    }
    return typeof value === 'string' && SECRET_KEY.test(key) ? SECRET_MASK : value;
  };
  return walk(connection, 'connection');
}

/** The connection a client sent, with masked values replaced by what is stored. */
export function mergeConnection(stored: Json, incoming: Json): Json {
  if (incoming === SECRET_MASK) return stored;
  if (Array.isArray(incoming)) return incoming.map((v, i) => mergeConnection(Array.isArray(stored) ? stored[i] : undefined, v));
  if (incoming !== null && typeof incoming === 'object') {
    const base = stored !== null && typeof stored === 'object' ? (stored as Record<string, Json>) : {};
    return Object.fromEntries(Object.entries(incoming as Record<string, Json>).map(([k, v]) => [k, mergeConnection(base[k], v)]));
  }
  return incoming;
}
