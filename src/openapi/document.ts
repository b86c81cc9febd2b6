/**
 * The hand-written OpenAPI document (openapi/openapi.yaml and the files it references), as the
 * server reads it: the pre-bundled JSON written by `npm run gen:types`
 * (openapi/generated/openapi.bundle.json, one object with internal references), with the active
 * profile's overlay (src/openapi/profile-overlay.ts): what the profile accepts and answers where it
 * differs from the document as written. No YAML is parsed and nothing is hashed at start-up;
 * openapi/document.test.ts fails when the bundle is older than the YAML.
 */
import type { Profile } from '../config/profiles.ts';
import { readBundle } from './bundle-loader.ts';
import { applyProfileOverlay } from './profile-overlay.ts';

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; [key: string]: unknown };
  [key: string]: unknown;
};
export type JsonSchema = { [key: string]: unknown };

/** What openapi/generated/openapi.bundle.json holds. */
export interface DocumentBundle {
  /** sha256 of the YAML sources (relative path and content of each, in path order). */
  sources: string;
  document: OpenApiDocument;
}

const loaded = new Map<string, OpenApiDocument>();

/** Reads the document on first call (the server's start-up does not need it). */
export type DocumentSource = () => OpenApiDocument;

/**
 * The bundled document as the profile serves it, read once per process and profile. Shared by
 * every caller: treat it as read-only. Synchronous: the server reads the document (1.3 MB of
 * JSON) on the first request that needs it, not at start-up (bench: cold start).
 */
export function readDocument(profile?: Profile): OpenApiDocument {
  const key = profile?.name ?? 'as-written';
  let doc = loaded.get(key);
  if (!doc) {
    doc = readBundle().document;
    if (profile) applyProfileOverlay(doc, profile);
    loaded.set(key, doc);
  }
  return doc;
}
