/** Authorisation by role, after request validation (the pipeline in src/app.ts; contract "Authentication" 3). */
import type { RequestHandler } from 'express';
import { allows, operationName, permissionOf } from '../auth/permissions.ts';
import { identityOf } from './authenticate.ts';
import { ApiError } from './errors.ts';
import { operationOf } from './operation-routes.ts';

export function authorize(): RequestHandler {
  return (req, res, next) => {
    const permission = permissionOf(req.method, operationOf(res)?.entry.permission);
    const identity = identityOf(res);
    if (!allows(identity.roles, permission)) return next(ApiError.forbidden(identity.user, operationName(req.method, permission)));
    next();
  };
}
