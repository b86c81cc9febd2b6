/**
 * The asynchronous CSV jobs (docs/behaviour.md "CSV import and export"; OpenMetadata 2.0's
 * `/v1/csvAsyncJobs`, `CsvAsyncJobResource` and `CsvAsyncJobManager`): each `exportAsync` and
 * `importAsync` is a job, answered with its id, whose status, log and result are read afterwards.
 * The work is done when it is asked, so a job is complete when its id is answered. Jobs live in
 * the store (side data `csvAsyncJobs`), bounded like the events.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { SideData } from '../../core/side-data.ts';
import { NO_ENTITY, sideValue } from '../../core/side-data.ts';
import { trimOldest } from '../../core/bounded.ts';

export type CsvAsyncJob = Schemas['CsvAsyncJob'];
type Operation = CsvAsyncJob['operation'];

export const CSV_JOBS: SideData<CsvAsyncJob> = sideValue<CsvAsyncJob>({ group: 'csvAsyncJobs', owner: NO_ENTITY, schema: 'CsvAsyncJob' });

/** OpenMetadata's words for each step of a job (`CsvAsyncJobManager.createJob`, `CsvImportExportJobHandler`). */
const WORD: Record<Operation, string> = { IMPORT: 'Import', EXPORT: 'Export' };

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

/** What a job's work gives: an export's CSV, or an import's result. */
export type JobOutcome = { csv: string } | { imported: Schemas['CsvImportResult'] };

/**
 * Runs `work` as a job and keeps the job with its outcome and log (queued, started, completed, as
 * OpenMetadata logs them); answers the job. A refused job (an unknown FQN, a body that is no CSV)
 * is the request's error and keeps nothing.
 */
export async function runJob(
  ctx: CatalogContext,
  job: Pick<CsvAsyncJob, 'operation' | 'entityType' | 'targetFqn' | 'createdBy' | 'dryRun'>,
  work: () => Promise<JobOutcome> | JobOutcome,
): Promise<{ job: CsvAsyncJob; outcome: JobOutcome }> {
  const outcome = await work();
  const jobId = nextJobId(ctx);
  const now = ctx.now();
  const word = WORD[job.operation];
  const log = (message: string) => ({ logId: ctx.newId(), jobId, createdAt: now, level: 'INFO' as const, message });
  const rows = 'imported' in outcome ? (outcome.imported.numberOfRowsProcessed ?? 0) : undefined;
  const kept: CsvAsyncJob = {
    jobId,
    ...job,
    recursive: false,
    status: 'COMPLETED',
    ...(rows === undefined ? {} : { progress: rows, total: rows }),
    result: 'csv' in outcome ? outcome.csv : JSON.stringify(outcome.imported),
    message: `${word} completed.`,
    cancelRequested: false,
    createdAt: now,
    updatedAt: now,
    completedAt: now,
    logs: [log(`${word} queued.`), log(`${word} started.`), log(`${word} completed.`)],
  };
  ctx.store.setSide(CSV_JOBS, jobId, kept);
  trimOldest(ctx, CSV_JOBS, ctx.events.max);
  return { job: kept, outcome };
}

/** The job, or 404 `CSV job not found: <id>` (OpenMetadata's text). */
export function jobNamed(ctx: CatalogContext, jobId: string): CsvAsyncJob {
  const job = ctx.store.getSide(CSV_JOBS, jobId);
  if (!job) throw new CatalogError('notFound', `CSV job not found: ${jobId}`);
  return job;
}

/** The reader's own jobs, newest first, at most `limit` (taken into 1..100, as OpenMetadata does); an export's CSV left out. */
export function listJobs(ctx: CatalogContext, user: string, limit: number): CsvAsyncJob[] {
  const own: CsvAsyncJob[] = [];
  for (const [, job] of ctx.store.sideValuesOf(CSV_JOBS)) if (job.createdBy === user) own.push(job);
  own.sort((a, b) => Number(b.jobId) - Number(a.jobId));
  return own.slice(0, Math.min(Math.max(limit, 1), 100)).map((job) => (job.operation === 'EXPORT' ? withoutResult(job) : job));
}

function withoutResult(job: CsvAsyncJob): CsvAsyncJob {
  const { result: _result, ...rest } = job;
  return rest;
}

/** A completed export's CSV; any other job is 400, as OpenMetadata's `/result`. */
export function exportedCsv(job: CsvAsyncJob): string {
  if (job.operation !== 'EXPORT' || job.status !== 'COMPLETED') {
    throw CatalogError.badRequest(`CSV job ${job.jobId} is not a completed export; it has no downloadable result.`);
  }
  return job.result ?? '';
}
