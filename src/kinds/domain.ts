/** Domains: the business areas entities are assigned to, with their experts (users, by name). */
import { governed } from './shapes.ts';

export const domain = governed('domain', 'domains', 'Domain', {
  refFields: { experts: { kinds: ['user'], by: 'name', many: true } },
  relationshipFields: ['experts'],
});
