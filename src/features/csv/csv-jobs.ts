/**
 * The asynchronous CSV jobs (docs/behaviour.md "CSV import and export"; OpenMetadata 2.0's
 * `/v1/csvAsyncJobs`): each `exportAsync` and `importAsync` is a job, answered with its id, whose
 * status and result are read afterwards. The work is done when it is asked, so a job is complete
 * when its id is answered. Jobs live in the store (side data `csvAsyncJobs`), bounded like the events.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { SideData } from '../../core/side-data.ts';
import { NO_ENTITY, sideValue } from '../../core/side-data.ts';
import { trimOldest } from '../../core/bounded.ts';

export type CsvAsyncJob = Schemas['CsvAsyncJob'];

export const CSV_JOBS: SideData<CsvAsyncJob> = sideValue<CsvAsyncJob>({ group: 'csvAsyncJobs', owner: NO_ENTITY, schema: 'CsvAsyncJob' });

/**
 * The next job's id: one more than the highest kept, as OpenMetadata 2.0 numbers its background
 * jobs (`CsvJobId` in openapi/schemas/csv-jobs.yaml). Read from the store, so an imported state or
 * a reset goes on from what it holds; trimming drops the oldest, so the numbers keep rising.
 */
function nextJobId(ctx: CatalogContext): string {
  let highest = 0;
  for (const [, job] of ctx.store.sideValuesOf(CSV_JOBS)) highest = Math.max(highest, Number(job.jobId) || 0);
  return String(highest + 1);
}

/** Runs `work` as a job of `type` and keeps the job with its outcome; answers the job (a failure is kept, then thrown). */
export async function runJob(
  ctx: CatalogContext,
  job: Pick<CsvAsyncJob, 'jobType' | 'entityType' | 'entityFullyQualifiedName' | 'createdBy' | 'dryRun'>,
  work: () => Promise<Pick<CsvAsyncJob, 'data' | 'result'>> | Pick<CsvAsyncJob, 'data' | 'result'>,
): Promise<CsvAsyncJob> {
  const base: CsvAsyncJob = { jobId: nextJobId(ctx), status: 'RUNNING', createdAt: ctx.now(), ...job };
  const keep = (value: CsvAsyncJob): CsvAsyncJob => {
    ctx.store.setSide(CSV_JOBS, value.jobId, value);
    trimOldest(ctx, CSV_JOBS, ctx.events.max);
    return value;
  };
  // A refused job (an unknown FQN, a body that is no CSV) is the request's error and keeps nothing.
  const outcome = await work();
  const importStatus = outcome.result?.status;
  return keep({ ...base, ...outcome, status: 'COMPLETED', completedAt: ctx.now(), ...(importStatus ? { importStatus } : {}) });
}

/** A job as the lists and the job read show it: without its CSV and result. */
export function summaryOf(job: CsvAsyncJob): CsvAsyncJob {
  const { data: _data, result: _result, ...summary } = job;
  return summary;
}

export function jobNamed(ctx: CatalogContext, jobId: string): CsvAsyncJob {
  const job = ctx.store.getSide(CSV_JOBS, jobId);
  if (!job) throw new CatalogError('notFound', `CSV job ${jobId} not found`);
  return job;
}

/** The jobs, newest first. */
export function listJobs(ctx: CatalogContext, filter: { jobType?: string | undefined; status?: string | undefined }): CsvAsyncJob[] {
  const out: CsvAsyncJob[] = [];
  for (const [, job] of ctx.store.sideValuesOf(CSV_JOBS)) {
    if ((filter.jobType === undefined || job.jobType === filter.jobType) && (filter.status === undefined || job.status === filter.status)) out.push(job);
  }
  return out.sort((a, b) => Number(b.jobId) - Number(a.jobId));
}

/** A job that is no longer running cannot be cancelled. */
export function cancelJob(ctx: CatalogContext, jobId: string): CsvAsyncJob {
  const job = jobNamed(ctx, jobId);
  if (job.status !== 'RUNNING') throw CatalogError.badRequest(`Job ${jobId} is already ${job.status}`);
  const cancelled = { ...job, status: 'CANCELLED' as const, completedAt: ctx.now() };
  ctx.store.setSide(CSV_JOBS, jobId, cancelled);
  return cancelled;
}
