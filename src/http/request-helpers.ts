/** Small helpers every handler uses: query parsing, lookups with `include`, rendering. */
import type { ApiRequest, Reply } from './exchange.ts';
import type { CatalogContext, Kind } from '../core/context.ts';
import type { Entity } from '../core/entity.ts';
import type { Include } from '../core/listing.ts';
import { matchesInclude } from '../core/listing.ts';
import type { FieldSelection } from '../core/projection.ts';
import { render } from '../core/projection.ts';
import { ApiError } from './errors.ts';
import type { StoredEntity } from '../core/entity-store.ts';

export function queryValue(req: ApiRequest, name: string): unknown {
  const value = (req.query as Record<string, unknown>)[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export function queryBool(req: ApiRequest, name: string): boolean {
  const value = queryValue(req, name);
  return value === true || value === 'true';
}

export function queryInclude(req: ApiRequest): Include {
  const value = queryValue(req, 'include');
  return value === 'deleted' || value === 'all' ? value : 'non-deleted';
}

export function queryInt(req: ApiRequest, name: string, fallback: number): number {
  const value = queryValue(req, name);
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n)) throw ApiError.badRequest(`[query param ${name} must be an integer]`);
  return n;
}

export function pathParam(req: ApiRequest, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string') throw ApiError.badRequest(`missing path parameter ${name}`);
  return value;
}

/** The entity of this kind with that id, visible under `include` — or OpenMetadata's 404. */
export function findById(ctx: CatalogContext, def: Kind, id: string, include: Include): StoredEntity {
  const stored = ctx.store.get(id);
  if (!stored || stored.type !== def.type || !matchesInclude(stored.entity, include)) throw ApiError.notFound(def.type, id);
  return stored;
}

export function findByFqn(ctx: CatalogContext, def: Kind, fqn: string, include: Include): StoredEntity {
  const stored = ctx.store.getByFqn(def.type, fqn);
  if (!stored || !matchesInclude(stored.entity, include)) throw ApiError.notFound(def.type, fqn);
  return stored;
}

/** What a response shows of the entity for `fields` (src/core/projection.ts), its `href`s from the request's base URL. */
export function renderFor(ctx: CatalogContext, def: Kind, req: ApiRequest, stored: StoredEntity, fields: FieldSelection = 'all'): Entity {
  return render(ctx, def, stored, fields, req.baseUrl);
}

/** OpenMetadata's change header (docs/behaviour.md "Upsert", "Delete and restore"). */
export function changeHeader(reply: Reply, change: string): void {
  reply.header('X-OpenMetadata-Change', change);
}
