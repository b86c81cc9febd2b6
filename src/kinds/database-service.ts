/** Database services: the root of their assets, FQN = name (docs/behaviour.md "Services"). */
import { service } from './shapes.ts';

export const databaseService = service('databaseService', 'databaseServices', 'DatabaseService');
