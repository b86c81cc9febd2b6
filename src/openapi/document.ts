/**
 * Loads the hand-written OpenAPI document (openapi/openapi.yaml and the files it references),
 * bundled into one object with internal references, and applies the active profile's small
 * overlay (DESIGN.md "Behaviour profiles": the `openmetadata` profile accepts a service create
 * request without `connection`).
 *
 * Start-up speed (issue 7 "cold start"): parsing ~60 YAML files and bundling their `$ref`s takes
 * ≈ 0.8 s; `npm run gen:types` also writes the bundle to openapi/generated/openapi.bundle.json,
 * stamped with a hash of the YAML sources. At run time the bundle is used when the stamp matches
 * the YAML on disk (hashing them costs a few ms), so a developer who edits the YAML and forgets to
 * regenerate gets a correct, merely slower, start; openapi/document.test.ts fails on a stale bundle.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Profile } from '../config/profiles.ts';

export const DOCUMENT_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));
export const BUNDLE_PATH = fileURLToPath(new URL('../../openapi/generated/openapi.bundle.json', import.meta.url));
const ROOT = path.dirname(DOCUMENT_PATH);
/** YAML files under openapi/ that are not part of the API document. */
const NOT_SOURCES = new Set(['admin.yaml']);

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

/** Hash of every YAML file the document is made of. */
export function sourcesHash(root = ROOT): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'generated') walk(full);
      else if (entry.isFile() && entry.name.endsWith('.yaml') && !(dir === root && NOT_SOURCES.has(entry.name))) files.push(full);
    }
  };
  walk(root);
  for (const file of files.sort()) hash.update(`${path.relative(root, file).split(path.sep).join('/')}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Bundles the YAML sources (slow path: swagger-parser is loaded only when needed). */
export async function bundleDocument(): Promise<OpenApiDocument> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  return (await SwaggerParser.bundle(DOCUMENT_PATH)) as unknown as OpenApiDocument;
}

/** The pre-bundled document's JSON text, when it was generated from the YAML as it is now. */
function freshBundleText(): string | undefined {
  let text: string;
  try {
    text = readFileSync(BUNDLE_PATH, 'utf8');
  } catch {
    return undefined;
  }
  const stamp = /^\{\s*"sources":\s*"([0-9a-f]{64})"/.exec(text)?.[1];
  return stamp === sourcesHash() ? text : undefined;
}

let bundled: Promise<OpenApiDocument> | undefined;

/** The bundled document, loaded once per process. Callers get their own copy. */
export async function loadDocument(profile?: Profile): Promise<OpenApiDocument> {
  bundled ??= (async () => {
    const fresh = freshBundleText();
    return fresh ? (JSON.parse(fresh) as DocumentBundle).document : bundleDocument();
  })();
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
