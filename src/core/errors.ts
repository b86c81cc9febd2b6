/**
 * The errors the catalog raises, free of HTTP: a request the catalog refuses (bad request), an
 * entity it does not hold (not found), a name already taken (conflict). The HTTP layer maps each
 * kind to its status in one place (src/http/errors.ts, `ApiError.from`), and renders it in one
 * place (src/http/render-error.ts).
 */

import type { ErrorDetail } from '../openapi/validation-details.ts';

export type { ErrorDetail };

export type CatalogErrorKind = 'badRequest' | 'notFound' | 'conflict';

export class CatalogError extends Error {
  readonly kind: CatalogErrorKind;
  readonly details: ErrorDetail[] | undefined;

  constructor(kind: CatalogErrorKind, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = 'CatalogError';
    this.kind = kind;
    this.details = details;
  }

  static badRequest(message: string, details?: ErrorDetail[]): CatalogError {
    return new CatalogError('badRequest', message, details);
  }

  /** OpenMetadata's text: `<entityType> instance for <id-or-fqn> not found` (docs/behaviour.md "Errors"). */
  static notFound(entityType: string, idOrFqn: string): CatalogError {
    return new CatalogError('notFound', `${entityType} instance for ${idOrFqn} not found`);
  }

  /** A create of a name that exists; OpenMetadata's text `Entity already exists`. */
  static alreadyExists(): CatalogError {
    return new CatalogError('conflict', 'Entity already exists');
  }

  /** A non-recursive delete of a container that still has children (docs/behaviour.md "Delete"). */
  static notEmpty(entityType: string): CatalogError {
    return new CatalogError('badRequest', `${entityType} is not empty`);
  }
}
