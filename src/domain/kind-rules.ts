/**
 * The few kinds whose FQN or checks are not the generic `<parent>.<name>` ones.
 */
import { CatalogError } from './errors.ts';
import { addToFqn } from '../resources/fqn.ts';
import type { CatalogContext, KindRules } from './context.ts';
import type { EntityReference } from './entity.ts';
import { dropContractResults } from './data-contracts.ts';
import { parseEntityLink } from './entity-link.ts';
import { findLive } from './references.ts';
import { dropTableData } from './table-data.ts';
import { dropTestCaseResults } from './test-case-results.ts';


const testCase: KindRules = {
  // A test case is named under the entity (and column) it tests.
  fqn(request, entity, ctx) {
    const link = parseEntityLink(String(request.entityLink));
    const target = findLive(ctx.store, [link.type], 'fqn', link.fqn);
    if (link.column !== undefined) {
      const columns = (target.entity.columns as { name: string }[] | undefined) ?? [];
      if (!columns.some((c) => c.name === link.column)) throw CatalogError.badRequest(`Invalid column name ${link.column}`);
    }
    entity.entityFQN = link.column !== undefined ? addToFqn(link.fqn, link.column) : link.fqn;
    return addToFqn(String(entity.entityFQN), request.name);
  },
  afterHardDelete: (stored, ctx) => dropTestCaseResults(ctx, stored.entity.id),
};

/** Profiler config, sample data and profiles go with the table (table-data.ts). */
const table: KindRules = {
  afterHardDelete: (stored, ctx) => dropTableData(ctx, stored.entity.id),
};

const dataContract: KindRules = {
  // Observed §6 (newest): `<entityFQN>.dataContract_<name>`, the contract name not quoted.
  fqn(request, entity) {
    const target = entity.entity as EntityReference;
    return `${target.fullyQualifiedName}.dataContract_${request.name}`;
  },
  // Observed §8.1: one contract per entity; a second is 400, not 409.
  beforeCreate(entity, ctx) {
    const target = entity.entity as EntityReference;
    for (const stored of ctx.store.ofType('dataContract')) {
      if ((stored.entity.entity as EntityReference).id === target.id && stored.entity.fullyQualifiedName !== entity.fullyQualifiedName) {
        throw CatalogError.badRequest(`A data contract already exists for entity '${target.type}' with ID ${target.id}`);
      }
    }
  },
  // data-contracts.yaml: a hard-deleted contract's validation results go with it.
  afterHardDelete: (stored, ctx) => dropContractResults(ctx, stored.entity.id),
};

/** Observed §10: a system classification (or tag) cannot be deleted. */
const systemProtected = (type: string): KindRules => ({
  beforeDelete(stored) {
    if (stored.entity.provider === 'system') throw CatalogError.badRequest(`System entity [${stored.entity.name}] of type ${type} can not be deleted.`);
  },
});

export function defaultKindRules(): Map<string, KindRules> {
  return new Map<string, KindRules>([
    ['table', table],
    ['testCase', testCase],
    ['dataContract', dataContract],
    ['classification', systemProtected('classification')],
    ['tag', systemProtected('tag')],
  ]);
}

export type { CatalogContext };
