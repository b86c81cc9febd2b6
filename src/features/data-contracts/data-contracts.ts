/**
 * Data contract validation results (docs/behaviour.md "Data contracts") and the contract an entity
 * has: its own, or one inherited from a data product. Results are held in the store, keyed by
 * contract id, in timestamp order, and dropped when the contract is hard-deleted. The newest
 * result is mirrored in the contract's `latestResult` (a minor version change).
 */
import type { StoredEntity } from '../../core/entity-store.ts';
import { sideSeries } from '../../core/side-data.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { CreateRequest, Entity, EntityReference, Paging, Schemas } from '../../core/entity.ts';
import { applyChange, upsertEntity } from '../../core/lifecycle.ts';
import { timeRange, upsertByTimestamp } from '../../core/time-series.ts';
import type { TimeRange } from '../../core/time-series.ts';

type Timed<T> = Schemas[T & keyof Schemas] & { timestamp: number; contractExecutionStatus: Schemas['ContractExecutionStatus'] };
/** `timestamp` and `contractExecutionStatus` are required (data-contract.yaml; the generator leaves them optional). */
export type DataContractResult = Timed<'DataContractResult'>;
export type CreateDataContractResult = Timed<'CreateDataContractResult'>;
type LatestResult = Schemas['DataContractLatestResult'];

// Kept in the store, beside the contract, keyed by its id, oldest first (`sideData.contractResults`).
const RESULTS = sideSeries<DataContractResult>({ group: 'contractResults', owner: 'dataContract', schema: 'DataContractResult' });

function resultsOf(ctx: CatalogContext, contractId: string): readonly DataContractResult[] {
  return ctx.store.getSide(RESULTS, contractId) ?? [];
}

/**
 * Contract "Data contracts" (add a result; docs/behaviour.md "Data contracts"): the id is generated when absent and
 * `dataContractFQN` is the contract's; a result with the same timestamp replaces the stored one.
 * `isLatest` is false when the result is older than the current latest (the route answers 201).
 */
export function addContractResult(ctx: CatalogContext, contract: StoredEntity, body: CreateDataContractResult, user: string): { result: DataContractResult; isLatest: boolean } {
  const list = [...resultsOf(ctx, contract.entity.id)];
  const latest = list[list.length - 1];
  const result: DataContractResult = { ...structuredClone(body), id: body.id ?? ctx.newId(), dataContractFQN: contract.entity.fullyQualifiedName };
  upsertByTimestamp(list, result, () => true);
  ctx.store.setSide(RESULTS, contract.entity.id, list);
  const isLatest = latest === undefined || result.timestamp >= latest.timestamp;
  if (isLatest) syncLatestResult(ctx, contract, user);
  return { result: structuredClone(result), isLatest };
}

export function latestContractResult(ctx: CatalogContext, contractId: string): DataContractResult | undefined {
  const list = resultsOf(ctx, contractId);
  const latest = list[list.length - 1];
  return latest && structuredClone(latest);
}

export function listContractResults(ctx: CatalogContext, contractId: string, range: TimeRange): { data: DataContractResult[]; paging: Paging } {
  return timeRange(resultsOf(ctx, contractId), range);
}

/** docs/behaviour.md "Data contracts": one stored result by its id, a copy; undefined when none has it. */
export function contractResultById(ctx: CatalogContext, contractId: string, resultId: string): DataContractResult | undefined {
  const found = resultsOf(ctx, contractId).find((r) => r.id === resultId);
  return found && structuredClone(found);
}

/** docs/behaviour.md "Data contracts": `DELETE .../results/{timestamp}` removes the result at that timestamp. */
export function deleteContractResult(ctx: CatalogContext, contract: StoredEntity, timestamp: number, user: string): number {
  return removeWhere(ctx, contract, (r) => r.timestamp === timestamp, user);
}

/** docs/behaviour.md "Data contracts": `DELETE .../results/before/{timestamp}` removes every result older than it. */
export function deleteContractResultsBefore(ctx: CatalogContext, contract: StoredEntity, timestamp: number, user: string): number {
  return removeWhere(ctx, contract, (r) => r.timestamp < timestamp, user);
}

function removeWhere(ctx: CatalogContext, contract: StoredEntity, drop: (r: DataContractResult) => boolean, user: string): number {
  const list = resultsOf(ctx, contract.entity.id);
  const kept = list.filter((r) => !drop(r));
  const removed = list.length - kept.length;
  if (removed > 0) {
    ctx.store.setSide(RESULTS, contract.entity.id, kept);
    syncLatestResult(ctx, contract, user);
  }
  return removed;
}

/** Mirrors the newest stored result in `latestResult` (no change, no new version, when equal). */
function syncLatestResult(ctx: CatalogContext, contract: StoredEntity, user: string): void {
  const list = resultsOf(ctx, contract.entity.id);
  const newest = list[list.length - 1];
  const next: Entity = structuredClone(contract.entity);
  if (newest) {
    const latest: LatestResult = { timestamp: newest.timestamp, status: newest.contractExecutionStatus, resultId: newest.id };
    if (newest.result !== undefined) latest.message = newest.result;
    next.latestResult = latest;
  } else delete next.latestResult;
  applyChange(ctx, ctx.kinds.of(contract.type), contract, next, user);
}

/** The live contract stored on the entity with this id, if any (docs/behaviour.md "Data contracts": one per entity). */
export function contractOfEntity(ctx: CatalogContext, entityId: string): StoredEntity | undefined {
  for (const stored of ctx.store.ofType('dataContract')) {
    if (!stored.entity.deleted && (stored.entity.entity as EntityReference).id === entityId) return stored;
  }
  return undefined;
}

/** A contract the entity inherits from one of its data products (contract "Data contracts"). */
export function inheritedContract(ctx: CatalogContext, entity: Entity): StoredEntity | undefined {
  for (const product of (entity.dataProducts as EntityReference[] | undefined) ?? []) {
    const found = contractOfEntity(ctx, product.id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Contract "Data contracts": "When the entity has only a contract inherited from a data product, a
 * local contract is created to hold the results." The local contract copies the inherited one's
 * terms (same name, so its FQN is `<entityFQN>.dataContract_<name>`). Undefined when there is none.
 */
export function contractForValidation(ctx: CatalogContext, target: StoredEntity, user: string): StoredEntity | undefined {
  const own = contractOfEntity(ctx, target.entity.id);
  if (own) return own;
  const inherited = inheritedContract(ctx, target.entity);
  if (!inherited) return undefined;
  const source = inherited.entity;
  const request: CreateRequest = { name: source.name, entity: { id: target.entity.id, type: target.type } };
  for (const field of ['displayName', 'description', 'entityStatus', 'schema', 'semantics', 'sla', 'effectiveFrom', 'effectiveUntil', 'sourceUrl']) {
    if (source[field] !== undefined) request[field] = structuredClone(source[field]);
  }
  const tests = source.qualityExpectations as EntityReference[] | undefined;
  if (tests?.length) request.qualityExpectations = tests.map((t) => ({ id: t.id, type: t.type }));
  return upsertEntity(ctx, ctx.kinds.of('dataContract'), request, user).stored;
}
