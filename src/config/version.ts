/**
 * The package version, read from catalog-kit's own package.json. The relative path to it differs
 * between the sources (src/config/version.ts → ../package.json) and the build (dist/src/version.js →
 * ../../package.json, see tsconfig.build.json), so walk up from this file to the first
 * package.json that names this package instead of hard-coding either.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'catalog-kit';

/** The version field of the nearest enclosing catalog-kit package.json, searching up from `from`. */
export function findPackageVersion(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (;;) {
    const manifest = readManifest(path.join(dir, 'package.json'));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json named "${PACKAGE_NAME}" above ${from}`);
    dir = parent;
  }
}

function readManifest(file: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined; // missing or unreadable: keep walking up
  }
}

/** catalog-kit's version, read once at load. */
export const VERSION = findPackageVersion();
