/**
 * Sample data of containers and topics (docs/behaviour.md "Container and topic sample data";
 * OpenMetadata's ContainerResource and TopicResource `/{id}/sampleData`): one value kept beside the
 * entity (a src/core/side-data.ts area), shown as its `sampleData` field, dropped with it; writing
 * it does not change the entity's version. A container's sample columns must be columns of its
 * data model.
 */
import { CatalogError } from '../../core/errors.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, Schemas } from '../../core/entity.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideValue } from '../../core/side-data.ts';

type TableData = Schemas['TableData'];
export type TopicSampleData = Schemas['TopicSampleData'];

const CONTAINER_SAMPLE = sideValue<TableData>({ group: 'containerSampleData', owner: 'container', schema: 'TableData' });
const TOPIC_SAMPLE = sideValue<TopicSampleData>({ group: 'topicSampleData', owner: 'topic', schema: 'TopicSampleData' });

export function containerSampleDataOf(ctx: CatalogContext, id: string): TableData | undefined {
  return copyOf(ctx.store.getSide(CONTAINER_SAMPLE, id));
}

export function topicSampleDataOf(ctx: CatalogContext, id: string): TopicSampleData | undefined {
  return copyOf(ctx.store.getSide(TOPIC_SAMPLE, id));
}

/** A copy for an answer to hold; most entities have none (`structuredClone(undefined)` costs ≈ 1% of a container's GET). */
function copyOf<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}

function dataModelColumns(container: Entity): string[] {
  const columns = (container.dataModel as { columns?: { name: string }[] } | undefined)?.columns ?? [];
  return columns.map((c) => c.name);
}

/**
 * `PUT /v1/containers/{id}/sampleData`: each column a column of the data model (400 `Invalid column
 * name <c>`), each row as long as the columns (OpenMetadata's text); replaces what was there.
 */
export function setContainerSampleData(ctx: CatalogContext, container: StoredEntity, data: TableData): void {
  const known = new Set(dataModelColumns(container.entity));
  for (const name of data.columns) if (!known.has(name)) throw CatalogError.badRequest(`Invalid column name ${name}`);
  for (const row of data.rows) {
    if (row.length !== data.columns.length) throw CatalogError.badRequest(`Number of columns is ${data.columns.length} but row has ${row.length} sample values`);
  }
  ctx.store.setSide(CONTAINER_SAMPLE, container.entity.id, structuredClone(data));
}

export function deleteContainerSampleData(ctx: CatalogContext, id: string): void {
  ctx.store.setSide(CONTAINER_SAMPLE, id, undefined);
}

/** `PUT /v1/topics/{id}/sampleData`: replaces the messages. */
export function setTopicSampleData(ctx: CatalogContext, topic: StoredEntity, data: TopicSampleData): void {
  ctx.store.setSide(TOPIC_SAMPLE, topic.entity.id, structuredClone(data));
}

export function deleteTopicSampleData(ctx: CatalogContext, id: string): void {
  ctx.store.setSide(TOPIC_SAMPLE, id, undefined);
}
