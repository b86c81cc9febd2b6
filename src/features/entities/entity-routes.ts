/**
 * The generic routes every kind (src/kinds/index.ts) gets: list, create, upsert, bulk, get and
 * PATCH and DELETE by id and by name, restore, version history (docs/behaviour.md).
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { Operation } from 'fast-json-patch';
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { CreateRequest, Entity } from '../../core/entity.ts';
import { withFields } from '../../core/entity.ts';
import { createEntity, hardDelete, patchEntity, restoreEntity, softDelete, upsertEntity } from '../../core/lifecycle.ts';
import { listEntities } from '../../core/listing.ts';
import { parseFields, render } from '../../core/projection.ts';
import { maskConnection } from '../../core/secrets.ts';
import { identityOf } from '../../http/exchange.ts';
import { checkIfMatch, tagRead, tagWrite } from '../../http/conditional.ts';
import { ApiError } from '../../http/errors.ts';
import { toApiError } from '../../http/render-error.ts';
import { dottedDetailsMessage } from '../../openapi/validation-details.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { changeHeader, findByFqn, findById, pathParam, queryBool, queryInclude, queryInt, queryValue, renderFor } from '../../http/request-helpers.ts';

const LIST_PARAMS = new Set(['fields', 'include', 'limit', 'before', 'after']);

export function mountEntityRoutes(router: OperationRoutes, ctx: CatalogContext, def: Kind): void {
  const prefix = `/api/v1/${def.collection}`;
  const user = (req: ApiRequest) => identityOf(req).user;
  const byId = (req: ApiRequest, include = queryInclude(req)) => findById(ctx, def, pathParam(req, 'id'), include);
  const byName = (req: ApiRequest, include = queryInclude(req)) => findByFqn(ctx, def, pathParam(req, 'fqn'), include);

  router.get(prefix, (req, reply) => {
    const fields = parseFields(ctx, def, queryValue(req, 'fields'));
    const filters = Object.fromEntries(Object.entries(req.query).filter(([k]) => !LIST_PARAMS.has(k)));
    const before = queryValue(req, 'before');
    const after = queryValue(req, 'after');
    const { items, paging } = listEntities(ctx, def, {
      include: queryInclude(req),
      limit: queryInt(req, 'limit', 10),
      ...(typeof before === 'string' ? { before } : {}),
      ...(typeof after === 'string' ? { after } : {}),
      filters,
    });
    reply.json({ data: items.map((s) => render(ctx, def, s, fields, req.baseUrl)), paging });
  });

  router.post(prefix, (req, reply) => {
    const stored = createEntity(ctx, def, req.body as CreateRequest, user(req));
    const body = renderFor(ctx, def, req, stored);
    tagWrite(reply, stored);
    reply.status(201).location(String(body.href)).json(body);
  });

  router.put(prefix, (req, reply) => {
    // docs/behaviour.md "Conditional requests": `If-Match` names the entity the request's FQN names.
    const { stored, outcome } = upsertEntity(ctx, def, req.body as CreateRequest, user(req), (existing) => checkIfMatch(req, existing));
    tagWrite(reply, stored);
    changeHeader(reply, outcome === 'created' ? 'entityCreated' : outcome === 'updated' ? 'entityUpdated' : 'entityNoChange');
    const body = renderFor(ctx, def, req, stored);
    // A 201 names what it created, as POST's does (RFC 9110 "201 Created").
    if (outcome === 'created') reply.location(String(body.href));
    reply.status(outcome === 'created' ? 201 : 200).json(body);
  });

  // Bulk (docs/behaviour.md "Bulk upsert"): each item on its own; invalid items are reported.
  router.put(`${prefix}/bulk`, (req, reply) => {
    const items = req.body as unknown[];
    const successRequest: { request: unknown; status: number; message?: string }[] = [];
    const failedRequest: { request: unknown; status: number; message: string }[] = [];
    for (const item of items) {
      const problems = ctx.validators.validate(def.createSchema, item);
      if (problems.length) {
        failedRequest.push({ request: item, status: 400, message: dottedDetailsMessage(problems) });
        continue;
      }
      try {
        const { stored, outcome } = upsertEntity(ctx, def, item as CreateRequest, user(req));
        successRequest.push({ request: stored.entity.fullyQualifiedName, status: outcome === 'created' ? 201 : 200, message: outcome });
      } catch (error) {
        const apiError = toApiError(error);
        failedRequest.push({ request: item, status: apiError.status, message: apiError.message });
      }
    }
    reply.json({
      dryRun: false,
      status: failedRequest.length === 0 ? 'success' : successRequest.length === 0 ? 'failure' : 'partialSuccess',
      numberOfRowsProcessed: items.length,
      numberOfRowsPassed: successRequest.length,
      numberOfRowsFailed: failedRequest.length,
      successRequest,
      failedRequest,
    });
  });

  // Restore (docs/behaviour.md "Delete and restore"): the id in the body, as OpenMetadata reads it, or `?id=`.
  router.put(`${prefix}/restore`, (req, reply) => {
    const id = (req.body as { id?: unknown } | undefined)?.id ?? queryValue(req, 'id');
    if (typeof id !== 'string') throw ApiError.badRequest('[id must not be null]');
    const stored = restoreEntity(ctx, def, id, user(req));
    changeHeader(reply, 'entityRestored');
    reply.json(renderFor(ctx, def, req, stored));
  });

  router.get(`${prefix}/name/:fqn`, (req, reply) => {
    const fields = parseFields(ctx, def, queryValue(req, 'fields'));
    const stored = byName(req);
    tagRead(reply, def, stored, fields);
    reply.json(renderFor(ctx, def, req, stored, fields));
  });
  router.patch(`${prefix}/name/:fqn`, (req, reply) => patch(req, reply, byName(req, 'non-deleted')));
  router.delete(`${prefix}/name/:fqn`, (req, reply) => remove(req, reply, byName(req, 'all')));

  router.get(`${prefix}/:id/versions`, (req, reply) => {
    const stored = byId(req, 'all');
    const current = renderFor(ctx, def, req, stored);
    const older = [...stored.history].reverse().map((version) => JSON.stringify(ctx.profile.maskSecrets && version.connection !== undefined ? masked(version) : version));
    reply.json({ entityType: def.type, versions: [JSON.stringify(current), ...older] });
  });
  router.get(`${prefix}/:id/versions/:version`, (req, reply) => {
    const stored = byId(req, 'all');
    const wanted = Number(pathParam(req, 'version'));
    if (stored.entity.version === wanted) return reply.json(renderFor(ctx, def, req, stored));
    const version = stored.history.find((h) => h.version === wanted);
    if (!version) throw new ApiError(404, `${def.type} instance for ${stored.entity.id} and version ${pathParam(req, 'version')} not found`);
    const snapshot: StoredEntity = { ...stored, entity: version };
    reply.json(render(ctx, def, snapshot, 'all', req.baseUrl));
  });

  router.get(`${prefix}/:id`, (req, reply) => {
    const fields = parseFields(ctx, def, queryValue(req, 'fields'));
    const stored = byId(req);
    tagRead(reply, def, stored, fields);
    reply.json(renderFor(ctx, def, req, stored, fields));
  });
  router.patch(`${prefix}/:id`, (req, reply) => patch(req, reply, byId(req, 'non-deleted')));
  router.delete(`${prefix}/:id`, (req, reply) => remove(req, reply, byId(req, 'all')));

  function patch(req: ApiRequest, reply: Reply, stored: StoredEntity): void {
    checkIfMatch(req, stored);
    patchEntity(ctx, def, stored, req.body as Operation[], user(req));
    tagWrite(reply, stored);
    reply.json(renderFor(ctx, def, req, stored));
  }

  /** docs/behaviour.md "Delete and restore"; the hard delete answer per profile ("Profiles"). */
  function remove(req: ApiRequest, reply: Reply, stored: StoredEntity): void {
    checkIfMatch(req, stored);
    const recursive = queryBool(req, 'recursive');
    if (def.hardDeleteOnly || queryBool(req, 'hardDelete')) {
      const body = renderFor(ctx, def, req, stored);
      hardDelete(ctx, def, stored, recursive, user(req));
      changeHeader(reply, 'entityDeleted');
      const answer = ctx.profile.hardDelete;
      if (answer.body === 'entity') reply.status(answer.status).json(body);
      else reply.status(answer.status).empty();
      return;
    }
    softDelete(ctx, def, stored, recursive, user(req));
    changeHeader(reply, 'entitySoftDeleted');
    tagWrite(reply, stored);
    reply.json(renderFor(ctx, def, req, stored));
  }
}

/** An earlier version with its connection's secrets masked (a copy: the version itself is kept as it was). */
function masked(version: Entity): Entity {
  return withFields(version, { connection: maskConnection(version.connection) });
}
