/**
 * Request and response validation of one documented operation with the validators compiled from
 * the document at build time (src/openapi/compiled.ts). The route a request matched names the
 * operation (src/http/operation-routes.ts), so nothing is searched per request.
 *
 * - Path, query and header parameters are checked with coercion (`?limit=10` is the integer 10,
 *   and handlers read the coerced query); path parameters stay strings for the handlers.
 * - Bodies are never coerced: `"name": 12345` is a 400 naming `name`. The document's `default`s are
 *   filled in, as OpenMetadata does when it reads a request.
 * - Unknown query parameters are ignored, as the real server does (real clients send extra ones).
 * - A response is checked against the schema documented for its status; a response the document
 *   does not allow is a server bug, answered 500 by the error renderer.
 */
import type { CompiledFunction, CompiledValidators, OperationEntry } from '../openapi/compiled.ts';
import { responsesOf } from '../openapi/compiled.ts';
import { detailsMessage, detailsText, requestDetails, responseDetails } from '../openapi/validation-details.ts';
import { ApiError } from './errors.ts';
import type { ErrorDetail } from './errors.ts';
import type { ApiRequest } from './exchange.ts';
import { mediaTypeOf } from './exchange.ts';

/** A response the document does not allow: rendered as a 500 (src/http/render-error.ts). */
export class ResponseValidationError extends Error {
  constructor(
    message: string,
    readonly details: ErrorDetail[],
  ) {
    super(message);
    this.name = 'ResponseValidationError';
  }
}

export interface BoundOperation {
  readonly entry: OperationEntry;
  /** Throws the 400 / 415 ApiError of an invalid request; coerces the query in place. */
  validateRequest(req: ApiRequest): void;
  /** Throws a ResponseValidationError when `body` is not what the document allows for `status`. */
  validateResponse(status: number, body: unknown): void;
  /** The documented error statuses (4xx/5xx) of the operation. */
  readonly errorStatuses: readonly number[];
}

function lookup(functions: Record<string, CompiledFunction>, name: string): CompiledFunction {
  const fn = functions[name];
  if (!fn) throw new Error(`compiled validator ${name} is missing: run \`npm run build\``);
  return fn;
}

/** The documented media type a request's Content-Type selects (`application/*` and `*\/*` match too). */
function selectMediaType(content: Record<string, string | null>, mediaType: string): string | undefined {
  if (mediaType in content) return mediaType;
  const [type] = mediaType.split('/');
  if (`${type}/*` in content) return `${type}/*`;
  return '*/*' in content ? '*/*' : undefined;
}

/**
 * The first name of `fields` an operation's pattern of names refuses, as OpenMetadata's message
 * names it (`Invalid field name <x>`, docs/behaviour.md "Reading"); undefined for any other failure.
 */
function unknownFieldName(errors: NonNullable<CompiledFunction['errors']>, fields: unknown): string | undefined {
  const pattern = errors.find((e) => e.instancePath === '/query/fields' && e.keyword === 'pattern')?.params.pattern;
  if (typeof pattern !== 'string' || typeof fields !== 'string') return undefined;
  // One name alone matches the whole pattern exactly when the operation takes it.
  const takes = new RegExp(pattern, 'u');
  const items = fields.split(',').map((f) => f.trim());
  return items.find((f) => !takes.test(f)) ?? items[0];
}

export function bindOperation(entry: OperationEntry, compiled: CompiledValidators): BoundOperation {
  const params = entry.params ? lookup(compiled.params, entry.params) : undefined;
  const body = entry.body;
  const bodyValidators = new Map<string, CompiledFunction | undefined>();
  for (const [mediaType, name] of Object.entries(body?.content ?? {})) bodyValidators.set(mediaType, name ? lookup(compiled.requests, name) : undefined);
  const accepted = Object.keys(body?.content ?? {});
  const documented = responsesOf(entry);
  const responses = new Map<string, Map<string, CompiledFunction | undefined>>();
  for (const [status, content] of Object.entries(documented)) {
    responses.set(status, new Map(Object.entries(content).map(([mediaType, name]) => [mediaType, name ? lookup(compiled.responses, name) : undefined])));
  }
  const where = `${entry.method} ${entry.path}`;

  const checkParams = (req: ApiRequest, params: CompiledFunction): void => {
    // The query is coerced in place; a copy of the path parameters is checked: handlers read them as strings.
    const values = { params: { ...req.params }, query: req.query, headers: req.headers };
    if (!params(values)) {
      const unknown = unknownFieldName(params.errors ?? [], req.query.fields);
      if (unknown !== undefined) throw ApiError.badRequest(`Invalid field name ${unknown}`);
      const details = requestDetails(params.errors ?? [], undefined, values);
      throw ApiError.badRequest(detailsMessage(details), details);
    }
  };

  /** The documented media type of the request's body; undefined when there is no body to check. */
  const checkMediaType = (req: ApiRequest): string | undefined => {
    if (!body) return undefined;
    const present = req.hasBody;
    if (!present && !body.required) return undefined;
    const mediaType = mediaTypeOf(req.headers['content-type']);
    if (mediaType === undefined) {
      throw new ApiError(415, `Missing Content-Type header: send the request body as ${accepted.join(' or ')}`);
    }
    const selected = selectMediaType(body.content, mediaType);
    if (selected === undefined) {
      throw new ApiError(415, `Unsupported Content-Type ${mediaType}: send the request body as ${accepted.join(' or ')}`);
    }
    if (!present) {
      const details = [{ path: '/body', message: 'body must not be null' }];
      throw ApiError.badRequest(detailsMessage(details), details);
    }
    return selected;
  };

  const checkBody = (req: ApiRequest, mediaType: string): void => {
    const validate = bodyValidators.get(mediaType);
    if (validate && !validate(req.body)) {
      const details = requestDetails(validate.errors ?? [], 'body', req.body);
      throw ApiError.badRequest(detailsMessage(details), details);
    }
  };

  return {
    entry,
    errorStatuses: Object.keys(documented)
      .map(Number)
      .filter((status) => status >= 400),
    validateRequest(req) {
      // A body of the wrong kind is answered 415 before anything else is looked at.
      const mediaType = checkMediaType(req);
      if (params) checkParams(req, params);
      if (mediaType !== undefined) checkBody(req, mediaType);
    },
    validateResponse(status, value) {
      // The status's own entry, then its range (`4XX`), then `default`, as OpenAPI reads them.
      let key = String(status);
      if (!responses.has(key)) key = responses.has(`${Math.floor(status / 100)}XX`) ? `${Math.floor(status / 100)}XX` : 'default';
      const byType = responses.get(key);
      if (!byType) throw new ResponseValidationError(`status ${status} is not documented for ${where}`, []);
      if (byType.size === 0) return;
      const validate = byType.get('application/json') ?? byType.values().next().value;
      if (!validate || validate(value)) return;
      const details = responseDetails(validate.errors);
      throw new ResponseValidationError(`the ${status} response of ${where} does not match the document: ${detailsText(details)}`, details);
    },
  };
}
