/**
 * Conditional requests on entities (docs/behaviour.md "Conditional requests"; OpenMetadata's
 * `EntityResource` ETag handling, `PreconditionFailedException`): an entity's answers carry its tag
 * (src/core/projection.ts `entityTag`); a GET whose `If-None-Match` names it is 304 (the
 * dispatcher, src/http/dispatcher.ts, answers it); a PUT, PATCH or DELETE whose `If-Match` names
 * another tag is 412 and changes nothing. Tags are compared weakly (`W/` ignored), as OpenMetadata
 * compares them.
 */
import type { Kind } from '../core/context.ts';
import type { FieldSelection } from '../core/projection.ts';
import { entityTag, taggedByEntity } from '../core/projection.ts';
import type { StoredEntity } from '../core/entity-store.ts';
import { ApiError } from './errors.ts';
import type { ApiRequest, Reply } from './exchange.ts';

/** OpenMetadata's message (`PreconditionFailedException`). */
const STALE = 'The entity has been modified by another user. Please refresh and retry.';

/** Tags a GET answer of the entity with its tag, unless the answer shows data computed elsewhere (then its content tags it). */
export function tagRead(reply: Reply, def: Kind, stored: StoredEntity, fields: FieldSelection): void {
  if (taggedByEntity(def, fields)) reply.header('ETag', entityTag(stored));
}

/** Tags the answer of a write with the entity's new tag: the one the next `If-Match` names. */
export function tagWrite(reply: Reply, stored: StoredEntity): void {
  reply.header('ETag', entityTag(stored));
}

/** `W/"x"` and `"x"` compare equal (weak comparison, RFC 9110 §8.8.3.2). */
const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/** Whether an `If-None-Match` / `If-Match` header (`*`, or a list of tags) names `tag`, compared weakly. */
export function namesTag(header: string, tag: string): boolean {
  const listed = header.split(',').map((item) => item.trim());
  return listed.includes('*') || listed.map(opaque).includes(opaque(tag));
}

/**
 * Checks a write's `If-Match` against the entity it writes (`undefined`: none exists yet): 412
 * PRECONDITION_FAILED when it names neither the entity's tag nor `*`. Without the header, nothing is checked.
 */
export function checkIfMatch(req: ApiRequest, stored: StoredEntity | undefined): void {
  const header = req.headers['if-match'];
  if (header === undefined) return;
  if (stored && namesTag(header, entityTag(stored))) return;
  throw new ApiError(412, STALE);
}
