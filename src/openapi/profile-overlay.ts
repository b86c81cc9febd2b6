/**
 * What a profile serves where it differs from the document as written (docs/behaviour.md
 * "Profiles"): the document is written as the `contract` profile and OpenMetadata's 2.0 line take
 * it, and each row of openapi/profiles.json that changes what a request may carry changes the
 * profile's copy here. The validators are compiled from these copies (scripts/compile-validators.ts)
 * and `/openapi.json` serves them, so a profile's document says exactly what its server accepts.
 */
import type { Profile } from '../config/profiles.ts';
import type { JsonSchema, OpenApiDocument } from './document.ts';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** Changes `doc` (a fresh copy of the bundle) into what `profile` serves. */
export function applyProfileOverlay(doc: OpenApiDocument, profile: Profile): void {
  if (!profile.serviceConnectionRequired) relaxServiceConnection(doc);
  const name = doc.components.schemas.EntityName;
  if (name && name.pattern !== profile.entityNamePattern) name.pattern = profile.entityNamePattern;
  if (!profile.followerBodyMayBeText) dropTextFollowerBodies(doc);
  for (const param of queryParameters(doc)) {
    // 1.x binds one `search_after` string split at commas; 2.0 repeats the parameter per sort value.
    if (param.name === 'search_after' && profile.searchAfter === 'joined') param.schema = { type: 'string', maxLength: 2048 };
    // 1.x takes one status; 2.0 several, each checked against the enum.
    if (param.name === 'testCaseStatus' && profile.testCaseStatusFilter === 'one') param.schema = { $ref: '#/components/schemas/TestCaseStatus' };
  }
}

function relaxServiceConnection(doc: OpenApiDocument): void {
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (!/^Create\w+Service$/.test(name)) continue;
    for (const part of (schema.allOf as JsonSchema[] | undefined) ?? []) {
      if (Array.isArray(part.required)) part.required = part.required.filter((f) => f !== 'connection');
    }
  }
}

/** The add-follower operations take the user id as JSON only (OpenMetadata answers 415 to text). */
function dropTextFollowerBodies(doc: OpenApiDocument): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.endsWith('/followers')) continue;
    const content = ((item.put as Json | undefined)?.requestBody as Json | undefined)?.content as Json | undefined;
    if (content) delete content['text/plain'];
  }
}

/** Every inline query parameter of every operation (shared component parameters are not changed here). */
function* queryParameters(doc: OpenApiDocument): Generator<Json> {
  for (const item of Object.values(doc.paths)) {
    const shared = (item.parameters as Json[] | undefined) ?? [];
    for (const param of shared) if (param.in === 'query') yield param;
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      for (const param of (op?.parameters as Json[] | undefined) ?? []) if (param.in === 'query') yield param;
    }
  }
}
