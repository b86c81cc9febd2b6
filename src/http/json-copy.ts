/**
 * A copy of a JSON answer's value that equals `JSON.parse(JSON.stringify(value))` and shares nothing
 * with it, made without writing and reading the text: an answer shares objects with the store, and
 * what a client does to the value it reads must not reach the store.
 */

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
};

/** Anything else (a Date, a class instance, a `toJSON`) as JSON itself makes it. */
function viaText(value: unknown): unknown {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** What JSON makes of a member: `undefined` where it leaves the member out (or writes `null` in an array). */
function copyOf(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    // JSON writes -0 as 0 and a number that is not finite as null.
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = copyOf(value[i]) ?? null;
        return out;
      }
      if (isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
          const member = copyOf((value as Record<string, unknown>)[key]);
          if (member === undefined) continue;
          // JSON.parse makes `__proto__` an own member; an assignment would set the prototype.
          if (key === '__proto__') Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
          else out[key] = member;
        }
        return out;
      }
      return viaText(value);
    case 'bigint':
      // Throws the TypeError JSON.stringify throws.
      return JSON.stringify(value);
    default:
      return undefined;
  }
}

/** `JSON.parse(JSON.stringify(value))`, for a value JSON writes (not `undefined`). */
export function jsonCopy(value: unknown): unknown {
  return copyOf(value);
}
