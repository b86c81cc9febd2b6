/**
 * One log line per request (issue 6 "Logs"): method, path, status and duration, as readable text
 * (`pretty`), as one JSON object per line (`json`) or not at all (`quiet`). The same hook feeds
 * the admin journal, so the two always agree.
 */
import type { RequestHandler } from 'express';
import type { Journal } from '../admin/journal.ts';

export const LOG_FORMATS = ['quiet', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function requestLog(format: LogFormat, write: (line: string) => void, journal?: Journal): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const time = Date.now();
    // originalUrl: the path as the client sent it, before any router stripped a mount point.
    const path = req.originalUrl.split('?')[0] ?? req.originalUrl;
    res.once('finish', () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const entry = { time, method: req.method, path, status: res.statusCode, durationMs };
      if (path.startsWith('/api/')) journal?.add(entry);
      if (format === 'pretty') write(`${entry.method} ${req.originalUrl} ${entry.status} ${durationMs.toFixed(1)}ms`);
      else if (format === 'json') write(JSON.stringify({ ...entry, time: new Date(time).toISOString(), url: req.originalUrl }));
    });
    next();
  };
}
