/**
 * The coverage of a run: which documented operations it exercised, with which statuses, and which
 * rules checked a response of each (the rules checked on every response, the document's and the
 * meaning of the system fields, do not count: an operation counts as checked only when a rule
 * about what it does looked at its answer). The target is every operation the document has for
 * the kinds the interface specification names (its "Create, upsert and bulk upsert" table, data
 * contracts, the table profiler and sample data, followers and votes: docs/behaviour.md "Sources").
 */
import type { Tally } from './checker.ts';
import type { ApiDocument } from './document.ts';
import type { ProfileExpectations } from './profiles.ts';

/** The collections of the kinds the interface names; every operation under them is in the target. */
const INTERFACE_COLLECTIONS = [
  '/v1/services/storageServices',
  '/v1/services/mlmodelServices',
  '/v1/containers',
  '/v1/dashboards',
  '/v1/databases',
  '/v1/classifications',
  '/v1/dataContracts',
] as const;

/** The table operations the interface names: profiler configuration, profiles, sample data, followers, votes. */
const TABLE_SUBRESOURCES = /^\/v1\/tables\/\{[^}/]+\}\/(profilerConfig|tableProfilerConfig|sampleData|tableProfile|columnProfile|systemProfile|followers|vote)(\/|$)/;

interface OperationCoverage {
  key: string;
  operationId?: string;
  /** One of the operations of the interface's kinds. */
  interface: boolean;
  /** Why the profile does not expect the target to serve it (then it is not counted). */
  notExpected?: string;
  /** Responses by status. */
  statuses: Record<string, number>;
  /** Rule id → passing checks that looked at a response of it. */
  checkedBy: Record<string, number>;
}

export interface CoverageSummary {
  /** What the operations come from. */
  document: string;
  /** The interface's kinds: operations expected in this profile, exercised, and checked by a rule. */
  interface: { operations: number; exercised: number; checked: number; percent: number; missing: string[] };
  /** Every operation of the document. */
  all: { operations: number; exercised: number; checked: number };
  /** `--min-coverage`, when given, and whether the interface's percentage reached it. */
  minimum?: { percent: number; met: boolean };
  /** Every operation the run exercised or the target counts, in document order. */
  operations: OperationCoverage[];
  /** Requests that matched no operation of the document (they fail document.status-documented). */
  undocumented: { request: string; statuses: Record<string, number> }[];
}

function isInterfaceOperation(path: string): boolean {
  return INTERFACE_COLLECTIONS.some((c) => path === c || path.startsWith(`${c}/`)) || TABLE_SUBRESOURCES.test(path);
}

/** Why the profile does not expect an operation of the interface's kinds, if it does not. */
function notExpected(path: string, exp: ProfileExpectations): string | undefined {
  if (!exp.deleteStale && path.endsWith('/deleteStale')) return 'the profile has no deleteStale (OpenMetadata 1.x)';
  const config = /^\/v1\/tables\/\{[^}/]+\}\/(profilerConfig|tableProfilerConfig)$/.exec(path)?.[1];
  if (config && config !== exp.profilerConfigPath && config !== 'tableProfilerConfig') {
    return `the profile expects the profiler configuration at /${exp.profilerConfigPath} only`;
  }
  return undefined;
}

const record = (map: ReadonlyMap<number | string, number>) => Object.fromEntries([...map].map(([k, v]) => [String(k), v]));

export function coverageSummary(tally: Tally, document: ApiDocument, exp: ProfileExpectations, minCoverage?: number): CoverageSummary {
  const operations: OperationCoverage[] = [];
  const inInterface = { operations: 0, exercised: 0, checked: 0, missing: [] as string[] };
  const all = { operations: document.operations.length, exercised: 0, checked: 0 };
  for (const op of document.operations) {
    const use = tally.operations.get(op.key);
    const isInterface = isInterfaceOperation(op.path);
    const why = isInterface ? notExpected(op.path, exp) : undefined;
    const exercised = (use?.statuses.size ?? 0) > 0;
    const checked = (use?.checkedBy.size ?? 0) > 0;
    if (exercised) all.exercised += 1;
    if (checked) all.checked += 1;
    if (isInterface && !why) {
      inInterface.operations += 1;
      if (exercised) inInterface.exercised += 1;
      if (checked) inInterface.checked += 1;
      else inInterface.missing.push(exercised ? `${op.key} (exercised, checked by no rule)` : op.key);
    }
    if (!exercised && !isInterface) continue;
    operations.push({
      key: op.key,
      ...(op.operationId ? { operationId: op.operationId } : {}),
      interface: isInterface,
      ...(why ? { notExpected: why } : {}),
      statuses: use ? record(use.statuses) : {},
      checkedBy: use ? record(use.checkedBy) : {},
    });
  }
  const percent = inInterface.operations === 0 ? 100 : Math.floor((1000 * inInterface.checked) / inInterface.operations) / 10;
  const undocumented = [...tally.operations].filter(([, use]) => !use.documented).map(([request, use]) => ({ request, statuses: record(use.statuses) }));
  return {
    document: document.source,
    interface: { ...inInterface, percent },
    all,
    ...(minCoverage !== undefined ? { minimum: { percent: minCoverage, met: percent >= minCoverage } } : {}),
    operations,
    undocumented,
  };
}
