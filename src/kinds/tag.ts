/**
 * Tags of a classification, possibly nested under another tag (`<classification>.<tag>[.<tag>]`),
 * applied to entities and columns as labels with source `Classification` (docs/behaviour.md
 * "Classifications and tags"): a disabled tag (or one of a disabled classification) cannot be
 * applied, and at most one tag of a mutually exclusive classification. When a tag is removed for
 * good its labels leave the entities that carried them. A system tag cannot be deleted.
 */
import { CatalogError } from '../core/errors.ts';
import type { CatalogContext, ListFilter } from '../core/context.ts';
import type { EntityReference } from '../core/entity.ts';
import type { StoredEntity } from '../core/entity-store.ts';
import { governed } from './shapes.ts';

/** A system classification or tag (`provider: system`) cannot be deleted (400). */
export function refuseSystemDelete(stored: StoredEntity): void {
  if (stored.entity.provider === 'system') throw CatalogError.badRequest(`System entity [${stored.entity.name}] of type ${stored.type} can not be deleted.`);
}

/** `?disabled=true|false`: only the disabled ones, or only the others. */
export const DISABLED_FILTER: ListFilter = (value) => (e) => (e.disabled === true) === (String(value) === 'true');

export const tag = governed('tag', 'tags', 'Tag', {
  parents: [{ field: 'parent', inherit: ['classification'] }, { field: 'classification' }],
  refFields: { classification: { kinds: ['classification'], by: 'fqn' }, parent: { kinds: ['tag'], by: 'fqn' } },
  relationshipFields: ['children', 'usageCount'],
  childFields: { children: 'tag' },
  prefixFilters: ['parent'],
  listFilters: { disabled: DISABLED_FILTER },
  defaults: { mutuallyExclusive: false, provider: 'user', disabled: false },
  immutableFields: ['mutuallyExclusive'],
  beforeDelete: refuseSystemDelete,
  labelSource: 'Classification',
  asLabel(stored: StoredEntity, ctx: CatalogContext) {
    const ref = stored.entity.classification as EntityReference | undefined;
    const classification = ref ? ctx.store.get(ref.id)?.entity : undefined;
    if (stored.entity.disabled === true || classification?.disabled === true) {
      throw CatalogError.badRequest(`Tag label ${stored.entity.fullyQualifiedName} is disabled and can't be assigned to a data asset.`);
    }
    return classification?.mutuallyExclusive === true ? { exclusiveGroup: classification.id } : {};
  },
});
