/**
 * Data models of a dashboard service (docs/behaviour.md "Dashboard data models"; OpenMetadata's
 * DashboardDataModelResource): the columns its dashboards and charts are built on. Its FQN is
 * `<service>.model.<name>`; a removed or retyped column is a major version change, as for tables.
 */
import type { EntityReference } from '../core/entity.ts';
import { addToFqn } from '../core/fqn.ts';
import { serviceAsset } from './shapes.ts';

export const dashboardDataModel = serviceAsset('dashboardDataModel', 'dashboard/datamodels', 'DashboardDataModel', 'dashboardService', {
  majorFields: ['columns'],
  fqn: (request, entity) => addToFqn(addToFqn((entity.service as EntityReference).fullyQualifiedName!, 'model'), request.name),
  columnsAt: [['columns']],
});
