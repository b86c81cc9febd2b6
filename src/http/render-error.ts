/**
 * The one place that renders errors: whatever was thrown (an ApiError, a body-parser error, a
 * bug) becomes one JSON body `{code, errorType, message, details?}`. A response that failed
 * response validation is a server bug: it is logged with its detail and answered 500.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Profile } from '../config/profiles.ts';
import { CatalogError } from '../domain/errors.ts';
import { ApiError } from './errors.ts';
import { ResponseValidationError } from './operation-validation.ts';

interface ParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError || error instanceof CatalogError) return ApiError.from(error);
  const e = (error ?? {}) as ParserError;
  const status = e.status ?? e.statusCode ?? 500;
  // body-parser's errors (express.json / express.text), by their `type`.
  if (e.type === 'entity.too.large') return new ApiError(413, `Request body is larger than the limit`);
  if (e.type === 'entity.parse.failed') return ApiError.badRequest(`Malformed JSON body: ${e.message ?? 'cannot parse'}`);
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new ApiError(415, e.message ?? 'Unsupported encoding');
  if (status >= 400 && status < 500 && !(error instanceof ResponseValidationError)) return new ApiError(status, e.message ?? 'Bad request');
  return new ApiError(500, 'Internal server error');
}

export function errorRenderer(profile: Profile, log: (line: string) => void): ErrorRequestHandler {
  const renderer: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error);
    try {
      answer(error, req, res);
    } catch (failed) {
      // The error's own answer failed response validation: a status the document does not list for
      // this operation. A server bug, answered as one (the second answer is not checked again).
      if (!(failed instanceof ResponseValidationError) || res.headersSent) throw failed;
      answer(failed, req, res);
    }
  };
  const answer = (error: unknown, req: Request, res: Response): void => {
    const apiError = toApiError(error);
    if (error instanceof ResponseValidationError) {
      log(`500 on ${req.method} ${req.originalUrl}: ${error.message}`);
      apiError.message = `Internal server error: the response failed validation against the OpenAPI document (${error.message})`;
    } else if (apiError.status >= 500 && !(error instanceof ApiError || error instanceof CatalogError)) {
      // A deliberate 5xx (the admin API's error injection, `Prefer: code=`) is an ApiError: not logged.
      log(`500 on ${req.method} ${req.originalUrl}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    const body: Record<string, unknown> = { code: apiError.status, message: apiError.message };
    if (profile.errorTypeInBody) body.errorType = apiError.errorType;
    if (apiError.details?.length) body.details = apiError.details;
    if (apiError.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(apiError.status).json(body);
  };
  return renderer;
}
