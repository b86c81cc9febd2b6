/** Authorisation by role, after request validation (the dispatcher, src/http/dispatcher.ts; contract "Authentication" 3). */
import { allows, operationName, permissionOf } from '../auth/permissions.ts';
import { ApiError } from './errors.ts';
import type { ApiRequest } from './exchange.ts';
import { identityOf } from './exchange.ts';

export function authorize(req: ApiRequest): void {
  const permission = permissionOf(req.method, req.operation?.entry.permission);
  const identity = identityOf(req);
  if (!allows(identity.roles, permission)) throw ApiError.forbidden(identity.user, operationName(req.method, permission));
}
