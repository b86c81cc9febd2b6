/**
 * Tag asset add and remove (docs/behaviour.md "Tag assets"; OpenMetadata's TagResource
 * `bulkAddTagToAssets` / `bulkRemoveTagFromAssets`, TagRepository): the tag is added as a label to
 * (or removed from) each named entity — a change of that entity, with a new version and an event —
 * and the answer (the shared BulkOperationResult) says, per asset, whether it passed and its status. `dryRun` (OpenMetadata's default: true) only
 * checks.
 */
import { CatalogError } from '../../core/errors.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { EntityReference, Schemas } from '../../core/entity.ts';
import { applyChange } from '../../core/lifecycle.ts';
import { resolveTagLabels } from '../../core/references.ts';
import type { StoredEntity } from '../../core/entity-store.ts';

export type AddTagToAssetsRequest = Schemas['AddTagToAssetsRequest'];
type BulkOperationResult = Schemas['BulkOperationResult'];
type TagLabel = Schemas['TagLabel'];

/** Applies (`add`) or removes the tag's label on each asset; an asset that fails is left as it was. */
export function tagAssets(ctx: CatalogContext, tag: StoredEntity, request: AddTagToAssetsRequest, op: 'add' | 'remove', user: string): BulkOperationResult {
  const dryRun = request.dryRun ?? true;
  const tagFQN = String(tag.entity.fullyQualifiedName);
  const passed: { request: EntityReference; status: number }[] = [];
  const failed: { request: EntityReference; status: number; message: string }[] = [];
  for (const asset of request.assets) {
    try {
      const stored = ctx.store.get(asset.id);
      const kind = stored && ctx.kinds.all.find((k) => k.type === stored.type);
      if (!stored || !kind || stored.type !== asset.type || stored.entity.deleted) throw CatalogError.notFound(asset.type, asset.id);
      if (!ctx.validators.propertyNames(kind.schema).has('tags')) throw CatalogError.badRequest(`Entity type ${asset.type} does not support tags`);
      const current = (stored.entity.tags as TagLabel[] | undefined) ?? [];
      const tags =
        op === 'add'
          ? resolveTagLabels(ctx, [...current, { tagFQN, source: 'Classification', labelType: 'Manual', state: 'Confirmed' }])
          : current.filter((label) => label.tagFQN !== tagFQN);
      if (!dryRun) applyChange(ctx, kind, stored, { ...structuredClone(stored.entity), tags }, user);
      passed.push({ request: asset, status: 200 });
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      failed.push({ request: asset, status: error.kind === 'notFound' ? 404 : error.kind === 'conflict' ? 409 : 400, message: error.message });
    }
  }
  return {
    dryRun,
    status: failed.length === 0 ? 'success' : passed.length === 0 ? 'failure' : 'partialSuccess',
    numberOfRowsProcessed: request.assets.length,
    numberOfRowsPassed: passed.length,
    numberOfRowsFailed: failed.length,
    successRequest: passed,
    failedRequest: failed,
  };
}
