/**
 * The one place that renders errors: whatever was thrown (an ApiError, a domain error, a body the
 * transport could not read, a bug) becomes one JSON body `{code, errorType, message, details?}`.
 * A response that failed response validation is a server bug: it is logged with its detail and
 * answered 500.
 */
import type { Profile } from '../config/profiles.ts';
import { CatalogError } from '../core/errors.ts';
import { ApiError } from './errors.ts';
import { Reply } from './exchange.ts';
import type { BoundOperation } from './operation-validation.ts';
import { ResponseValidationError } from './operation-validation.ts';

/** What a transport's body reader (body-parser, src/app/node-handler.ts) reports, by its `type`. */
interface ReaderError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError || error instanceof CatalogError) return ApiError.from(error);
  const e = (error ?? {}) as ReaderError;
  const status = e.status ?? e.statusCode ?? 500;
  if (e.type === 'entity.too.large') return new ApiError(413, `Request body is larger than the limit`);
  if (e.type === 'entity.parse.failed') return ApiError.badRequest(`Malformed JSON body: ${e.message ?? 'cannot parse'}`);
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError(415, e.message ?? 'Unsupported encoding');
  if (status >= 400 && status < 500 && !(error instanceof ResponseValidationError)) return new ApiError(status, e.message ?? 'Bad request');
  return new ApiError(500, 'Internal server error');
}

/** The request an error answers, for the log. */
export interface ErrorContext {
  method: string;
  url: string;
}

export type ErrorRenderer = (error: unknown, request: ErrorContext, operation?: BoundOperation) => Reply;

export function errorRenderer(profile: Profile, log: (line: string) => void): ErrorRenderer {
  const answer = (error: unknown, request: ErrorContext): Reply => {
    const apiError = toApiError(error);
    let message = apiError.message;
    if (error instanceof ResponseValidationError) {
      log(`500 on ${request.method} ${request.url}: ${error.message}`);
      message = `Internal server error: the response failed validation against the OpenAPI document (${error.message})`;
    } else if (apiError.status >= 500 && !(error instanceof ApiError || error instanceof CatalogError)) {
      // A deliberate 5xx (the Admin API's error injection, `Prefer: code=`) is an ApiError: not logged.
      log(`500 on ${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    const body: Record<string, unknown> = { code: apiError.status, message };
    if (profile.errorTypeInBody) body.errorType = apiError.errorType;
    if (apiError.details?.length) body.details = apiError.details;
    const reply = new Reply().status(apiError.status);
    if (apiError.status === 401) reply.header('www-authenticate', 'Bearer');
    reply.json(body);
    return reply;
  };
  return (error, request, operation) => {
    const reply = answer(error, request);
    if (!operation) return reply;
    try {
      // The error's own answer is a response of the operation too: a status the document does not
      // list for it is a server bug, answered as one (and that answer is not checked again).
      operation.validateResponse(reply.statusCode, reply.body);
      return reply;
    } catch (failed) {
      if (!(failed instanceof ResponseValidationError)) throw failed;
      return answer(failed, request);
    }
  };
}
