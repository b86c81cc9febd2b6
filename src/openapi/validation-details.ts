/**
 * Validation problems, in one place: the compiled validators' errors (src/openapi/compiled.ts)
 * become details (`{path, message}`) in OpenMetadata's words (`name must not be null`,
 * `Unrecognized field "x"`, `query param limit must be integer`), and details become the text of
 * a message. Requests, component schemas (bulk items, patched entities, fixtures, imported state)
 * and responses are all reported through these functions.
 */
/** One reason a value was refused: where (a JSON path or parameter name) and why. */
export interface ErrorDetail {
  path: string;
  message: string;
}
import type { AjvError } from './compiled.ts';

/** Where a value came from: its place in the request. */
export type RequestPart = 'body' | 'query' | 'params' | 'headers';

const LABEL: Record<RequestPart, string> = { body: '', query: 'query param ', params: 'path param ', headers: 'header ' };

/** The property a `required` / unknown-property error names, if any. */
function namedProperty(e: AjvError): unknown {
  return e.params.missingProperty ?? e.params.unevaluatedProperty ?? e.params.additionalProperty;
}

const isUnknownProperty = (e: AjvError): boolean => e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties';

/** `/columns/0/name` → `columns.0.name`. */
function dottedPath(path: string): string {
  return path.replace(/^\//, '').replace(/\//g, '.');
}

/** The value at a JSON pointer (`/params/reactionType`) of `root`, if there is one. */
function valueAt(root: unknown, pointer: string): unknown {
  let at = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** A refused value as a message shows it: JSON, cut to 100 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/**
 * A request's problems, one detail per error. `path` is the value's place in the request
 * (`/body/name`); for a missing or unknown property it names that property, as OpenMetadata does.
 * The message starts with the value's name: `query param limit must be integer`, `name must not be null`.
 * Given the validated value (`data`), a value outside an enum is named with the values allowed.
 */
export function requestDetails(errors: readonly AjvError[], part?: RequestPart, data?: unknown): ErrorDetail[] {
  return errors.map((e) => {
    // Errors of the parameter validators start with their part (`/query/limit`); body ones do not.
    const base = part ? `/${part}${e.instancePath}` : e.instancePath;
    const location = (/^\/(body|query|params|headers)/.exec(base)?.[1] ?? 'body') as RequestPart;
    const where = LABEL[location];
    const property = namedProperty(e);
    const path = typeof property === 'string' ? `${base}/${property}` : base;
    // `/query/limit` → `limit`; `/body/columns/0/name` → `columns.0.name`.
    const leaf = path.replace(/^\/(body|query|params|headers)\/?/, '').replace(/\//g, '.');
    if (e.keyword === 'required') return { path, message: `${where}${leaf} must not be null` };
    if (isUnknownProperty(e)) return { path, message: `Unrecognized field "${leaf}"` };
    if (e.keyword === 'format' && e.params.format === 'uuid') return { path, message: `${where}${leaf} must be a UUID` };
    if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) {
      const value = data === undefined ? undefined : valueAt(data, e.instancePath);
      const given = value === undefined ? '' : `, not ${shown(value)}`;
      return { path, message: `${where}${leaf || 'body'} must be equal to one of the allowed values (${e.params.allowedValues.map(String).join(', ')})${given}` };
    }
    return { path, message: `${where}${leaf || 'body'} ${e.message ?? e.keyword}` };
  });
}

/**
 * A value's problems against a component schema, with the value's own paths (`/name`) and
 * messages that do not repeat them (`must not be null`), for texts of the form `<path> <message>`.
 */
export function schemaDetails(errors: readonly AjvError[] | null | undefined): ErrorDetail[] {
  return (errors ?? []).map((e) => {
    if (e.keyword === 'required') return { path: `${e.instancePath}/${String(e.params.missingProperty)}`, message: 'must not be null' };
    if (isUnknownProperty(e)) {
      const field = String(e.params.unevaluatedProperty ?? e.params.additionalProperty);
      return { path: `${e.instancePath}/${field}`, message: `Unrecognized field "${field}"` };
    }
    return { path: e.instancePath, message: e.message ?? e.keyword };
  });
}

/** A response's problems: paths under `/response`, an unknown property named after the message. */
export function responseDetails(errors: readonly AjvError[] | null | undefined): ErrorDetail[] {
  return (errors ?? []).map((e) => ({
    path: `/response${e.instancePath}`,
    message: `${e.message ?? e.keyword}${e.params.unevaluatedProperty ? ` (${String(e.params.unevaluatedProperty)})` : ''}`,
  }));
}

/** The message of a request's 400: its messages, bracketed: `[name must not be null, query param limit must be integer]`. */
export function detailsMessage(details: readonly ErrorDetail[]): string {
  return `[${details.map((d) => d.message).join(', ')}]`;
}

/** Each detail as `<path> <message>`: `/name must not be null; /x Unrecognized field "x"`. */
export function detailsText(details: readonly ErrorDetail[], separator = ', '): string {
  return details.map((d) => `${d.path} ${d.message}`).join(separator);
}

/** Schema details as a request's message, each after its dotted path: `[columns.0.name must be string]` (bulk items). */
export function dottedDetailsMessage(details: readonly ErrorDetail[]): string {
  return `[${details.map((d) => `${dottedPath(d.path)} ${d.message}`).join(', ')}]`;
}
