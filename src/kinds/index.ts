/**
 * The one list of the entity kinds the server serves: one line per kind (each kind's module is
 * its row and its hooks, `Kind` in src/core/context.ts). The catalog context holds them (src/app/app.ts); their
 * generic routes are mounted in this order. docs/adding-a-kind.md says how to add one.
 */
import { announcement } from './announcement.ts';
import { apiCollection } from './api-collection.ts';
import { apiEndpoint } from './api-endpoint.ts';
import { apiService } from './api-service.ts';
import { bot } from './bot.ts';
import { chart } from './chart.ts';
import { classification } from './classification.ts';
import { container } from './container.ts';
import { dashboard } from './dashboard.ts';
import { dashboardService } from './dashboard-service.ts';
import { dashboardDataModel } from './dashboard-data-model.ts';
import { dataContract } from './data-contract.ts';
import { dataProduct } from './data-product.ts';
import { database } from './database.ts';
import { databaseSchema } from './database-schema.ts';
import { databaseService } from './database-service.ts';
import { domain } from './domain.ts';
import { eventSubscription } from './event-subscription.ts';
import type { Kind } from '../core/context.ts';
import { messagingService } from './messaging-service.ts';
import { mlmodel } from './mlmodel.ts';
import { mlmodelService } from './mlmodel-service.ts';
import { pipeline } from './pipeline.ts';
import { pipelineService } from './pipeline-service.ts';
import { storageService } from './storage-service.ts';
import { table } from './table.ts';
import { tag } from './tag.ts';
import { task } from './task.ts';
import { team } from './team.ts';
import { testCase } from './test-case.ts';
import { testDefinition } from './test-definition.ts';
import { testSuite } from './test-suite.ts';
import { topic } from './topic.ts';
import { user } from './user.ts';

export const KINDS: readonly Kind[] = [
  storageService,
  mlmodelService,
  dashboardService,
  databaseService,
  messagingService,
  pipelineService,
  apiService,
  container,
  dashboard,
  chart,
  dashboardDataModel,
  database,
  databaseSchema,
  table,
  topic,
  pipeline,
  apiCollection,
  apiEndpoint,
  mlmodel,
  classification,
  tag,
  user,
  team,
  domain,
  dataProduct,
  testDefinition,
  testSuite,
  testCase,
  dataContract,
  eventSubscription,
  task,
  announcement,
  bot,
];
