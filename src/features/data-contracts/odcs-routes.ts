/**
 * Data contracts as ODCS v3 documents, and contract documents written as YAML checked without
 * storing them (openapi/paths/odcs.yaml and the `/v1/dataContracts/odcs[/yaml]` imports in
 * openapi.yaml; docs/behaviour.md "Data contracts"; the mapping: src/features/data-contracts/odcs.ts). Registered
 * before the generic entity routes (`/dataContracts/odcs` is not an id).
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { CatalogContext } from '../../core/context.ts';
import { checkContractRequest } from './contract-request-check.ts';
import type { CreateRequest } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { createEntity, upsertEntity } from '../../core/lifecycle.ts';
import { asOdcs, fromOdcs, parseOdcsSummary, readYaml, toOdcs, toOdcsYaml } from './odcs.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { findByFqn, findById, pathParam, queryValue, renderFor } from '../../http/request-helpers.ts';

/** What the document leaves out that `mode=replace` clears. */
const REPLACED = { schema: [], semantics: [], qualityExpectations: [] } as const;

export function mountOdcsRoutes(router: OperationRoutes, ctx: CatalogContext): void {
  const CONTRACT = ctx.kinds.of('dataContract');
  const prefix = '/api/v1/dataContracts';
  const user = (req: ApiRequest) => identityOf(req).user;
  const text = (req: ApiRequest, name: string) => {
    const value = queryValue(req, name);
    return value === undefined || value === '' ? undefined : String(value);
  };
  /** The live entity `entityId` and `entityType` name. */
  const target = (req: ApiRequest): StoredEntity => {
    const id = String(queryValue(req, 'entityId'));
    const type = String(queryValue(req, 'entityType'));
    const stored = ctx.store.get(id);
    if (!stored || stored.type !== type || stored.entity.deleted) throw CatalogError.notFound(type, id);
    return stored;
  };
  const requestOf = (req: ApiRequest, document: unknown): CreateRequest => fromOdcs(ctx, asOdcs(document as Record<string, unknown>), target(req), text(req, 'objectName'));

  router.get(`${prefix}/:id/odcs`, (req, reply) => {
    reply.json(toOdcs(ctx, findById(ctx, CONTRACT, pathParam(req, 'id'), 'non-deleted').entity));
  });
  router.get(`${prefix}/:id/odcs/yaml`, (req, reply) => {
    const yaml = toOdcsYaml(ctx, findById(ctx, CONTRACT, pathParam(req, 'id'), 'non-deleted').entity);
    reply.text(yaml, 'application/yaml');
  });
  router.get(`${prefix}/name/:fqn/odcs`, (req, reply) => {
    reply.json(toOdcs(ctx, findByFqn(ctx, CONTRACT, pathParam(req, 'fqn'), 'non-deleted').entity));
  });

  const create = (req: ApiRequest, reply: Reply, document: unknown) => {
    const stored = createEntity(ctx, CONTRACT, requestOf(req, document), user(req));
    const body = renderFor(ctx, CONTRACT, req, stored);
    reply.status(201).location(String(body.href)).json(body);
  };
  const upsert = (req: ApiRequest, reply: Reply, document: unknown) => {
    const request = requestOf(req, document);
    const { stored, outcome } = upsertEntity(ctx, CONTRACT, text(req, 'mode') === 'replace' ? { ...REPLACED, ...request } : request, user(req));
    reply.status(outcome === 'created' ? 201 : 200).json(renderFor(ctx, CONTRACT, req, stored));
  };
  router.post(`${prefix}/odcs`, (req, reply) => create(req, reply, req.body));
  router.put(`${prefix}/odcs`, (req, reply) => upsert(req, reply, req.body));
  router.post(`${prefix}/odcs/yaml`, (req, reply) => create(req, reply, readYaml(req.body)));
  router.put(`${prefix}/odcs/yaml`, (req, reply) => upsert(req, reply, readYaml(req.body)));

  router.post(`${prefix}/odcs/parse/yaml`, (req, reply) => {
    reply.json(parseOdcsSummary(asOdcs(readYaml(req.body))));
  });
  router.post(`${prefix}/odcs/validate/yaml`, (req, reply) => {
    const odcs = asOdcs(readYaml(req.body));
    const id = String(queryValue(req, 'entityId'));
    const type = String(queryValue(req, 'entityType'));
    const stored = ctx.store.get(id);
    // An unknown entity is reported as an entity error, as for a JSON request.
    const entity = stored && stored.type === type && !stored.entity.deleted ? stored : undefined;
    const request = entity ? fromOdcs(ctx, odcs, entity, text(req, 'objectName')) : { name: String(odcs.name ?? odcs.id), entity: { id, type } };
    reply.json(checkContractRequest(ctx, request));
  });
  router.post(`${prefix}/validate/yaml`, (req, reply) => {
    const request = readYaml(req.body);
    const problems = ctx.validators.validate(CONTRACT.createSchema, request);
    if (problems.length) throw CatalogError.badRequest(`Invalid data contract request: ${problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ')}`);
    reply.json(checkContractRequest(ctx, request as CreateRequest));
  });
}
