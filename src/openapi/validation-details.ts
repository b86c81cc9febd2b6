/**
 * Validation problems as the API reports them, in OpenMetadata's words: `name must not be null`,
 * `Unrecognized field "x"`, `query param limit must be integer`. The one formatter of the
 * compiled validators' errors (src/openapi/compiled.ts) for requests.
 */
import type { ErrorDetail } from '../domain/errors.ts';
import type { AjvError } from './compiled.ts';

/** Where a value came from: its place in the request. */
export type RequestPart = 'body' | 'query' | 'params' | 'headers';

const LABEL: Record<RequestPart, string> = { body: '', query: 'query param ', params: 'path param ', headers: 'header ' };

/** `/query/limit` → `limit`; `/body/columns/0/name` → `columns.0.name`. */
function leafOf(path: string): string {
  return path.replace(/^\/(body|query|params|headers)\/?/, '').replace(/\//g, '.');
}

/**
 * One detail per error. `path` is the value's place in the request (`/body/name`); for a missing
 * or unknown property it names that property, as OpenMetadata does.
 */
export function requestDetails(errors: readonly AjvError[], part?: RequestPart): ErrorDetail[] {
  return errors.map((e) => {
    // Errors of the parameter validators start with their part (`/query/limit`); body ones do not.
    const base = part ? `/${part}${e.instancePath}` : e.instancePath;
    const location = (/^\/(body|query|params|headers)/.exec(base)?.[1] ?? 'body') as RequestPart;
    const where = LABEL[location];
    const property = e.params.missingProperty ?? e.params.unevaluatedProperty ?? e.params.additionalProperty;
    const path = typeof property === 'string' ? `${base}/${property}` : base;
    const leaf = leafOf(path);
    if (e.keyword === 'required') return { path, message: `${where}${leaf} must not be null` };
    if (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') return { path, message: `Unrecognized field "${leaf}"` };
    if (e.keyword === 'format' && e.params.format === 'uuid') return { path, message: `${where}${leaf} must be a UUID` };
    return { path, message: `${where}${leaf || 'body'} ${e.message ?? e.keyword}` };
  });
}

/** The message of a 400 listing the details: `[a must not be null, b must be string]`. */
export function detailsMessage(details: readonly ErrorDetail[]): string {
  return `[${details.map((d) => d.message).join(', ')}]`;
}
