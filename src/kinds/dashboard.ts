/** Dashboards of a dashboard service, with the charts they show (named by FQN). */
import { serviceAsset } from './shapes.ts';

export const dashboard = serviceAsset('dashboard', 'dashboards', 'Dashboard', 'dashboardService', {
  refFields: { charts: { kinds: ['chart'], by: 'fqn', many: true } },
  relationshipFields: ['charts', 'usageSummary', 'dataModels'],
});
