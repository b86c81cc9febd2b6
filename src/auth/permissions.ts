/**
 * Who may do what (docs/behaviour.md "Authentication"): Admin everything; DataSteward create and
 * edit, no delete; DataConsumer read, follow and vote. An operation's permission comes from its
 * `x-permission` in the OpenAPI document, else from its method, so a new operation cannot forget it.
 */
import type { Role } from './tokens.ts';

export type Permission = 'read' | 'edit' | 'delete' | 'social';

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  Admin: new Set(['read', 'edit', 'delete', 'social']),
  DataSteward: new Set(['read', 'edit', 'social']),
  DataConsumer: new Set(['read', 'social']),
};

export function permissionOf(method: string, declared: unknown): Permission {
  if (declared === 'read' || declared === 'edit' || declared === 'delete' || declared === 'social') return declared;
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      return 'read';
    case 'DELETE':
      return 'delete';
    default:
      return 'edit';
  }
}

export function allows(roles: readonly Role[], permission: Permission): boolean {
  return roles.some((role) => GRANTS[role].has(permission));
}

/** OpenMetadata's operation names in 403 messages (docs/behaviour.md "Authentication"). */
export function operationName(method: string, permission: Permission): string {
  if (permission === 'delete') return 'Delete';
  if (permission === 'social') return 'EditFollowers';
  return method.toUpperCase() === 'POST' ? 'Create' : 'EditAll';
}
