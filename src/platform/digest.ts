/**
 * Digests, on Node.js: node:crypto. The browser build of the catalog in process (scripts/build.mjs)
 * takes digest.browser.ts instead, the same functions in plain JavaScript; digest.test.ts holds the
 * two to the same answers.
 */
import { createHash, createHmac } from 'node:crypto';

export function sha1(text: string): Uint8Array {
  return createHash('sha1').update(text).digest();
}

export function md5(text: string): Uint8Array {
  return createHash('md5').update(text).digest();
}

export function hmacSha256(key: string, text: string): Uint8Array {
  return createHmac('sha256', key).update(text).digest();
}

/** A weak tag of a body, as express tags its answers (the `etag` package): `W/"<length in hex>-<sha1, base64, 27 characters>"`. */
export function contentTag(body: string): string {
  return `W/"${Buffer.byteLength(body, 'utf8').toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
}
