/**
 * `npm run gen:types` (second step): writes openapi/generated/openapi.bundle.json, the document
 * bundled into one JSON object and stamped with the hash of its YAML sources, so that the server
 * starts without parsing YAML (src/openapi/document.ts); then openapi/generated/written-from.json,
 * what both generated files were written from (the sources' hash, openapi-typescript's version)
 * and their own hashes, which openapi/document.test.ts compares in milliseconds. `--check` (`npm
 * run check:types`, run by CI) writes nothing and reports whether the bundle is what the sources
 * give now, and the stamp too.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { BUNDLE_PATH } from '../src/openapi/bundle-loader.ts';
import type { DocumentBundle, OpenApiDocument } from '../src/openapi/document.ts';

export const DOCUMENT_PATH = fileURLToPath(new URL('../openapi/openapi.yaml', import.meta.url));
const ROOT = path.dirname(DOCUMENT_PATH);
/** YAML files under openapi/ that are not part of the API document. */
const NOT_SOURCES = new Set(['admin.yaml']);

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
  for (const file of files.sort())
    hash
      .update(`${path.relative(root, file).split(path.sep).join('/')}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** Bundles the YAML sources into one document with internal references. */
export async function bundleDocument(): Promise<OpenApiDocument> {
  return (await SwaggerParser.bundle(DOCUMENT_PATH)) as unknown as OpenApiDocument;
}

/** What the generated files were written from, and their hashes (openapi/generated/written-from.json). */
export const STAMP_PATH = fileURLToPath(new URL('../openapi/generated/written-from.json', import.meta.url));
const TYPES_PATH = fileURLToPath(new URL('../openapi/generated/schema.d.ts', import.meta.url));
const GENERATOR_MANIFEST = new URL('../node_modules/openapi-typescript/package.json', import.meta.url);

const fileHash = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The stamp of the generated files as they are now. */
export function stampText(): string {
  const stamp = {
    sources: sourcesHash(),
    openapiTypescript: (JSON.parse(readFileSync(GENERATOR_MANIFEST, 'utf8')) as { version: string }).version,
    'schema.d.ts': fileHash(TYPES_PATH),
    'openapi.bundle.json': fileHash(BUNDLE_PATH),
  };
  return `${JSON.stringify(stamp, null, 1)}\n`;
}

export async function bundleText(): Promise<string> {
  const bundle: DocumentBundle = { sources: sourcesHash(), document: await bundleDocument() };
  return `${JSON.stringify(bundle, null, 1)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await bundleText();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(BUNDLE_PATH, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      process.stderr.write(`${BUNDLE_PATH} is stale: run \`npm run gen:types\`\n`);
      process.exitCode = 1;
    }
    if (readFileSync(STAMP_PATH, 'utf8') !== stampText()) {
      process.stderr.write(`${STAMP_PATH} is stale: run \`npm run gen:types\`\n`);
      process.exitCode = 1;
    }
  } else {
    writeFileSync(BUNDLE_PATH, text);
    writeFileSync(STAMP_PATH, stampText());
  }
}
