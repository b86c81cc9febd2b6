/** Authorisation by role after request validation (DESIGN.md pipeline; contract "Authentication" 3). */
import type { RequestHandler } from 'express';
import { allows, operationName, permissionOf } from '../auth/permissions.ts';
import { identityOf } from './authenticate.ts';
import { ApiError } from './errors.ts';

export function authorize(): RequestHandler {
  return (req, res, next) => {
    const operation = (req as { openapi?: { schema?: Record<string, unknown> } }).openapi?.schema;
    const permission = permissionOf(req.method, operation?.['x-permission']);
    const identity = identityOf(res);
    if (!allows(identity.roles, permission)) return next(ApiError.forbidden(identity.user, operationName(req.method, permission)));
    next();
  };
}
