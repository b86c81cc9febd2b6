/**
 * Data contract routes beyond the generic CRUD (contract "Data contracts"; docs/behaviour.md "Data contracts"):
 * the contract of an entity, validation by id and by entity, and the validation results.
 * Registered before the generic entity routes (`/dataContracts/entity` is not an id).
 */
import type { ApiRequest } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { CatalogContext } from '../../core/context.ts';
import { validateContract } from './contract-validation.ts';
import type { CreateDataContractResult } from './data-contracts.ts';
import {
  addContractResult,
  contractForValidation,
  contractResultById,
  deleteContractResult,
  deleteContractResultsBefore,
  inheritedContract,
  latestContractResult,
  listContractResults,
} from './data-contracts.ts';
import type { EntityReference } from '../../core/entity.ts';
import { matchesInclude } from '../../core/listing.ts';
import { parseFields } from '../../core/projection.ts';
import { identityOf } from '../../http/exchange.ts';
import { ApiError } from '../../http/errors.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { changeHeader, findById, pathParam, queryInclude, queryInt, queryValue, renderFor } from '../../http/request-helpers.ts';
import { queryTimestamp } from '../table-data/table-data-routes.ts';

export function mountDataContractRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const CONTRACT = ctx.kinds.of('dataContract');
  const prefix = '/api/v1/dataContracts';
  const user = (req: ApiRequest) => identityOf(req).user;
  const contract = (req: ApiRequest) => findById(ctx, CONTRACT, pathParam(req, 'id'), 'non-deleted');

  /** The entity named by `entityId` and `entityType` (404 when unknown, deleted or of another type). */
  const target = (req: ApiRequest): StoredEntity => {
    const id = String(queryValue(req, 'entityId'));
    const type = String(queryValue(req, 'entityType'));
    const stored = ctx.store.get(id);
    if (!stored || stored.type !== type || stored.entity.deleted) throw ApiError.notFound(type, id);
    return stored;
  };

  // The entity's own contract, else one inherited from a data product (docs/behaviour.md "Data contracts"; `ui/rest/contractAPI.ts`).
  router.get(`${prefix}/entity`, (req, reply) => {
    const entity = target(req);
    const fields = parseFields(ctx, CONTRACT, queryValue(req, 'fields'));
    const include = queryInclude(req);
    for (const stored of ctx.store.ofType('dataContract')) {
      if ((stored.entity.entity as EntityReference).id === entity.entity.id && matchesInclude(stored.entity, include)) {
        return reply.json(renderFor(ctx, CONTRACT, req, stored, fields));
      }
    }
    const inherited = inheritedContract(ctx, entity.entity);
    if (!inherited) throw new ApiError(404, `Data contract for ${entity.type} ${entity.entity.id} not found`);
    reply.json({ ...renderFor(ctx, CONTRACT, req, inherited, fields), inherited: true });
  });

  router.post(`${prefix}/entity/validate`, (req, reply) => {
    const entity = target(req);
    const stored = contractForValidation(ctx, entity, user(req));
    if (!stored) throw new ApiError(404, `Data contract for ${entity.type} ${entity.entity.id} not found`);
    reply.json(validateContract(ctx, stored, user(req)));
  });

  router.post(`${prefix}/:id/validate`, (req, reply) => reply.json(validateContract(ctx, contract(req), user(req))));

  // Contract "Limits": limit 0..10000 (the validator answers 400 outside), default 10; 0 = no limit.
  router.get(`${prefix}/:id/results`, (req, reply) => {
    const stored = contract(req);
    const range = { startTs: queryTimestamp(req, 'startTs'), endTs: queryTimestamp(req, 'endTs'), limit: queryInt(req, 'limit', 10), now: ctx.now() };
    reply.json(listContractResults(ctx, stored.entity.id, range));
  });

  // 200 (entityUpdated) when it becomes the latest, 201 (entityCreated) when older (docs/behaviour.md "Data contracts").
  router.put(`${prefix}/:id/results`, (req, reply) => {
    const { result, isLatest } = addContractResult(ctx, contract(req), req.body as CreateDataContractResult, user(req));
    changeHeader(reply, isLatest ? 'entityUpdated' : 'entityCreated');
    reply.status(isLatest ? 200 : 201).json(result);
  });

  // Contract: the most recent result; none → 404 (contract) or 204 (OpenMetadata; docs/behaviour.md "Data contracts").
  router.get(`${prefix}/:id/results/latest`, (req, reply) => {
    const stored = contract(req);
    const latest = latestContractResult(ctx, stored.entity.id);
    if (latest) return reply.json(latest);
    if (ctx.profile.emptyLatestResultIs204) return reply.status(204).empty();
    throw new ApiError(404, `Data contract ${stored.entity.fullyQualifiedName} does not have a latest result defined`);
  });

  // Both deletes answer 200 with an empty body (docs/behaviour.md "Data contracts").
  router.delete(`${prefix}/:id/results/before/:timestamp`, (req, reply) => {
    deleteContractResultsBefore(ctx, contract(req), Number(pathParam(req, 'timestamp')), user(req));
    reply.status(200).empty();
  });
  router.delete(`${prefix}/:id/results/:timestamp`, (req, reply) => {
    deleteContractResult(ctx, contract(req), Number(pathParam(req, 'timestamp')), user(req));
    reply.status(200).empty();
  });
  // By the result's id (docs/behaviour.md "Data contracts"): the same place as the delete by timestamp, whose name the segment keeps.
  router.get(`${prefix}/:id/results/:timestamp`, (req, reply) => {
    const stored = contract(req);
    const found = contractResultById(ctx, stored.entity.id, pathParam(req, 'timestamp'));
    if (!found) throw ApiError.notFound('dataContractResult', pathParam(req, 'timestamp'));
    reply.json(found);
  });
}
