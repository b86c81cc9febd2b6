/**
 * `POST /v1/dataContracts/validate` (docs/behaviour.md "Data contracts"; OpenMetadata's
 * `DataContractResource.validateContractRequest`): a create request checked as a create would
 * check it, without storing anything. What the create would refuse is reported rather than thrown:
 * entities that are not there (`entityErrors`), rules the request breaks (`constraintErrors`), and
 * the contract's columns the entity lacks or types differently (`schemaValidation`).
 */
import type { CatalogContext } from '../../core/context.ts';
import { schemaBlock } from './contract-validation.ts';
import type { CreateRequest, Entity, EntityReference, Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { findLive, resolveTagLabels } from '../../core/references.ts';
import type { StoredEntity } from '../../core/entity-store.ts';

export type ContractValidation = Schemas['ContractValidation'];

/** Checks a data contract create request against the store; changes nothing. */
export function checkContractRequest(ctx: CatalogContext, request: CreateRequest): ContractValidation {
  const kind = ctx.kinds.of('dataContract');
  const entityErrors: string[] = [];
  const constraintErrors: string[] = [];
  // Runs one check; a refusal becomes an entity error (not found) or a constraint error (anything else).
  const attempt = <T>(check: () => T): T | undefined => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      (error.kind === 'notFound' ? entityErrors : constraintErrors).push(error.message);
      return undefined;
    }
  };
  const refFields = kind.refFields ?? {};
  const target = attempt(() => findLive(ctx, refFields.entity!.kinds, 'ref', request.entity));
  for (const field of ['qualityExpectations', 'reviewers'] as const) {
    for (const ref of (request[field] as EntityReference[] | undefined) ?? []) attempt(() => findLive(ctx, refFields[field]!.kinds, 'ref', ref));
  }
  if (Array.isArray(request.tags)) attempt(() => resolveTagLabels(ctx, request.tags as never));
  if (target) attempt(() => oneContractPerEntity(ctx, target, request.name));
  const schemaValidation = target ? schemaBlock(request as unknown as Entity, target.entity) : undefined;
  const valid = entityErrors.length === 0 && constraintErrors.length === 0 && (schemaValidation?.failed ?? 0) === 0;
  return { valid, entityErrors, constraintErrors, ...(schemaValidation ? { schemaValidation } : {}) };
}

/** The create rule (src/kinds/data-contract.ts `beforeCreate`): another contract of the entity is refused; its own one (same name) is not. */
function oneContractPerEntity(ctx: CatalogContext, target: StoredEntity, name: string): void {
  for (const stored of ctx.store.ofType('dataContract')) {
    if ((stored.entity.entity as EntityReference).id === target.entity.id && stored.entity.name !== name) {
      throw CatalogError.badRequest(`A data contract already exists for entity '${target.type}' with ID ${target.entity.id}`);
    }
  }
}
