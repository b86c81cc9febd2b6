/**
 * `npm run gen:types` (second step): writes openapi/generated/openapi.bundle.json, the document
 * bundled into one JSON object and stamped with the hash of its YAML sources, so that the server
 * starts without parsing YAML (src/openapi/document.ts). `--check` only reports whether it is current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_PATH, bundleDocument, sourcesHash } from './document.ts';
import type { DocumentBundle } from './document.ts';

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
  } else {
    writeFileSync(BUNDLE_PATH, text);
  }
}
