/**
 * The one place that renders errors (DESIGN.md "Errors"): whatever was thrown (an ApiError, an
 * express-openapi-validator HttpError, a body-parser error, a bug) becomes one JSON body
 * `{code, errorType, message, details?}`. A response that failed response validation is a server
 * bug: it is logged with its detail and answered 500.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Profile } from '../config/profiles.ts';
import { ApiError } from './errors.ts';
import type { ErrorDetail } from './errors.ts';

interface ValidatorError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  path?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
}

/** `/body/name` + "must have required property 'x'" → `x must not be null`, OpenMetadata-style. */
function describe(item: { path?: string; message?: string; errorCode?: string }): ErrorDetail {
  const path = item.path ?? '';
  const message = item.message ?? 'is invalid';
  const where = path.startsWith('/query/') ? 'query param ' : path.startsWith('/params/') ? 'path param ' : '';
  const leaf = path.replace(/^\/(body|query|params|headers)\/?/, '').replace(/\//g, '.');
  const required = /must have required property '([^']+)'/.exec(message);
  if (required) {
    // The validator reports the missing property's own path (`/body/connection`) or, in nested
    // schemas, its parent's; name the property once either way.
    const field = required[1]!;
    const full = path.endsWith(`/${field}`) ? path : `${path}/${field}`.replace('//', '/');
    const name = full.replace(/^\/(body|query|params|headers)\/?/, '').replace(/\//g, '.');
    return { path: full, message: `${where}${name} must not be null` };
  }
  if (/unevaluated properties|additional properties/.test(message)) return { path, message: `Unrecognized field "${leaf}"` };
  if (/format "uuid"/.test(message)) return { path, message: `${where}${leaf} must be a UUID` };
  return { path, message: `${where}${leaf || 'body'} ${message}` };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = (error ?? {}) as ValidatorError;
  const status = e.status ?? e.statusCode ?? 500;
  if (e.type === 'entity.too.large') return new ApiError(413, `Request body is larger than the limit`);
  if (e.type === 'entity.parse.failed') return ApiError.badRequest(`Malformed JSON body: ${e.message ?? 'cannot parse'}`);
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError(415, e.message ?? 'Unsupported encoding');
  if (status === 400 && Array.isArray(e.errors) && e.errors.length) {
    const details = e.errors.map(describe);
    return ApiError.badRequest(`[${details.map((d) => d.message).join(', ')}]`, details);
  }
  if (status === 404) return new ApiError(404, `HTTP 404 Not Found: no operation at ${e.path ?? 'this path'}`);
  if (status === 405) return new ApiError(405, `HTTP 405 Method Not Allowed${e.path ? ` at ${e.path}` : ''}`);
  // The validator's text for a body sent without a Content-Type is "unsupported media type undefined".
  if (status === 415 && /undefined$/.test(e.message ?? '')) return new ApiError(415, 'Missing Content-Type header: send the request body as application/json');
  if (status === 415) return new ApiError(415, e.message ?? 'Unsupported Media Type');
  if (status >= 400 && status < 500) return new ApiError(status, e.message ?? 'Bad request');
  return new ApiError(500, 'Internal server error');
}

/**
 * A request that matched no route: an operation the document declares but no handler serves yet,
 * or a path outside `/api`. Answered in the error shape rather than express's HTML page.
 */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => next(new ApiError(404, `HTTP 404 Not Found: no handler for ${req.method} ${req.path}`));
}

export function errorRenderer(profile: Profile, log: (line: string) => void): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const apiError = toApiError(error);
    // A deliberate 5xx (the admin API's error injection, `Prefer: code=`) is not a bug to log.
    if (apiError.status >= 500 && !(error instanceof ApiError)) {
      const e = error as ValidatorError;
      const detail = e.errors?.length ? JSON.stringify(e.errors) : error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`500 on ${req.method} ${req.originalUrl}: ${e.message ?? ''} ${detail}`);
      if (e.errors?.some((x) => x.path?.startsWith('/response'))) {
        apiError.message = `Internal server error: the response failed validation against the OpenAPI document (${e.message ?? ''})`;
      }
    }
    const body: Record<string, unknown> = { code: apiError.status, message: apiError.message };
    if (profile.errorTypeInBody) body.errorType = apiError.errorType;
    if (apiError.details?.length) body.details = apiError.details;
    if (apiError.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(apiError.status).json(body);
  };
}
