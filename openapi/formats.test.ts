/**
 * The formats the compiled validators call (generated/validators/formats.cjs, written by
 * scripts/compile-validators.ts) are ajv-formats' own, and `uri` answers the `href`s the server
 * writes and the URIs clients send as RFC 3986 says.
 */
import { createRequire } from 'node:module';
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

  it('every format is ajv-formats’ own', () => {
    expect(Object.keys(formats).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of Object.keys(fullFormats)) expect(formats[name], name).toBe(fullFormats[name]);
  });
});
