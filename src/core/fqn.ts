/**
 * Fully qualified names (docs/behaviour.md "Fully qualified names"; OpenMetadata's FullyQualifiedName.java).
 * A part that contains a dot is wrapped in double quotes; a name containing a double quote is invalid.
 */
import { CatalogError } from './errors.ts';

/** `a.b` → `"a.b"`; other names unchanged; a `"` inside a name is rejected (400 `Invalid name`). */
export function quoteName(name: string): string {
  if (name.includes('"')) throw CatalogError.badRequest(`Invalid name ${name}`);
  return name.includes('.') ? `"${name}"` : name;
}

/**
 * A part of an FQN the server names itself, below an entity (a column, a field): quoted as
 * `quoteName` does, but a name it cannot quote (one with a `"`) is used as it is instead of refused,
 * since the request named an entity, not this part.
 */
export function columnPart(name: string): string {
  return name.includes('"') ? name : quoteName(name);
}

/** Appends a quoted name to a parent FQN. */
export function addToFqn(parentFqn: string, name: string): string {
  return `${parentFqn}.${quoteName(name)}`;
}

/** Splits an FQN into its unquoted parts, respecting quotes (`svc."a.b".c` → [svc, a.b, c]). */
export function splitFqn(fqn: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of fqn) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '.' && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}
