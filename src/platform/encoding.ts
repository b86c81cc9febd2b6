/**
 * Bytes and text as hex, base64 and base64url, with what every JavaScript platform has
 * (TextEncoder, TextDecoder, btoa, atob): the catalog runs in browsers too.
 */
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The base64url of a text's UTF-8 bytes. */
export function textToBase64url(text: string): string {
  return base64url(utf8.encode(text));
}

/** The base64 of a text's UTF-8 bytes. */
export function textToBase64(text: string): string {
  return base64(utf8.encode(text));
}

/** The text whose UTF-8 bytes `encoded` holds in base64url (or base64); undefined when it is not. */
export function textFromBase64url(encoded: string): string | undefined {
  const standard = encoded.replace(/-/g, '+').replace(/_/g, '/');
  let binary: string;
  try {
    binary = atob(standard.padEnd(standard.length + ((4 - (standard.length % 4)) % 4), '='));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return fromUtf8.decode(bytes);
}

/** The first `count` bytes of a text's UTF-8, as text (a character cut in two becomes U+FFFD). */
export function utf8Prefix(text: string, count: number): string {
  return fromUtf8.decode(utf8.encode(text).subarray(0, count));
}
