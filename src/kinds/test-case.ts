/**
 * Test cases: a test definition run against an entity or one of its columns, named by an entity
 * link `<#E::<type>::<fqn>[::columns::<column>]>`. Its FQN is `<entity FQN>[.<column>].<name>`;
 * `testCaseResult` is its newest result (src/domain/test-case-results.ts), and its results go with
 * it (the store drops an entity's side data with it). A test case cannot outlive the entity it tests: removed for good with it.
 */
import { CatalogError } from '../domain/errors.ts';
import { parseEntityLink, readEntityLink } from '../domain/entity-link.ts';
import { findLive } from '../domain/references.ts';
import { latestTestCaseResult } from '../domain/test-case-results.ts';
import { addToFqn } from '../resources/fqn.ts';
import { governed } from './shapes.ts';

export const testCase = governed('testCase', 'dataQuality/testCases', 'TestCase', {
  refFields: {
    testDefinition: { kinds: ['testDefinition'], by: 'fqn' },
    testSuite: { kinds: ['testSuite'], by: 'fqn' },
  },
  relationshipFields: ['testCaseResult'],
  // A test case is named under the entity (and column) it tests.
  fqn(request, entity, ctx) {
    const link = parseEntityLink(String(request.entityLink));
    const target = findLive(ctx, [link.type], 'fqn', link.fqn);
    if (link.column !== undefined) {
      const columns = (target.entity.columns as { name: string }[] | undefined) ?? [];
      if (!columns.some((c) => c.name === link.column)) throw CatalogError.badRequest(`Invalid column name ${link.column}`);
    }
    entity.entityFQN = link.column !== undefined ? addToFqn(link.fqn, link.column) : link.fqn;
    return addToFqn(String(entity.entityFQN), request.name);
  },
  extraFields: { testCaseResult: (stored, ctx) => structuredClone(latestTestCaseResult(ctx, stored.entity.id)) },
  dependentsOf(removed, ctx) {
    return [...ctx.store.ofType('testCase')].filter((tc) => {
      const target = readEntityLink(tc.entity.entityLink);
      return target?.type === removed.type && target.fqn === removed.entity.fullyQualifiedName;
    });
  },
});
