/** Data products: a domain's published assets, with their experts (users, by name). */
import { governed } from './shapes.ts';

export const dataProduct = governed('dataProduct', 'dataProducts', 'DataProduct', {
  refFields: { experts: { kinds: ['user'], by: 'name', many: true } },
  relationshipFields: ['experts', 'assets'],
});
