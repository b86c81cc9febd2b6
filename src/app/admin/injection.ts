/**
 * Latency and error injection (openapi/admin.yaml, docs/ui-work.md "Admin API"), configured through
 * `/__admin/latency` and `/__admin/errors`. A rule applies to the requests whose path matches its
 * `route` glob (no route = every `/api` call) and, when given, whose method matches. The first
 * matching rule wins.
 *
 * Globs are picomatch's, with the documented meaning of `*`: any characters, `/` included, so
 * `/api/v1/tables*` covers every table call. picomatch's own `*` stops at `/`; its `bash` option
 * makes a single `*` match across segments, and `dot` lets it match a segment that starts with a
 * dot. The rest of picomatch's syntax (`?`, `[abc]`, `{a,b}`, `!(…)`) works as picomatch documents.
 */
import picomatch from 'picomatch';
import { ApiError } from '../../http/errors.ts';
import type { ApiRequest } from '../../http/exchange.ts';

interface RouteMatch {
  route?: string;
  method?: string;
}
export interface LatencyRule extends RouteMatch {
  /** A fixed delay, or the lower bound of a random one when `maxMs` is given. */
  ms: number;
  maxMs?: number;
}
export interface ErrorRule extends RouteMatch {
  status: number;
  /** Chance that a matching request fails, 0..1 (default 1). */
  probability?: number;
  message?: string;
}

export class FaultSettings {
  latency: LatencyRule[] = [];
  errors: ErrorRule[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  clear(): void {
    this.latency = [];
    this.errors = [];
  }

  delayFor(method: string, path: string): number {
    const rule = this.latency.find((r) => matches(r, method, path));
    if (!rule) return 0;
    return rule.maxMs === undefined || rule.maxMs <= rule.ms ? rule.ms : rule.ms + Math.floor(this.random() * (rule.maxMs - rule.ms + 1));
  }

  errorFor(method: string, path: string): ErrorRule | undefined {
    const rule = this.errors.find((r) => matches(r, method, path));
    if (!rule) return undefined;
    return this.random() < (rule.probability ?? 1) ? rule : undefined;
  }
}

const GLOB_OPTIONS: picomatch.PicomatchOptions = { bash: true, dot: true };
/** Each rule's compiled glob, made on its first request (a PUT replaces the rules, so the old ones go). */
const globs = new WeakMap<RouteMatch, picomatch.Matcher>();

function matches(rule: RouteMatch, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (!rule.route) return true;
  let glob = globs.get(rule);
  if (!glob) globs.set(rule, (glob = picomatch(rule.route, GLOB_OPTIONS)));
  return glob(path);
}

/** Applies the settings to an `/api` request: wait, then maybe fail in the error shape (throws the ApiError). */
export function injectFaults(settings: FaultSettings): (req: ApiRequest) => void | Promise<void> {
  return (req) => {
    // No rules (the usual case): nothing to compute on this request.
    if (settings.latency.length === 0 && settings.errors.length === 0) return;
    const { method, path } = req;
    const fail = () => {
      const rule = settings.errorFor(method, path);
      if (rule) throw new ApiError(rule.status, rule.message ?? `Injected fault: ${rule.status} for ${method} ${path}`);
    };
    const delay = settings.delayFor(method, path);
    if (delay > 0) return new Promise<void>((resolve) => setTimeout(resolve, delay)).then(fail);
    fail();
  };
}
