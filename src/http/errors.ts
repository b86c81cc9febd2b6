/**
 * The one error type of the server and its catalogue (DESIGN.md "Errors"). Every failure becomes
 * an ApiError and is rendered in one place (render-error.ts) as
 * `{"code", "errorType", "message", "details"?}`.
 */
export type ErrorType =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'ENTITY_ALREADY_EXISTS'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL_ERROR';

export interface ErrorDetail {
  path: string;
  message: string;
}

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'ENTITY_ALREADY_EXISTS',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  500: 'INTERNAL_ERROR',
};

export class ApiError extends Error {
  readonly status: number;
  readonly errorType: ErrorType;
  readonly details: ErrorDetail[] | undefined;

  constructor(status: number, message: string, details?: ErrorDetail[], errorType?: ErrorType) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errorType = errorType ?? TYPE_BY_STATUS[status] ?? (status < 500 ? 'BAD_REQUEST' : 'INTERNAL_ERROR');
    this.details = details;
  }

  static badRequest(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(400, message, details);
  }

  /** OpenMetadata's text: `<entityType> instance for <id-or-fqn> not found` (observed §2.3). */
  static notFound(entityType: string, idOrFqn: string): ApiError {
    return new ApiError(404, `${entityType} instance for ${idOrFqn} not found`);
  }

  /** Contract "Create, upsert and bulk upsert" rule 2; OpenMetadata's text `Entity already exists`. */
  static alreadyExists(): ApiError {
    return new ApiError(409, 'Entity already exists');
  }

  static unauthorized(message: string): ApiError {
    return new ApiError(401, message);
  }

  /** OpenMetadata's permissionNotAllowed text (observed §2.5). */
  static forbidden(user: string, operation: string): ApiError {
    return new ApiError(403, `Principal: CatalogPrincipal{name='${user}'} operations [${operation}] not allowed`);
  }

  /** Observed §4: a non-recursive delete of a parent with children. */
  static notEmpty(entityType: string): ApiError {
    return new ApiError(400, `${entityType} is not empty`);
  }
}
