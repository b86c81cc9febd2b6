/**
 * Test suites: named groups of test cases (docs/behaviour.md "Data quality"). A logical suite's
 * FQN is its quoted name and its `tests` the test cases added to it (src/features/data-quality/data-quality.ts);
 * a basic suite (`POST /v1/dataQuality/testSuites/basic`) belongs to one table, `<table FQN>.testSuite`,
 * and its `tests` are that table's test cases.
 */
import { testsField } from '../features/data-quality/data-quality.ts';
import { addToFqn, quoteName } from '../core/fqn.ts';
import type { EntityReference } from '../core/entity.ts';
import { governed } from './shapes.ts';

export const testSuite = governed('testSuite', 'dataQuality/testSuites', 'TestSuite', {
  refFields: { basicEntityReference: { kinds: ['table'], by: 'fqn' } },
  relationshipFields: ['tests'],
  fqn(request, entity) {
    const table = entity.basicEntityReference as EntityReference | undefined;
    if (!table) return quoteName(request.name);
    entity.basic = true;
    return addToFqn(table.fullyQualifiedName!, 'testSuite');
  },
  extraFields: { tests: testsField },
});
