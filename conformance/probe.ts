/** Before running: is the target reachable, is it this API, does it accept the token? */
import { decodeJwt } from 'jose/jwt/decode';
import { asArray, asObject, type HttpClient, TransportError, type TransportFailure } from './http.ts';
import { KIND_IDS, KINDS, type KindId } from './kinds.ts';

/** The target cannot be tested (down, not this API, token refused): exit code 2. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/** What to do about each way of not answering (exit 2). */
const ADVICE: Record<TransportFailure, string> = {
  refused: 'Is the server running, and is --target its base URL ending in /api?',
  timeout: 'Is the server overloaded or stuck? Raise --timeout if it is just slow.',
  closed: 'The server (or a proxy in front of it) dropped the connection: check its logs, and that --target is http/https as the server expects.',
  'not-http': 'Something that does not speak HTTP listens there: is --target the right host and port?',
  'too-large': 'A list of one item is kilobytes: --target is not the metadata-catalog API.',
  'bad-url': 'Give --target as the API base URL, e.g. http://127.0.0.1:8585/api.',
  other: 'Is the server running, and is --target its base URL ending in /api?',
};

/** At most 200 characters of a response, on one line, for messages. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return '(empty body)';
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

export async function probeTarget(client: HttpClient): Promise<void> {
  const path = `${KINDS.storageService.path}`;
  let ex;
  try {
    ex = await client.send({ method: 'GET', path, query: { limit: 1 } });
  } catch (err) {
    if (err instanceof TransportError) throw new TargetError(`cannot reach the target ${client.baseUrl}: ${err.message}. ${ADVICE[err.failure]}`);
    throw err;
  }
  const where = `GET ${client.url(path, { limit: 1 })}`;
  if (ex.status === 401 || ex.status === 403) {
    throw new TargetError(`the target refused the token: ${where} answered ${ex.status} ${oneLine(ex.responseText)}. Check --token / --token-command.`);
  }
  if (ex.status >= 500) {
    throw new TargetError(
      `the target fails: ${where} answered ${ex.status} ${oneLine(ex.responseText)}. A server error on a plain list request: fix the server (or its configuration) before testing it.`,
    );
  }
  if (ex.json === undefined) {
    const kind = ex.responseContentType || 'no content type';
    throw new TargetError(`${where} answered ${ex.status} with ${kind}, not JSON: this is not the metadata-catalog API. Is --target the API base URL, ending in /api?`);
  }
  const body = asObject(ex.json);
  if (ex.status !== 200 || !asArray(body?.data) || !asObject(body?.paging)) {
    throw new TargetError(`${where} answered ${ex.status} ${oneLine(ex.responseText)}: not a metadata-catalog API (expected 200 with {data: [...], paging: {...}}).`);
  }
}

/** Kinds outside the contract's create table are driven only when the target lists them. */
export async function probeKinds(client: HttpClient): Promise<Set<KindId>> {
  const available = new Set<KindId>();
  await Promise.all(
    KIND_IDS.map(async (id) => {
      const kind = KINDS[id];
      if (kind.inContract) {
        available.add(id);
        return;
      }
      const ex = await client.send({ method: 'GET', path: kind.path, query: { limit: 1 } });
      if (ex.status === 200 && asArray(asObject(ex.json)?.data)) available.add(id);
    }),
  );
  return available;
}

/**
 * The id (followers need it) and name (every change's updatedBy) of the token's user; each null
 * when the target does not say (the name falls back to the token's `sub`).
 */
export async function resolveUser(client: HttpClient): Promise<{ id: string | null; name: string | null }> {
  const me = await client.send({ method: 'GET', path: '/v1/users/loggedInUser' });
  const body = asObject(me.json);
  if (me.status === 200 && typeof body?.id === 'string') return { id: body.id, name: typeof body.name === 'string' ? body.name : (tokenSubject(client.adminToken) ?? null) };
  const sub = tokenSubject(client.adminToken);
  if (!sub) return { id: null, name: null };
  const byName = await client.send({ method: 'GET', path: `/v1/users/name/${encodeURIComponent(sub)}` });
  const id2 = asObject(byName.json)?.id;
  return { id: byName.status === 200 && typeof id2 === 'string' ? id2 : null, name: sub };
}

/** The `sub` claim of a JWT, read without verifying it; undefined when the token is no JWT. */
export function tokenSubject(token: string): string | undefined {
  try {
    const { sub } = decodeJwt(token);
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}
