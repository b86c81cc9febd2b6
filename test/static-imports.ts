/**
 * What a module loads when it is imported: its static, non-type imports, followed through relative
 * files (a dynamic import() is not followed: that is how entry points load the heavy parts lazily).
 * The start-up cost tests (src/app/cli/cli.test.ts, src/index.test.ts) read it.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Files (relative to the repository root) and packages the module at `entry` loads statically. */
export function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)';/gm)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => f.slice(ROOT.length + 1)).sort(), packages: [...packages].sort() };
}
