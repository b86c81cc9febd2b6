/**
 * src/config/version.ts finds catalog-kit's package.json from the sources (src/config/version.ts) and from the
 * build (dist/src/version.js), whose relative paths to it differ.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPackageVersion, VERSION } from './version.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'catalog-kit-version-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(file: string, content: unknown): string {
  const full = path.join(tmp, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
  return full;
}

describe('the package version', () => {
  it('is the version in the repository package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(manifest.version);
  });

  it('is found two levels up, as from dist/src/version.js in an installed package', () => {
    write('node_modules/catalog-kit/package.json', { name: 'catalog-kit', version: '9.8.7' });
    const from = write('node_modules/catalog-kit/dist/src/version.js', '');
    expect(findPackageVersion(from)).toBe('9.8.7');
  });

  it("skips another package's package.json on the way up", () => {
    write('outer/package.json', { name: 'catalog-kit', version: '1.2.3' });
    write('outer/inner/package.json', { name: 'someone-else', version: '0.0.1' });
    write('outer/inner/broken/package.json', '{ not json');
    expect(findPackageVersion(write('outer/inner/broken/src/version.js', ''))).toBe('1.2.3');
  });

  it('fails naming the start when no catalog-kit package.json is above it', () => {
    const from = write('lonely/src/version.js', '');
    expect(() => findPackageVersion(from)).toThrow(`no package.json named "catalog-kit" above ${from}`);
  });
});
