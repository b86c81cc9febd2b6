/**
 * The one error type of the HTTP layer and its catalogue. Every failure becomes an ApiError
 * (the domain's CatalogError through `ApiError.from`, the one map from its kinds to statuses) and
 * is rendered in one place (render-error.ts) as `{"code", "errorType", "message", "details"?}`.
 */
import { CatalogError } from '../core/errors.ts';
import type { CatalogErrorKind, ErrorDetail } from '../core/errors.ts';

export type { ErrorDetail };

/** The status of each kind of domain error. */
const STATUS_BY_KIND: Record<CatalogErrorKind, number> = { badRequest: 400, notFound: 404, conflict: 409 };
/**
 * The errorType of every status the server can send. Error injection (src/app/admin/injection.ts,
 * openapi/admin.yaml: any status 400-599) and `Prefer: code=` (src/http/prefer-code.ts) can
 * produce any of them, so each registered 4xx/5xx status has its own type, and an unregistered one
 * is CLIENT_ERROR or SERVER_ERROR. The same list is the `errorType` enum of the Error schema
 * (openapi/components/common.yaml); errors.test.ts keeps the two equal.
 */
const TYPE_BY_STATUS = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  407: 'PROXY_AUTHENTICATION_REQUIRED',
  408: 'REQUEST_TIMEOUT',
  // The contract's one conflict: a create of a name that exists.
  409: 'ENTITY_ALREADY_EXISTS',
  410: 'GONE',
  411: 'LENGTH_REQUIRED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  417: 'EXPECTATION_FAILED',
  421: 'MISDIRECTED_REQUEST',
  422: 'UNPROCESSABLE_ENTITY',
  423: 'LOCKED',
  424: 'FAILED_DEPENDENCY',
  425: 'TOO_EARLY',
  426: 'UPGRADE_REQUIRED',
  428: 'PRECONDITION_REQUIRED',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  451: 'UNAVAILABLE_FOR_LEGAL_REASONS',
  500: 'INTERNAL_ERROR',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
  505: 'HTTP_VERSION_NOT_SUPPORTED',
  506: 'VARIANT_ALSO_NEGOTIATES',
  507: 'INSUFFICIENT_STORAGE',
  508: 'LOOP_DETECTED',
  510: 'NOT_EXTENDED',
  511: 'NETWORK_AUTHENTICATION_REQUIRED',
} as const satisfies Record<number, string>;

/** Every errorType, in the order of the schema's enum: the registered ones, then the two catch-alls. */
export const ERROR_TYPES = [...Object.values(TYPE_BY_STATUS), 'CLIENT_ERROR', 'SERVER_ERROR'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export function errorTypeOf(status: number): ErrorType {
  return (TYPE_BY_STATUS as Record<number, ErrorType>)[status] ?? (status < 500 ? 'CLIENT_ERROR' : 'SERVER_ERROR');
}

export class ApiError extends Error {
  readonly status: number;
  readonly errorType: ErrorType;
  readonly details: ErrorDetail[] | undefined;

  constructor(status: number, message: string, details?: ErrorDetail[], errorType?: ErrorType) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errorType = errorType ?? errorTypeOf(status);
    this.details = details;
  }

  /** The HTTP form of a domain error; any other ApiError as it is. */
  static from(error: ApiError | CatalogError): ApiError {
    return error instanceof CatalogError ? new ApiError(STATUS_BY_KIND[error.kind], error.message, error.details) : error;
  }

  static badRequest(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(400, message, details);
  }

  /** OpenMetadata's text: `<entityType> instance for <id-or-fqn> not found` (docs/behaviour.md "Errors"). */
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

  /** OpenMetadata's permissionNotAllowed text (docs/behaviour.md "Authentication"). */
  static forbidden(user: string, operation: string): ApiError {
    return new ApiError(403, `Principal: CatalogPrincipal{name='${user}'} operations [${operation}] not allowed`);
  }

  /** A non-recursive delete of a parent with children (docs/behaviour.md "Recursive delete"). */
  static notEmpty(entityType: string): ApiError {
    return new ApiError(400, `${entityType} is not empty`);
  }
}
