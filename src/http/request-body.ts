/**
 * What a request body is, once its bytes are in: JSON (`application/json`, `application/*+json`:
 * any JSON value, an empty body `{}`) or text (`text/plain`, `application/yaml`), decoded with its
 * charset (UTF-8 by default, a leading byte-order mark dropped), nested no deeper than
 * MAX_BODY_DEPTH. Any other media type is left unparsed: request validation answers 415 where the
 * operation takes a body. The answers and messages are body-parser's, which clients of express
 * servers know (src/http/request-body.test.ts compares the two).
 */
import { ApiError } from './errors.ts';
import { mediaTypeOf } from './exchange.ts';

/**
 * Largest accepted nesting depth of a JSON body (objects and arrays). JSON.parse accepts any depth,
 * but the code after it (validation, structuredClone, JSON Patch, rendering) recurses; no document
 * of the API nests that deep (a struct column with children is two levels per column level).
 */
export const MAX_BODY_DEPTH = 64;

const TEXT_TYPES = new Set(['text/plain', 'application/yaml']);

function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** The `charset` parameter of a Content-Type, lower-cased. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1]?.toLowerCase();
}

function unsupportedCharset(charset: string): ApiError {
  return new ApiError(415, `unsupported charset "${charset.toUpperCase()}"`);
}

function decode(body: Uint8Array | string, charset: string): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    throw unsupportedCharset(charset);
  }
  return decoder.decode(body);
}

/** Nesting depth of a parsed JSON value, measured without recursion (the value may be very deep). */
function nestingDepth(value: unknown, stopAfter: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const level = depth + 1;
    if (level > max) max = level;
    if (max > stopAfter) return max;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, level]);
    }
  }
  return max;
}

/** The parsed body; undefined for a media type that is not read. Throws the 400 or 415 ApiError of a body that cannot be read. */
export function parseBody(body: Uint8Array | string, contentType: string | undefined): unknown {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === undefined) return undefined;
  const charset = charsetOf(contentType!);
  if (isJsonType(mediaType)) {
    // RFC 8259: JSON is UTF-8 (or UTF-16/32 as older texts allow); nothing else.
    if (charset !== undefined && !charset.startsWith('utf-')) throw unsupportedCharset(charset);
    const text = decode(body, charset ?? 'utf-8');
    if (text.length === 0) return {};
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw ApiError.badRequest(`Malformed JSON body: ${cause instanceof Error ? cause.message : 'cannot parse'}`);
    }
    if (value !== null && typeof value === 'object' && nestingDepth(value, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
      throw ApiError.badRequest(`Request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    }
    return value;
  }
  if (TEXT_TYPES.has(mediaType)) return decode(body, charset ?? 'utf-8');
  return undefined;
}
