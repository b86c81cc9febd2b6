/** Charts of a dashboard service. */
import { serviceAsset } from './shapes.ts';

export const chart = serviceAsset('chart', 'charts', 'Chart', 'dashboardService');
