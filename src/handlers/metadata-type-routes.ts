/**
 * `/v1/metadata/types` (openapi/paths/metadata-types.yaml; docs/behaviour.md "Custom properties"):
 * the property types and entity types, adding and editing an entity type's custom properties, and
 * the summaries the web UI reads. The domain is src/types/. Mounted before the generic routes, the
 * literal paths (`customProperties`, `fields`, `name`) before `/{id}`.
 */
import type { Request, Response } from 'express';
import type { Operation } from 'fast-json-patch';
import type { CatalogContext } from '../domain/context.ts';
import { identityOf } from '../http/authenticate.ts';
import type { OperationRoutes } from '../http/operation-routes.ts';
import type { DocumentSource } from '../openapi/document.ts';
import type { CustomProperty, Type } from '../types/entity-types.ts';
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
} from '../types/entity-types.ts';
import { entityFields } from '../types/fields.ts';
import { baseUrl, changeHeader, pathParam, queryInt, queryValue } from './request-helpers.ts';

const ROOT = '/api/v1/metadata/types';

export function mountMetadataTypeRoutes(router: OperationRoutes, ctx: CatalogContext, document: DocumentSource): void {
  const user = (res: Response) => identityOf(res).user;
  const withHref = (req: Request, type: Type): Type => ({ ...type, href: `${baseUrl(req)}/v1/metadata/types/${type.id}` });
  const answer = (req: Request, res: Response, result: { type: Type; changed: boolean }) => {
    changeHeader(res, result.changed ? 'entityUpdated' : 'entityNoChange');
    res.json(withHref(req, result.type));
  };

  router.get(ROOT, (req, res) => {
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
    res.json({ data: data.map((t) => withHref(req, showType(t, custom))), paging });
  });

  router.get(`${ROOT}/customProperties`, (_req, res) => {
    res.json(allCustomProperties(ctx));
  });

  router.get(`${ROOT}/fields/:entityType`, (req, res) => {
    const entityType = pathParam(req, 'entityType');
    const kind = entityTypeKind(ctx, entityType);
    res.json(entityFields(document(), kind.schema, customPropertiesOfType(ctx, entityType)));
  });

  router.get(`${ROOT}/name/:entityType/customProperties`, (req, res) => {
    res.json(customPropertiesOfType(ctx, pathParam(req, 'entityType')));
  });

  router.get(`${ROOT}/name/:name`, (req, res) => {
    const custom = parseTypeFields(queryValue(req, 'fields'));
    res.json(withHref(req, showType(findType(ctx, 'name', pathParam(req, 'name')), custom)));
  });

  router.get(`${ROOT}/:id`, (req, res) => {
    const custom = parseTypeFields(queryValue(req, 'fields'));
    res.json(withHref(req, showType(findType(ctx, 'id', pathParam(req, 'id')), custom)));
  });

  router.put(`${ROOT}/:id`, (req, res) => {
    answer(req, res, addCustomProperty(ctx, pathParam(req, 'id'), req.body as CustomProperty, user(res)));
  });

  router.patch(`${ROOT}/:id`, (req, res) => {
    answer(req, res, patchType(ctx, pathParam(req, 'id'), req.body as Operation[], user(res)));
  });
}
