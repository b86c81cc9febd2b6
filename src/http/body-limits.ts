/**
 * Limits on what a request body may be, beyond its size (README.md "Limits"; docs/behaviour.md
 * "Validation and limits"). JSON.parse accepts any nesting depth, but the code after it (schema
 * validation, structuredClone, JSON Patch, rendering) recurses, so a body nested thousands of levels
 * deep could exhaust the stack. No document of the API nests that deep (a struct column with
 * children is two levels per column level), so a deeper body is refused with a 400 up front.
 */
import type { RequestHandler } from 'express';
import { ApiError } from './errors.ts';

/** Largest accepted nesting depth of a JSON body (objects and arrays). */
export const MAX_BODY_DEPTH = 64;

/** Nesting depth of a parsed JSON value, measured without recursion (the value may be very deep). */
function nestingDepth(value: unknown, stopAfter = Infinity): number {
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

export function limitNesting(maxDepth = MAX_BODY_DEPTH): RequestHandler {
  return (req, _res, next) => {
    const body: unknown = req.body;
    if (body !== null && typeof body === 'object' && nestingDepth(body, maxDepth) > maxDepth) {
      return next(ApiError.badRequest(`Request body is nested deeper than ${maxDepth} levels`));
    }
    next();
  };
}
