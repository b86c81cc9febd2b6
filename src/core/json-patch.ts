/**
 * A JSON Patch (RFC 6902) applied within bounds (docs/behaviour.md "Patch" and "Limits of one
 * request"): its result may not be larger than the request body limit (an entity already larger
 * may grow only by the values the patch carries), and its operations may not copy, move, remove or compare more than WORK_FACTOR times that
 * limit. A patch is small, but `copy` doubles what it copies: eighteen copies of a field into
 * itself would make a document 2^18 times larger. So the size each operation would leave is worked
 * out before it is applied, from the sizes of what it adds and what it replaces, and a patch that
 * would cross a bound is refused before the document that crosses it is built.
 *
 * Sizes are those of the JSON text, about: strings counted without their escapes. The operations
 * themselves are fast-json-patch's, one at a time, validated as `applyPatch` validates them.
 */
import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { CatalogError } from './errors.ts';

/** What the operations of one patch may copy, move, remove and compare, in multiples of the size limit. */
export const WORK_FACTOR = 16;

/** The size of `value` as JSON text, about (strings without escapes); stops counting past `cap` (returning more than it). */
export function jsonSize(value: unknown, cap = Infinity): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item === 'number') size += String(item).length;
    else if (typeof item === 'boolean') size += item ? 4 : 5;
    else if (Array.isArray(item)) {
      size += 2 + Math.max(0, item.length - 1);
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      size += 2 + Math.max(0, entries.length - 1);
      for (const [key, child] of entries) {
        size += key.length + 3;
        stack.push(child);
      }
    } else size += 4;
    if (size > cap) return size;
  }
  return size;
}

/** The value a JSON Pointer names in `document`, through own properties only; `replaced` when an `add` there would replace it (an object's member, the root). */
function pointed(document: unknown, pointer: string): { value: unknown; replaced: boolean } {
  if (pointer === '') return { value: document, replaced: true };
  const keys = pointer
    .split('/')
    .slice(1)
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
  let parent = document;
  for (const key of keys.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, key)) return { value: undefined, replaced: false };
    parent = (parent as Record<string, unknown>)[key];
  }
  const last = keys[keys.length - 1]!;
  if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, last)) return { value: undefined, replaced: false };
  return { value: (parent as Record<string, unknown>)[last], replaced: !Array.isArray(parent) };
}

/**
 * Applies `operations` to `document` (which it changes: give it a copy) and returns the result.
 * `maxBytes`: the size limit (the request body limit); `what` names the document in the 400.
 * Refuses, before building it, a result larger than `maxBytes` (or, for a document already larger,
 * than it was plus the values the patch carries), and a patch whose operations would handle more
 * than WORK_FACTOR × that bound.
 */
export function applyPatchWithin(document: unknown, operations: Operation[], maxBytes: number, what: string): unknown {
  let size = jsonSize(document);
  // A document already over the limit (a long list of followers) may grow by what the patch carries, not by copies.
  const carried = operations.reduce((sum, operation) => sum + ('value' in operation ? jsonSize(operation.value) : 0), 0);
  const limit = size > maxBytes ? size + carried : maxBytes;
  const budget = WORK_FACTOR * limit;
  let work = 0;
  let result = document;
  for (const [index, operation] of operations.entries()) {
    // What the operation would add and take away, measured on what is there now; measuring is work too.
    const spend = (bytes: number): void => {
      work += bytes;
      if (work > budget) {
        throw CatalogError.badRequest(
          `Invalid JSON Patch: its operations copy, move, remove or compare more than ${budget} bytes (${WORK_FACTOR} times the limit of ${limit}): send fewer operations`,
        );
      }
    };
    const measure = (value: unknown): number => {
      const measured = jsonSize(value, budget - work);
      spend(measured);
      return measured;
    };
    const target = typeof operation.path === 'string' ? pointed(result, operation.path) : { value: undefined, replaced: false };
    let grows = 0;
    switch (operation.op) {
      case 'add':
        grows = jsonSize(operation.value) - (target.replaced ? measure(target.value) : 0);
        break;
      case 'replace':
        grows = jsonSize(operation.value) - measure(target.value);
        break;
      case 'remove':
        grows = -measure(target.value);
        break;
      case 'copy': {
        // fast-json-patch clones what it copies: measured once for its size, counted twice for the work.
        const copied = measure(pointed(result, operation.from).value);
        spend(copied);
        grows = copied - (target.replaced ? measure(target.value) : 0);
        break;
      }
      case 'move':
        grows = target.replaced ? -measure(target.value) : 0;
        break;
      case 'test':
        measure(operation.value);
        break;
      default:
        break;
    }
    if (size + grows > limit) {
      throw CatalogError.badRequest(
        `Invalid JSON Patch: operation ${index} (${operation.op} ${operation.path}) would make the ${what} larger than ${limit} bytes, the request body limit: refused before it is built`,
      );
    }
    result = fastJsonPatch.applyOperation(result, operation, true, true, true, index).newDocument;
    size += grows;
  }
  return result;
}

/**
 * `value` with a JSON Patch applied to a copy of it, within the bounds above (applyPatchWithin): a
 * patch that does not apply, or whose result is not an object, is a 400 `Invalid JSON Patch: …`.
 * What every PATCH of a document that is not an entity goes through (threads, posts,
 * conversations, types); entities: src/core/lifecycle.ts `patchEntity`.
 */
export function patchedCopy<T extends object>(value: T, operations: Operation[], maxBytes: number, what: string): T {
  let result: unknown;
  try {
    result = applyPatchWithin(structuredClone(value), operations, maxBytes, what);
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw CatalogError.badRequest(`Invalid JSON Patch: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (result === null || typeof result !== 'object' || Array.isArray(result)) throw CatalogError.badRequest(`Invalid JSON Patch: the result is not a ${what}`);
  return result as T;
}

/** `value` with only its `patchable` fields taken from the patched copy (patchedCopy): the rest is kept as it was. */
export function patchedFields<T extends object>(value: T, operations: Operation[], patchable: Iterable<string>, maxBytes: number, what: string): T {
  const result = patchedCopy(value, operations, maxBytes, what) as Record<string, unknown>;
  const next: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of patchable) {
    if (result[key] === undefined) delete next[key];
    else next[key] = result[key];
  }
  return next as T;
}
