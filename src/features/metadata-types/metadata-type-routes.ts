/**
 * `/v1/metadata/types` (openapi/paths/metadata-types.yaml; docs/behaviour.md "Custom properties"):
 * the property types and entity types, adding and editing an entity type's custom properties, and
 * the summaries the web UI reads. The domain is src/core/types/. Mounted before the generic routes, the
 * literal paths (`customProperties`, `fields`, `name`) before `/{id}`.
 */
import type { ApiRequest, Reply } from '../../http/exchange.ts';
import type { Operation } from 'fast-json-patch';
import type { CatalogContext } from '../../core/context.ts';
import { identityOf } from '../../http/exchange.ts';
import type { OperationRoutes } from '../../http/operation-routes.ts';
import type { DocumentSource } from '../../openapi/document.ts';
import type { CustomProperty, Type } from '../../core/entity-types.ts';
import {
  addCustomProperty,
  allCustomProperties,
  customPropertiesOfType,
  entityTypeKind,
  findType,
  listTypes,
  parseTypeFields,
  patchType,
  showType,
} from '../../core/entity-types.ts';
import { entityFields } from './fields.ts';
import { changeHeader, pathParam, queryInt, queryValue } from '../../http/request-helpers.ts';

const ROOT = '/api/v1/metadata/types';

export function mountMetadataTypeRoutes(router: OperationRoutes, ctx: CatalogContext, document: DocumentSource): void {
  const user = (req: ApiRequest) => identityOf(req).user;
  const withHref = (req: ApiRequest, type: Type): Type => ({ ...type, href: `${req.baseUrl}/v1/metadata/types/${type.id}` });
  const answer = (req: ApiRequest, reply: Reply, result: { type: Type; changed: boolean }) => {
    changeHeader(reply, result.changed ? 'entityUpdated' : 'entityNoChange');
    reply.json(withHref(req, result.type));
  };

  router.get(ROOT, (req, reply) => {
    const custom = parseTypeFields(queryValue(req, 'fields'));
    const before = queryValue(req, 'before');
    const after = queryValue(req, 'after');
    const category = queryValue(req, 'category');
    const { data, paging } = listTypes(ctx, {
      limit: queryInt(req, 'limit', 10),
      ...(typeof category === 'string' && category !== '' ? { category } : {}),
      ...(typeof before === 'string' ? { before } : {}),
      ...(typeof after === 'string' ? { after } : {}),
    });
    reply.json({ data: data.map((t) => withHref(req, showType(t, custom))), paging });
  });

  router.get(`${ROOT}/customProperties`, (_req, reply) => {
    reply.json(allCustomProperties(ctx));
  });

  router.get(`${ROOT}/fields/:entityType`, (req, reply) => {
    const entityType = pathParam(req, 'entityType');
    const kind = entityTypeKind(ctx, entityType);
    reply.json(entityFields(document(), kind.schema, customPropertiesOfType(ctx, entityType)));
  });

  router.get(`${ROOT}/name/:entityType/customProperties`, (req, reply) => {
    reply.json(customPropertiesOfType(ctx, pathParam(req, 'entityType')));
  });

  router.get(`${ROOT}/name/:name`, (req, reply) => {
    const custom = parseTypeFields(queryValue(req, 'fields'));
    reply.json(withHref(req, showType(findType(ctx, 'name', pathParam(req, 'name')), custom)));
  });

  router.get(`${ROOT}/:id`, (req, reply) => {
    const custom = parseTypeFields(queryValue(req, 'fields'));
    reply.json(withHref(req, showType(findType(ctx, 'id', pathParam(req, 'id')), custom)));
  });

  router.put(`${ROOT}/:id`, (req, reply) => {
    answer(req, reply, addCustomProperty(ctx, pathParam(req, 'id'), req.body as CustomProperty, user(req)));
  });

  router.patch(`${ROOT}/:id`, (req, reply) => {
    answer(req, reply, patchType(ctx, pathParam(req, 'id'), req.body as Operation[], user(req)));
  });
}
