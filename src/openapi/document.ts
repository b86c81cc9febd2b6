/**
 * Loads the hand-written OpenAPI document (openapi/openapi.yaml and the files it references),
 * bundles it into one object with internal references, and applies the active profile's small
 * overlay (DESIGN.md "Behaviour profiles": the `openmetadata` profile accepts a service create
 * request without `connection`).
 */
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Profile } from '../config/profiles.ts';

export const DOCUMENT_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; [key: string]: unknown };
  [key: string]: unknown;
};
export type JsonSchema = { [key: string]: unknown };

let bundled: Promise<OpenApiDocument> | undefined;

/** The bundled document, loaded once per process. Callers get their own copy. */
export async function loadDocument(profile?: Profile): Promise<OpenApiDocument> {
  bundled ??= SwaggerParser.bundle(DOCUMENT_PATH) as unknown as Promise<OpenApiDocument>;
  const doc = structuredClone(await bundled);
  if (profile && !profile.serviceConnectionRequired) relaxServiceConnection(doc);
  return doc;
}

function relaxServiceConnection(doc: OpenApiDocument): void {
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (!/^Create\w+Service$/.test(name)) continue;
    for (const part of (schema.allOf as JsonSchema[] | undefined) ?? []) {
      if (Array.isArray(part.required)) part.required = part.required.filter((f) => f !== 'connection');
    }
  }
}
