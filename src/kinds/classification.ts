/**
 * Classifications: the groups tags belong to (docs/behaviour.md "Classifications and tags").
 * `mutuallyExclusive` is fixed at creation; a system classification cannot be deleted.
 */
import type { Kind } from '../core/context.ts';
import { governed } from './shapes.ts';
import { DISABLED_FILTER, refuseSystemDelete } from './tag.ts';

const row = governed('classification', 'classifications', 'Classification', {
  relationshipFields: ['usageCount', 'termCount'],
  // The interface's classification has no tags, domains or data products (docs/behaviour.md "Classifications and tags").
  emptyArrays: ['owners'],
  defaults: { mutuallyExclusive: false, provider: 'user', disabled: false },
  immutableFields: ['mutuallyExclusive'],
  listFilters: { disabled: DISABLED_FILTER },
  beforeDelete: refuseSystemDelete,
});

export const classification: Kind = { ...row, relationshipFields: row.relationshipFields.filter((f) => f !== 'domains' && f !== 'dataProducts') };
