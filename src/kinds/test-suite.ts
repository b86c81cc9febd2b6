/** Test suites: named groups of test cases. */
import { governed } from './shapes.ts';

export const testSuite = governed('testSuite', 'dataQuality/testSuites', 'TestSuite', { relationshipFields: ['tests'] });
