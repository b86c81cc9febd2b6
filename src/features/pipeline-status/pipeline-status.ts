/**
 * Runs of a pipeline (docs/behaviour.md "Pipeline status"; OpenMetadata's PipelineResource and
 * PipelineRepository `addPipelineStatus`, `getPipelineStatuses`, `deletePipelineStatus`): a time
 * series kept beside the pipeline (a src/core/side-data.ts area), the newest shown as its
 * `pipelineStatus` field; adding a run does not change the pipeline's version.
 */
import { CatalogError } from '../../core/errors.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Paging, Schemas } from '../../core/entity.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideSeries } from '../../core/side-data.ts';
import { checkMillis } from '../table-data/table-data.ts';
import { timeRange, upsertByTimestamp } from '../../core/time-series.ts';
import type { TimeRange } from '../../core/time-series.ts';

export type PipelineStatus = Schemas['PipelineStatus'];

const RUNS = sideSeries<PipelineStatus>({ group: 'pipelineStatus', owner: 'pipeline', schema: 'PipelineStatus' });

export function latestPipelineStatus(ctx: CatalogContext, pipelineId: string): PipelineStatus | undefined {
  return structuredClone(ctx.store.getSide(RUNS, pipelineId)?.at(-1));
}

/** Stores the run, replacing one with the same timestamp; each task must be a task of the pipeline (400 `Invalid task name <t>`). */
export function addPipelineStatus(ctx: CatalogContext, pipeline: StoredEntity, status: PipelineStatus): void {
  checkMillis(status.timestamp);
  const tasks = new Set(((pipeline.entity.tasks as { name: string }[] | undefined) ?? []).map((t) => t.name));
  for (const task of status.taskStatus ?? []) if (!tasks.has(task.name)) throw CatalogError.badRequest(`Invalid task name ${task.name}`);
  const runs = [...(ctx.store.getSide(RUNS, pipeline.entity.id) ?? [])];
  upsertByTimestamp(runs, structuredClone(status), () => true);
  ctx.store.setSide(RUNS, pipeline.entity.id, runs);
}

export function pipelineStatuses(ctx: CatalogContext, pipelineId: string, range: TimeRange): { data: PipelineStatus[]; paging: Paging } {
  return timeRange(ctx.store.getSide(RUNS, pipelineId) ?? [], range);
}

/** Removes the run at `timestamp`; 404 when there is none. */
export function deletePipelineStatus(ctx: CatalogContext, pipeline: StoredEntity, timestamp: number): void {
  const runs = ctx.store.getSide(RUNS, pipeline.entity.id) ?? [];
  const kept = runs.filter((r) => r.timestamp !== timestamp);
  if (kept.length === runs.length) throw new CatalogError('notFound', `pipelineStatus instance for ${String(pipeline.entity.fullyQualifiedName)} at ${timestamp} not found`);
  ctx.store.setSide(RUNS, pipeline.entity.id, kept.length ? kept : undefined);
}
