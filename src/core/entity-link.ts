/** Entity links of test cases (observed): `<#E::<type>::<fqn>[::columns::<column>]>`. */
import { CatalogError } from './errors.ts';

export interface EntityLink {
  type: string;
  fqn: string;
  column?: string;
}

/** The parts of an entity link, or undefined when it is not one. */
export function readEntityLink(link: unknown): EntityLink | undefined {
  const match = typeof link === 'string' ? /^<#E::([^:]+)::(.+?)(?:::columns::(.+))?>$/.exec(link) : null;
  return match ? { type: match[1]!, fqn: match[2]!, ...(match[3] ? { column: match[3] } : {}) } : undefined;
}

/** The parts of an entity link; 400 when it is not one. */
export function parseEntityLink(link: string): EntityLink {
  const parsed = readEntityLink(link);
  if (!parsed) throw CatalogError.badRequest(`Invalid entityLink ${link}: expected <#E::<type>::<fqn>[::columns::<column>]>`);
  return parsed;
}
