/**
 * Dashboards of a dashboard service, with the charts they show (named by FQN). A new dashboard
 * starts with `charts: []`, like the other empty arrays (interface specification, "Dashboard": the
 * response adds `charts`).
 */
import type { Kind } from '../core/context.ts';
import { namesBelow } from '../features/lineage/children.ts';
import { serviceAsset } from './shapes.ts';

const asset = serviceAsset('dashboard', 'dashboards', 'Dashboard', 'dashboardService', {
  refFields: { charts: { kinds: ['chart'], by: 'fqn', many: true } },
  relationshipFields: ['charts', 'usageSummary', 'dataModels'],
  lineageChildren: (entity) =>
    namesBelow(
      entity.fullyQualifiedName,
      ((entity.charts as { fullyQualifiedName?: string }[] | undefined) ?? []).map((c) => c.fullyQualifiedName),
    ),
});

export const dashboard: Kind = { ...asset, emptyArrays: [...asset.emptyArrays, 'charts'] };
