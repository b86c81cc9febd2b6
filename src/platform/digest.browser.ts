/**
 * Digests in the browser build of the catalog in process: @noble/hashes, plain JavaScript, the
 * same answers as digest.ts gives on Node.js (digest.test.ts).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { md5 as nobleMd5, sha1 as nobleSha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from './encoding.ts';

const utf8 = new TextEncoder();

export function sha1(text: string): Uint8Array {
  return nobleSha1(utf8.encode(text));
}

export function md5(text: string): Uint8Array {
  return nobleMd5(utf8.encode(text));
}

export function hmacSha256(key: string, text: string): Uint8Array {
  return hmac(sha256, utf8.encode(key), utf8.encode(text));
}

/** A weak tag of a body, as express tags its answers (the `etag` package): `W/"<length in hex>-<sha1, base64, 27 characters>"`. */
export function contentTag(body: string): string {
  const bytes = utf8.encode(body);
  return `W/"${bytes.length.toString(16)}-${base64(nobleSha1(bytes)).slice(0, 27)}"`;
}
