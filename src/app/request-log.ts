/**
 * One log line per request (docs/cli.md `--log`): method, path, status and duration, as readable text
 * (`pretty`), as one JSON object per line (`json`) or not at all (`quiet`). The same hook feeds
 * the admin journal, so the two always agree.
 *
 * It runs on every request (the hot path, docs/performance.md): one `finish` listener, a millisecond clock read
 * (`performance.now()`, no BigInt), and the path cut from the URL only when the request ends.
 */
import type { ServerResponse } from 'node:http';
import type { Journal } from './admin/journal.ts';
import type { Stage } from './node-handler.ts';
import { parseRequestPath, urlOf } from './request-path.ts';

export const LOG_FORMATS = ['quiet', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const STARTED = Symbol('catalog-kit.request-started');
type Timed = ServerResponse & { [STARTED]?: { at: number; time: number; url: string } };

export function requestLog(format: LogFormat, write: (line: string) => void, journal?: Journal): Stage {
  if (format === 'quiet' && !journal) return (_req, _res, next) => next();
  // One listener function for every response (it reads what it needs from the response), so a
  // request allocates no closure for it.
  function onFinish(this: Timed): void {
    const started = this[STARTED];
    if (!started) return;
    const durationMs = Math.round((performance.now() - started.at) * 100) / 100;
    const url = started.url;
    const { path, api } = parseRequestPath(url);
    const entry = { time: started.time, method: this.req.method ?? 'GET', path, status: this.statusCode, durationMs };
    if (api) journal?.add(entry);
    if (format === 'pretty') write(`${entry.method} ${url} ${entry.status} ${durationMs.toFixed(1)}ms`);
    else if (format === 'json') write(JSON.stringify({ ...entry, time: new Date(started.time).toISOString(), url }));
  }
  return (req, res, next) => {
    (res as Timed)[STARTED] = { at: performance.now(), time: Date.now(), url: urlOf(req) };
    res.on('finish', onFinish);
    next();
  };
}
