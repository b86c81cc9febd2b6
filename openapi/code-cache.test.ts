/**
 * The compiled validators load with the code cache the build writes (openapi/code-cache.ts):
 * V8 takes a cache made for the same source, and a stale or missing one only costs the parse.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CODE_CACHE_SUFFIX, requireWithCodeCache, writeCodeCache } from './code-cache.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ck-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function moduleFile(name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, body);
  return file;
}

describe('CommonJS modules loaded with a V8 code cache', () => {
  it('runs the module as require would: its exports, its own require, __filename and __dirname', () => {
    const file = moduleFile(
      'plain.cjs',
      "'use strict';\nexports.where = [__filename, __dirname];\nexports.sep = require('node:path').sep;\nmodule.exports.double = (n) => n * 2;\n",
    );
    const { exports, cacheUsed } = requireWithCodeCache(file) as { exports: { where: string[]; sep: string; double: (n: number) => number }; cacheUsed: boolean };
    expect(cacheUsed).toBe(false);
    expect(exports.where).toEqual([file, dir]);
    expect(exports.sep).toBe(path.sep);
    expect(exports.double(21)).toBe(42);
  });

  it('takes the cache the build wrote for the same source, after warming up with the exports', async () => {
    const file = moduleFile('cached.cjs', 'module.exports = function validate(x) { return typeof x === "string"; };\n');
    const seen: unknown[] = [];
    expect(await writeCodeCache(file, async (exports) => void seen.push((exports as (x: unknown) => boolean)('warm')))).toBeGreaterThan(0);
    expect(seen).toEqual([true]);
    const { exports, cacheUsed } = requireWithCodeCache(file) as { exports: (x: unknown) => boolean; cacheUsed: boolean };
    expect(cacheUsed).toBe(true);
    expect([exports('a'), exports(1)]).toEqual([true, false]);
  });

  it('writes a module with a cache as ASCII that means the same: non-ASCII in strings, regular expressions and comments escaped', async () => {
    const file = moduleFile('unicode.cjs', "// key → value\nmodule.exports = { arrow: 'a → b', quote: /^[’]$/.test('’'), astral: '𝄞'.length };\n");
    await writeCodeCache(file);
    expect(readFileSync(file, 'utf8')).not.toMatch(/[\u0080-\uffff]/);
    expect(requireWithCodeCache(file)).toEqual({ exports: { arrow: 'a → b', quote: true, astral: 2 }, cacheUsed: true });
  });

  it('compiles the source when the cache was written for other source', async () => {
    const file = moduleFile('stale.cjs', 'module.exports = 1;\n');
    await writeCodeCache(file);
    const other = moduleFile('other.cjs', 'module.exports = 2 + 0;\n');
    writeFileSync(other + CODE_CACHE_SUFFIX, Buffer.from('not a V8 code cache'));
    writeFileSync(file, 'module.exports = 3 + 0;\n');
    expect(requireWithCodeCache(file)).toEqual({ exports: 3, cacheUsed: false });
    expect(requireWithCodeCache(other)).toEqual({ exports: 2, cacheUsed: false });
  });
});
