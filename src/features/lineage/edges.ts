/**
 * Lineage edges (docs/behaviour.md "Lineage"; OpenMetadata's LineageRepository): an edge runs from
 * an upstream entity to a downstream one and carries its details (SQL, column lineage, the pipeline
 * that runs it, description, source, who made it and when). Edges live in the store, in the side
 * data area `lineage` keyed by the upstream entity's id (each value: the edges that leave it), so
 * reset, export, import and the `--data` journal carry them. When an entity is removed for good,
 * the store drops the edges that leave it with it and the area's `withoutEntity` drops those that
 * reach it (and a pipeline reference to it). A soft-deleted end hides an edge (graph.ts) without
 * removing it, so a restore brings it back. Adding or removing an edge makes no new version of
 * either end.
 */
import { recordEvent } from '../../core/change-events.ts';
import { CatalogError } from '../../core/errors.ts';
import type { CatalogContext, Kind } from '../../core/context.ts';
import type { EntityReference, Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { columnListsOf } from '../../core/column-names.ts';
import { nestedNames } from './children.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import { ANY_ENTITY, sideValue } from '../../core/side-data.ts';

export type LineageEdge = Schemas['LineageEdge'];
export type LineageDetails = Schemas['LineageDetails'];
export type AddLineage = Schemas['AddLineage'];

/** Drops the edges that reach `id`, and the pipeline reference to `id` from the others. */
function withoutEntity(edges: readonly LineageEdge[], id: string): readonly LineageEdge[] | undefined {
  if (!edges.some((e) => e.toEntity === id || e.lineageDetails?.pipeline?.id === id)) return edges;
  const kept = edges
    .filter((e) => e.toEntity !== id)
    .map((e) => {
      if (e.lineageDetails?.pipeline?.id !== id) return e;
      const details = { ...e.lineageDetails };
      delete details.pipeline;
      return { ...e, lineageDetails: details };
    });
  return kept.length ? kept : undefined;
}

/** Upstream entity id → the edges that leave it (`sideData.lineage` in the state export). */
export const EDGES = sideValue<readonly LineageEdge[]>({ group: 'lineage', owner: ANY_ENTITY, schema: 'LineageEdges', withoutEntity });

/** The kind of an entity type, if the server serves one. */
export function kindNamed(ctx: CatalogContext, type: string): Kind | undefined {
  return ctx.kinds.all.find((kind) => kind.type === type);
}

/** The entity a reference names: 404 when there is none of that type (soft-deleted ones too, unless `live`). */
export function findEnd(ctx: CatalogContext, type: string, id: string, live: boolean): StoredEntity {
  const stored = ctx.store.get(id);
  if (!stored || stored.type !== type || (live && stored.entity.deleted)) throw CatalogError.notFound(type, id);
  return stored;
}

/** The entity of that type with that FQN: 404 when there is none (soft-deleted ones too, unless `live`). */
export function findEndByFqn(ctx: CatalogContext, type: string, fqn: string, live: boolean): StoredEntity {
  const stored = kindNamed(ctx, type) ? ctx.store.getByFqn(type, fqn) : undefined;
  if (!stored || (live && stored.entity.deleted)) throw CatalogError.notFound(type, fqn);
  return stored;
}

/**
 * OpenMetadata's `getChildrenNames`: the parts of an end that column-level lineage may name, its
 * kind's `lineageChildren` or else its columns (`columnsAt`); a kind with neither takes no part in
 * lineage (400).
 */
function lineageParts(ctx: CatalogContext, end: StoredEntity): ReadonlySet<string> {
  const kind = kindNamed(ctx, end.type);
  if (kind?.lineageChildren) return new Set(kind.lineageChildren(end.entity));
  if (kind?.columnsAt) return new Set(columnListsOf(kind, end.entity).flatMap((columns) => nestedNames(columns)));
  throw CatalogError.badRequest(`Unsupported Entity Type ${end.type} for lineage`);
}

/** Column lineage names columns of its ends by FQN: `<end FQN>.<column>` (400 `Invalid column name <c>`). */
function checkColumns(from: StoredEntity, to: StoredEntity, details: LineageDetails, fromColumns: ReadonlySet<string>, toColumns: ReadonlySet<string>): void {
  const belongs = (column: string | undefined, end: StoredEntity, names: ReadonlySet<string>): boolean => {
    if (column === undefined) return false;
    const prefix = `${end.entity.fullyQualifiedName}.`;
    return names.has(column.startsWith(prefix) ? column.slice(prefix.length) : column);
  };
  for (const mapping of details.columnsLineage ?? []) {
    for (const column of mapping.fromColumns ?? []) {
      if (!belongs(column, from, fromColumns)) throw CatalogError.badRequest(`Invalid column name ${column}`);
    }
    if (!belongs(mapping.toColumn, to, toColumns)) throw CatalogError.badRequest(`Invalid column name ${String(mapping.toColumn)}`);
  }
}

/** The edges that leave an entity, as stored. */
function edgesFrom(ctx: CatalogContext, fromId: string): readonly LineageEdge[] {
  return ctx.store.getSide(EDGES, fromId) ?? [];
}

/**
 * `PUT /v1/lineage` (OpenMetadata's `addLineage`): both ends and the pipeline must exist and be
 * live (404); an end of a kind without lineage, an edge to itself, or a column that is not its
 * end's is a 400. An edge between the same two entities is replaced; the server stamps
 * `createdAt`/`createdBy`/`updatedAt`/`updatedBy` with this request, as OpenMetadata does.
 */
export function addEdge(ctx: CatalogContext, body: AddLineage, user: string): LineageEdge {
  const { edge } = body;
  const from = findEnd(ctx, edge.fromEntity.type, edge.fromEntity.id, true);
  const to = findEnd(ctx, edge.toEntity.type, edge.toEntity.id, true);
  const fromParts = lineageParts(ctx, from);
  const toParts = lineageParts(ctx, to);
  if (from.entity.id === to.entity.id) throw CatalogError.badRequest(`An entity cannot be upstream of itself: ${from.type} ${from.entity.fullyQualifiedName}`);
  const details: LineageDetails = structuredClone(edge.lineageDetails ?? {});
  if (details.pipeline) {
    const pipeline = findEnd(ctx, details.pipeline.type, details.pipeline.id, true);
    details.pipeline = referenceTo(pipeline.type, pipeline.entity) as EntityReference;
  }
  checkColumns(from, to, details, fromParts, toParts);
  const now = ctx.now();
  details.source ??= 'Manual';
  details.createdAt = now;
  details.createdBy = user;
  details.updatedAt = now;
  details.updatedBy = user;
  const stored: LineageEdge = {
    fromEntity: from.entity.id,
    toEntity: to.entity.id,
    ...(edge.description !== undefined ? { description: edge.description } : {}),
    lineageDetails: details,
  };
  const edges = edgesFrom(ctx, from.entity.id);
  const others = edges.filter((e) => e.toEntity !== to.entity.id);
  ctx.store.setSide(EDGES, from.entity.id, [...others, stored]);
  recordLineageEvent(ctx, others.length < edges.length ? 'entityLineageUpdated' : 'entityLineageAdded', from, to, stored, user);
  return stored;
}

/** Removes the edge between two entities (either may be soft-deleted); 404 `Lineage edge not found` when there is none. */
export function removeEdge(ctx: CatalogContext, from: StoredEntity, to: StoredEntity, user: string): void {
  const edges = edgesFrom(ctx, from.entity.id);
  const kept = edges.filter((e) => e.toEntity !== to.entity.id);
  if (kept.length === edges.length) throw new CatalogError('notFound', 'Lineage edge not found');
  ctx.store.setSide(EDGES, from.entity.id, kept.length ? kept : undefined);
  recordLineageEvent(
    ctx,
    'entityLineageDeleted',
    from,
    to,
    edges.find((e) => e.toEntity === to.entity.id)!,
    user,
  );
}

/**
 * OpenMetadata 2.0's lineage change events (profile row `lineageEvents`; docs/behaviour.md
 * "Events"): entity type `lineage`, the edge named `<from FQN>--upstream--><to FQN>`; the id and
 * versions are the downstream entity's (a lineage change makes no version), the entity the edge
 * with both ends as references.
 */
function recordLineageEvent(
  ctx: CatalogContext,
  eventType: 'entityLineageAdded' | 'entityLineageUpdated' | 'entityLineageDeleted',
  from: StoredEntity,
  to: StoredEntity,
  edge: LineageEdge,
  user: string,
): void {
  if (!ctx.profile.lineageEvents) return;
  recordEvent(ctx, {
    id: ctx.newId(),
    eventType,
    entityType: 'lineage',
    entityId: to.entity.id,
    entityFullyQualifiedName: `${from.entity.fullyQualifiedName}--upstream-->${to.entity.fullyQualifiedName}`,
    userName: user,
    timestamp: ctx.now(),
    previousVersion: to.entity.version,
    currentVersion: to.entity.version,
    entity: { ...edge, fromEntity: referenceTo(from.type, from.entity), toEntity: referenceTo(to.type, to.entity) },
  });
}

/** `GET /v1/lineage/getLineageEdge/{fromId}/{toId}`: the details of one edge, or 404. */
export function edgeDetails(ctx: CatalogContext, fromId: string, toId: string): LineageDetails {
  const edge = edgesFrom(ctx, fromId).find((e) => e.toEntity === toId);
  if (!edge) throw new CatalogError('notFound', `Lineage edge not found between ${fromId} and  ${toId}`);
  return structuredClone(edge.lineageDetails ?? {});
}
