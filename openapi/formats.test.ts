/**
 * The formats the compiled validators call (generated/validators/formats.cjs, written by
 * scripts/compile-validators.ts) are ajv-formats' own, but for `uri`, which first tries a narrow
 * expression for plain http(s) URIs: it may only make the answer faster, never different. `uri`
 * answers the `href`s the server writes and the URIs clients send as RFC 3986 says.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

type Format = ((value: string) => boolean) | RegExp | { validate: unknown };
const require = createRequire(import.meta.url);
const formats = require('./generated/validators/formats.cjs') as Record<string, Format>;
const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, Format> };
const uri = formats.uri as (value: string) => boolean;
const fullUri = fullFormats.uri as (value: string) => boolean;

describe('formats of the compiled validators', () => {
  it.each([
    { value: 'http://127.0.0.1:8585/api/v1/containers/6f1c1c2e-9b7a-4d43-a8f5-2b0f4e0c1d2a', want: true },
    { value: 'https://catalog.example.com', want: true },
    { value: 'HTTPS://Catalog.Example.COM/A/B/', want: true },
    { value: "http://h/a-b._~!$&'()*+,;=:@", want: true },
    { value: 'http://h:/x', want: true },
    { value: 'http://h/a%20b', want: true },
    { value: 'http://h/?q=1#top', want: true },
    { value: 'http://user@h/', want: true },
    { value: 'http://[::1]:8585/x', want: true },
    { value: 'mailto:someone@example.com', want: true },
    { value: 's3://bucket/key', want: true },
    { value: 'http://h/a%2', want: false },
    { value: 'http://h/a%zz', want: false },
    { value: 'http://exa mple.com', want: false },
    { value: 'http://h/<x>', want: false },
    { value: 'example.com/path', want: false },
    { value: '/relative/path', want: false },
    { value: '', want: false },
  ])('uri $value: $want, as ajv-formats says', ({ value, want }) => {
    expect(fullUri(value)).toBe(want);
    expect(uri(value)).toBe(want);
  });

  it('uri answers every string as ajv-formats does', () => {
    // Strings near the shortcut's edge: a scheme with or without `//`, a host, path segments, each
    // drawn from the shortcut's characters and the ones it leaves to the full check.
    const prefix = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', 'http:', '');
    const piece = (extra: string[]) => fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '.', '~', ...extra), maxLength: 6 });
    const host = piece(['@', ':', ':80', '[', ']', '%', '%41', ' ', 'é']);
    const segment = piece(["'", '!', '$', '&', '(', '*', '+', ',', ';', '=', ':', '@', '%', '%2', '%20', '?', '#', '[', ' ', '<', '"', '{', '|', '\\', '^', '`', 'é']);
    fc.assert(
      fc.property(prefix, host, fc.array(segment, { maxLength: 4 }), (start, name, segments) => {
        const value = start + name + segments.map((s) => `/${s}`).join('');
        expect(uri(value)).toBe(fullUri(value));
      }),
      { seed: 20_261_128, numRuns: 5_000 },
    );
  });

  it('every other format is ajv-formats’ own', () => {
    const others = Object.keys(fullFormats).filter((name) => name !== 'uri');
    expect(Object.keys(formats).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of others) expect(formats[name], name).toBe(fullFormats[name]);
    expect(uri).not.toBe(fullUri);
  });
});
