/** Test definitions: the kinds of data quality test a test case runs. */
import { governed } from './shapes.ts';

export const testDefinition = governed('testDefinition', 'dataQuality/testDefinitions', 'TestDefinition');
