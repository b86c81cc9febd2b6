/**
 * Data contracts (docs/behaviour.md "Data contracts"): the terms an entity's data must meet, at
 * most one per entity. Its FQN is `<entity FQN>.dataContract_<name>` (the name not quoted). Its
 * validation results (src/features/data-contracts/data-contracts.ts) go with it (the store drops an entity's side
 * data with it); it cannot outlive its entity.
 */
import type { Entity, EntityReference, Schemas } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { checkRuleLimits, RuleError } from '../features/data-contracts/json-logic.ts';
import { governed } from './shapes.ts';

const targetOf = (contract: Entity) => contract.entity as EntityReference;

export const dataContract = governed('dataContract', 'dataContracts', 'DataContract', {
  refFields: {
    entity: { kinds: ['table', 'topic', 'dashboard', 'container', 'apiEndpoint', 'mlmodel', 'dataProduct', 'pipeline'], by: 'ref' },
    qualityExpectations: { kinds: ['testCase'], by: 'ref', many: true },
    reviewers: { kinds: ['user', 'team'], by: 'ref', many: true },
  },
  relationshipFields: ['reviewers'],
  listFilters: {
    entityStatus: (value) => (e) => e.entityStatus === value,
    entity: (value) => (e) => (e.entity as EntityReference | undefined)?.id === value,
  },
  fqn: (request, entity) => `${targetOf(entity).fullyQualifiedName}.dataContract_${request.name}`,
  // One contract per entity: a second is 400, not 409.
  beforeCreate(entity, ctx) {
    const target = targetOf(entity);
    for (const stored of ctx.store.ofType('dataContract')) {
      if (targetOf(stored.entity).id === target.id && stored.entity.fullyQualifiedName !== entity.fullyQualifiedName) {
        throw CatalogError.badRequest(`A data contract already exists for entity '${target.type}' with ID ${target.id}`);
      }
    }
  },
  // A semantics rule over the limits of its text (docs/behaviour.md "Limits of one request") is refused when stored.
  beforeWrite(entity) {
    for (const [index, rule] of ((entity.semantics as Schemas['SemanticsRule'][] | undefined) ?? []).entries()) {
      if (typeof rule.rule !== 'string') continue;
      try {
        checkRuleLimits(rule.rule);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        throw CatalogError.badRequest(`Semantics rule ${rule.name}: ${error.message}`, [{ path: `semantics.${index}.rule`, message: error.message }]);
      }
    }
  },
  dependentsOf: (removed, ctx) => [...ctx.store.ofType('dataContract')].filter((c) => (c.entity.entity as EntityReference | undefined)?.id === removed.entity.id),
});
