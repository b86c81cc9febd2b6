/**
 * Reading lineage (docs/behaviour.md "Lineage"): an entity's graph by ids (OpenMetadata's
 * `EntityLineage`), the same graph in the shape the web UI's lineage page reads (the search
 * lineage result of OpenMetadata's Elasticsearch graph builder: nodes by FQN, edges by `docId`),
 * one side of it paged by entity (impact analysis), its counts per depth, the platform view
 * between services, domains or data products, and the failing tests upstream.
 *
 * Every read builds the visible graph from the store in one pass over the `lineage` area: an edge
 * whose end is soft-deleted is left out unless deleted entities are asked for. Each hop is a
 * breadth-first layer, so an entity counts at its nearest depth and a cycle ends.
 */
import { md5 } from '../../platform/digest.ts';
import { hex } from '../../platform/encoding.ts';
import { CatalogError } from '../../core/errors.ts';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, EntityReference, Schemas } from '../../core/entity.ts';
import { referenceTo } from '../../core/entity.ts';
import { readEntityLink } from '../../core/entity-link.ts';
import { latestTestCaseResult } from '../data-quality/test-case-results.ts';
import { splitFqn } from '../../core/fqn.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import type { LineageEdge } from './edges.ts';
import { EDGES, kindNamed } from './edges.ts';

export type EntityLineage = Schemas['EntityLineage'];
export type SearchLineageResult = Schemas['SearchLineageResult'];
type SearchLineageEdge = Schemas['SearchLineageEdge'];
type LineageNode = Schemas['LineageNode'];
export type LineagePaginationInfo = Schemas['LineagePaginationInfo'];
export type DataQualityLineage = Schemas['DataQualityLineage'];
export type Direction = 'Upstream' | 'Downstream';

/** An edge whose ends (and pipeline, if any) are in the store. */
interface Link {
  from: StoredEntity;
  to: StoredEntity;
  edge: LineageEdge;
  pipeline: StoredEntity | undefined;
}

/** The visible graph: edges by upstream end, by downstream end, and by the pipeline that runs them. */
interface Graph {
  down: Map<string, Link[]>;
  up: Map<string, Link[]>;
  via: Map<string, Link[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function graphOf(ctx: CatalogContext, includeDeleted: boolean): Graph {
  const graph: Graph = { down: new Map(), up: new Map(), via: new Map() };
  const visible = (stored: StoredEntity | undefined): stored is StoredEntity => !!stored && (includeDeleted || !stored.entity.deleted);
  for (const [fromId, edges] of ctx.store.sideValuesOf(EDGES)) {
    const from = ctx.store.get(fromId);
    if (!visible(from)) continue;
    for (const edge of edges) {
      const to = ctx.store.get(edge.toEntity);
      if (!visible(to)) continue;
      const pipelineId = edge.lineageDetails?.pipeline?.id;
      const link: Link = { from, to, edge, pipeline: pipelineId === undefined ? undefined : ctx.store.get(pipelineId) };
      push(graph.down, fromId, link);
      push(graph.up, to.entity.id, link);
      if (link.pipeline) push(graph.via, link.pipeline.entity.id, link);
    }
  }
  return graph;
}

/** The links that leave (`Downstream`) or reach (`Upstream`) an entity, and the entity at their other end. */
function sideOf(graph: Graph, direction: Direction, id: string): Link[] {
  return (direction === 'Upstream' ? graph.up : graph.down).get(id) ?? [];
}

const far = (link: Link, direction: Direction): StoredEntity => (direction === 'Upstream' ? link.from : link.to);

interface Walk {
  /** Entity id → its distance from the start (1 for the first layer). */
  depths: Map<string, { stored: StoredEntity; depth: number }>;
  /** The links crossed, in the order met. */
  links: Link[];
}

/**
 * Breadth-first from `start` on one side, `depth` layers; `page` slices the links read at each
 * entity (OpenMetadata's layer paging); `first` gives the links of the first layer instead (the
 * edges a pipeline runs, when the lineage of a pipeline is read through it).
 */
function walk(graph: Graph, start: StoredEntity, direction: Direction, depth: number, page?: { from: number; size: number }, first?: Link[]): Walk {
  const depths = new Map<string, { stored: StoredEntity; depth: number }>();
  const links: Link[] = [];
  const seen = new Set<Link>();
  let frontier: StoredEntity[] = [start];
  for (let layer = 1; layer <= depth && frontier.length; layer++) {
    const next: StoredEntity[] = [];
    for (const node of frontier) {
      let read = layer === 1 && first ? first : sideOf(graph, direction, node.entity.id);
      if (page) read = read.slice(page.from, page.from + page.size);
      for (const link of read) {
        if (seen.has(link)) continue;
        seen.add(link);
        links.push(link);
        const other = far(link, direction);
        if (other.entity.id === start.entity.id || depths.has(other.entity.id)) continue;
        depths.set(other.entity.id, { stored: other, depth: layer });
        next.push(other);
      }
    }
    frontier = next;
  }
  return { depths, links };
}

// ---- By ids: OpenMetadata's EntityLineage ----

function idEdge(link: Link): LineageEdge {
  return structuredClone({ ...link.edge, fromEntity: link.from.entity.id, toEntity: link.to.entity.id });
}

/** `GET /v1/lineage/{entity}/{id}` and `/name/{fqn}`: the root must be live; soft-deleted entities are left out. */
export function entityLineage(ctx: CatalogContext, root: StoredEntity, upstreamDepth: number, downstreamDepth: number): EntityLineage {
  const graph = graphOf(ctx, false);
  const up = walk(graph, root, 'Upstream', upstreamDepth);
  const down = walk(graph, root, 'Downstream', downstreamDepth);
  const nodes = new Map<string, EntityReference>();
  for (const { stored } of [...up.depths.values(), ...down.depths.values()]) nodes.set(stored.entity.id, referenceTo(stored.type, stored.entity));
  return {
    entity: referenceTo(root.type, root.entity),
    nodes: [...nodes.values()],
    upstreamEdges: up.links.map(idEdge),
    downstreamEdges: down.links.map(idEdge),
  };
}

// ---- The search lineage shape the web UI reads ----

/** OpenMetadata's `FullyQualifiedName.buildHash`: the MD5 of each part of the FQN, joined by dots. */
export function fqnHash(fqn: string): string {
  return splitFqn(fqn)
    .map((part) => hex(md5(part)))
    .join('.');
}

function endRef(stored: StoredEntity): SearchLineageEdge['fromEntity'] {
  return { id: stored.entity.id, type: stored.type, fullyQualifiedName: stored.entity.fullyQualifiedName, fqnHash: fqnHash(stored.entity.fullyQualifiedName) };
}

/** The entity as a search document: every field but its change descriptions, with its `entityType`. */
function searchDocument(stored: StoredEntity, fields: ReadonlySet<string> | '*'): Schemas['LineageNodeEntity'] {
  const source: Entity = stored.entity;
  const doc: Record<string, unknown> = { entityType: stored.type };
  for (const [key, value] of Object.entries(source)) {
    if (key === 'changeDescription' || key === 'incrementalChangeDescription') continue;
    if (fields !== '*' && !fields.has(key) && !ALWAYS_SHOWN.has(key)) continue;
    doc[key] = structuredClone(value);
  }
  return doc as Schemas['LineageNodeEntity'];
}

const ALWAYS_SHOWN = new Set(['id', 'name', 'fullyQualifiedName', 'entityType', 'service']);

/** `<from>--->[<pipeline type>:<pipeline id>--->]<to>`: the key of an edge in the search shape. */
function docId(from: StoredEntity, to: StoredEntity, pipeline: EntityReference | undefined): string {
  const via = pipeline ? `${pipeline.type}:${pipeline.id}--->` : '';
  return `${from.entity.fullyQualifiedName}--->${via}${to.entity.fullyQualifiedName}`;
}

function searchEdge(link: Link): SearchLineageEdge {
  const details = link.edge.lineageDetails ?? {};
  const out: SearchLineageEdge = {
    fromEntity: endRef(link.from),
    toEntity: endRef(link.to),
    docId: docId(link.from, link.to, details.pipeline),
    docUniqueId: `${link.from.entity.id}--->${link.to.entity.id}`,
  };
  if (link.pipeline) {
    out.pipeline = searchDocument(link.pipeline, '*');
    out.pipelineEntityType = link.pipeline.type;
  }
  if (details.sqlQuery !== undefined) out.sqlQuery = details.sqlQuery;
  if (details.columnsLineage?.length) out.columns = structuredClone(details.columnsLineage);
  const description = details.description ?? link.edge.description;
  if (description !== undefined) out.description = description;
  if (details.source !== undefined) out.source = details.source;
  for (const key of ['createdAt', 'createdBy', 'updatedAt', 'updatedBy', 'assetEdges'] as const) {
    if (details[key] !== undefined) (out as Record<string, unknown>)[key] = details[key];
  }
  return out;
}

export interface SearchQuery {
  upstreamDepth: number;
  downstreamDepth: number;
  includeDeleted: boolean;
  /** Slice of the links read at each entity. */
  from: number;
  size: number;
  /** Entity fields each node shows. */
  fields: ReadonlySet<string> | '*';
  /** `type=pipeline`: read the lineage through the pipeline (the edges it runs). */
  connectedVia: boolean;
  /** Only one side. */
  direction?: Direction;
}

/** The entity `getLineage` and its variants start from: by FQN, of `type` when given; 404 when there is none. */
export function findByFqn(ctx: CatalogContext, fqn: string, type: string | undefined): StoredEntity {
  const types = type !== undefined && type !== '' ? [type] : ctx.kinds.all.map((k) => k.type);
  for (const candidate of types) {
    const stored = kindNamed(ctx, candidate) ? ctx.store.getByFqn(candidate, fqn) : undefined;
    if (stored) return stored;
  }
  throw CatalogError.notFound(type || 'entity', fqn);
}

function node(graph: Graph, stored: StoredEntity, depth: number, fields: ReadonlySet<string> | '*'): LineageNode {
  return {
    entity: searchDocument(stored, fields),
    paging: { entityUpstreamCount: graph.up.get(stored.entity.id)?.length ?? 0, entityDownstreamCount: graph.down.get(stored.entity.id)?.length ?? 0 },
    nodeDepth: depth,
  };
}

/** `GET /v1/lineage/getLineage[/{direction}]`. */
export function searchLineage(ctx: CatalogContext, root: StoredEntity, query: SearchQuery): SearchLineageResult {
  const graph = graphOf(ctx, query.includeDeleted);
  const result: SearchLineageResult = { nodes: {}, upstreamEdges: {}, downstreamEdges: {} };
  result.nodes[root.entity.fullyQualifiedName] = node(graph, root, 0, query.fields);
  const page = { from: query.from, size: query.size };
  const sides: [Direction, number, Record<string, SearchLineageEdge>][] = [
    ['Upstream', query.upstreamDepth, result.upstreamEdges],
    ['Downstream', query.downstreamDepth, result.downstreamEdges],
  ];
  for (const [direction, depth, edges] of sides) {
    if (query.direction !== undefined && query.direction !== direction) continue;
    const first = query.connectedVia ? (graph.via.get(root.entity.id) ?? []) : undefined;
    const side = walk(graph, root, direction, depth, page, first);
    for (const { stored, depth: d } of side.depths.values()) {
      result.nodes[stored.entity.fullyQualifiedName] ??= node(graph, stored, direction === 'Upstream' ? -d : d, query.fields);
    }
    for (const link of side.links) {
      const edge = searchEdge(link);
      edges[edge.docId] ??= edge;
    }
  }
  return result;
}

/**
 * `GET /v1/lineage/getLineageByEntityCount`: the entities on one side up to `maxDepth` (only those
 * within `nodeDepth`, when given), nearest first then by FQN, paged by `from` / `size`; the root is
 * always a node; the edges are those between the nodes returned.
 */
export function lineageByEntityCount(
  ctx: CatalogContext,
  root: StoredEntity,
  query: { direction: Direction; maxDepth: number; nodeDepth?: number; from: number; size: number; includeDeleted: boolean; connectedVia: boolean },
): SearchLineageResult {
  const graph = graphOf(ctx, query.includeDeleted);
  const depth = query.nodeDepth === undefined ? query.maxDepth : Math.min(query.nodeDepth, query.maxDepth);
  const side = walk(graph, root, query.direction, depth, undefined, query.connectedVia ? (graph.via.get(root.entity.id) ?? []) : undefined);
  const ranked = [...side.depths.values()].sort((a, b) => a.depth - b.depth || a.stored.entity.fullyQualifiedName.localeCompare(b.stored.entity.fullyQualifiedName));
  const chosen = ranked.slice(query.from, query.from + query.size);
  const sign = query.direction === 'Upstream' ? -1 : 1;
  const result: SearchLineageResult = { nodes: {}, upstreamEdges: {}, downstreamEdges: {} };
  result.nodes[root.entity.fullyQualifiedName] = node(graph, root, 0, '*');
  const ids = new Set([root.entity.id]);
  for (const { stored, depth: d } of chosen) {
    result.nodes[stored.entity.fullyQualifiedName] = node(graph, stored, sign * d, '*');
    ids.add(stored.entity.id);
  }
  const edges = query.direction === 'Upstream' ? result.upstreamEdges : result.downstreamEdges;
  for (const link of side.links) {
    if (!ids.has(link.from.entity.id) || !ids.has(link.to.entity.id)) continue;
    const edge = searchEdge(link);
    edges[edge.docId] ??= edge;
  }
  return result;
}

/** `GET /v1/lineage/getPaginationInfo`: entities per depth on each side, each at its nearest depth. */
export function paginationInfo(ctx: CatalogContext, root: StoredEntity, upstreamDepth: number, downstreamDepth: number, includeDeleted: boolean): LineagePaginationInfo {
  const graph = graphOf(ctx, includeDeleted);
  const count = (direction: Direction, depth: number) => {
    const perDepth = new Map<number, number>();
    for (const { depth: d } of walk(graph, root, direction, depth).depths.values()) perDepth.set(d, (perDepth.get(d) ?? 0) + 1);
    const info = [...perDepth].sort(([a], [b]) => a - b).map(([d, entityCount]) => ({ depth: d, entityCount }));
    return { info, total: info.reduce((n, i) => n + i.entityCount, 0), max: info.at(-1)?.depth ?? 0 };
  };
  const up = count('Upstream', upstreamDepth);
  const down = count('Downstream', downstreamDepth);
  return {
    totalUpstreamEntities: up.total,
    totalDownstreamEntities: down.total,
    upstreamDepthInfo: up.info,
    downstreamDepthInfo: down.info,
    maxUpstreamDepth: up.max,
    maxDownstreamDepth: down.max,
  };
}

// ---- The platform view ----

export type PlatformView = 'service' | 'domain' | 'dataProduct' | 'all';

/** The entities of a view an entity belongs to: its service, its domains, its data products. */
function groupsOf(entity: Entity, view: Exclude<PlatformView, 'all'>): EntityReference[] {
  if (view === 'service') return entity.service ? [entity.service as EntityReference] : [];
  const refs = entity[view === 'domain' ? 'domains' : 'dataProducts'];
  return Array.isArray(refs) ? (refs as EntityReference[]) : [];
}

/** The entities shown as nodes of a view: every service, domain or data product. */
function isViewEntity(ctx: CatalogContext, stored: StoredEntity, view: Exclude<PlatformView, 'all'>): boolean {
  if (view === 'service') return kindNamed(ctx, stored.type)?.collection.startsWith('services/') ?? false;
  return stored.type === view;
}

/**
 * `GET /v1/lineage/getPlatformLineage` (OpenMetadata's extended lineage): between services,
 * domains or data products, an edge where an asset edge joins assets of two different ones
 * (`assetEdges` counts them, `source: ChildAssets`); `all`: every entity at an end of an edge.
 */
export function platformLineage(ctx: CatalogContext, view: PlatformView, includeDeleted: boolean): SearchLineageResult {
  const graph = graphOf(ctx, includeDeleted);
  const result: SearchLineageResult = { nodes: {}, upstreamEdges: {}, downstreamEdges: {} };
  const links = [...graph.down.values()].flat();
  if (view === 'all') {
    for (const link of links) {
      for (const end of [link.from, link.to]) result.nodes[end.entity.fullyQualifiedName] ??= node(graph, end, 0, '*');
      const edge = searchEdge(link);
      result.upstreamEdges[edge.docId] ??= edge;
    }
    return result;
  }
  const counts = new Map<string, { from: StoredEntity; to: StoredEntity; assetEdges: number; first: Link }>();
  for (const link of links) {
    for (const a of groupsOf(link.from.entity, view)) {
      for (const b of groupsOf(link.to.entity, view)) {
        if (a.id === b.id) continue;
        const from = ctx.store.get(a.id);
        const to = ctx.store.get(b.id);
        if (!from || !to) continue;
        const key = `${a.id}>${b.id}`;
        const entry = counts.get(key);
        if (entry) entry.assetEdges++;
        else counts.set(key, { from, to, assetEdges: 1, first: link });
      }
    }
  }
  const groupGraph: Graph = { down: new Map(), up: new Map(), via: new Map() };
  for (const { from, to } of counts.values()) {
    const link: Link = { from, to, edge: { fromEntity: from.entity.id, toEntity: to.entity.id }, pipeline: undefined };
    push(groupGraph.down, from.entity.id, link);
    push(groupGraph.up, to.entity.id, link);
  }
  for (const stored of ctx.store.all()) {
    if ((includeDeleted || !stored.entity.deleted) && isViewEntity(ctx, stored, view)) result.nodes[stored.entity.fullyQualifiedName] = node(groupGraph, stored, 0, '*');
  }
  for (const { from, to, assetEdges, first } of counts.values()) {
    const details = first.edge.lineageDetails;
    const edge: SearchLineageEdge = {
      fromEntity: endRef(from),
      toEntity: endRef(to),
      docId: docId(from, to, undefined),
      docUniqueId: `${from.entity.id}--->${to.entity.id}`,
      source: 'ChildAssets',
      assetEdges,
      ...(details?.createdAt !== undefined ? { createdAt: details.createdAt, createdBy: details.createdBy } : {}),
    };
    result.upstreamEdges[edge.docId] = edge;
  }
  return result;
}

// ---- Failing tests upstream ----

/** Ids of the entities that have a test case whose latest result failed. */
function failingEntities(ctx: CatalogContext): Set<string> {
  const failing = new Set<string>();
  for (const testCase of ctx.store.ofType('testCase')) {
    if (testCase.entity.deleted || latestTestCaseResult(ctx, testCase.entity.id)?.testCaseStatus !== 'Failed') continue;
    const link = readEntityLink(testCase.entity.entityLink);
    const target = link && kindNamed(ctx, link.type) ? ctx.store.getByFqn(link.type, link.fqn) : undefined;
    if (target) failing.add(target.entity.id);
  }
  return failing;
}

/**
 * `GET /v1/lineage/getDataQualityLineage` (OpenMetadata's `searchDataQualityLineage`): among the
 * entities up to `upstreamDepth` + 1 hops upstream, those with a failing test, and the edges
 * from each of them down towards the root.
 */
export function dataQualityLineage(ctx: CatalogContext, root: StoredEntity, upstreamDepth: number, includeDeleted: boolean): DataQualityLineage {
  const graph = graphOf(ctx, includeDeleted);
  const up = walk(graph, root, 'Upstream', upstreamDepth + 1);
  const failing = failingEntities(ctx);
  const inGraph = new Set([root.entity.id, ...up.depths.keys()]);
  const downFrom = new Map<string, Link[]>();
  for (const link of up.links) push(downFrom, link.from.entity.id, link);
  const nodes: DataQualityLineage['nodes'] = [];
  const edges = new Map<string, SearchLineageEdge>();
  const visited = new Set<string>();
  const trace = (id: string): void => {
    if (visited.has(id)) return;
    visited.add(id);
    if (failing.has(id)) nodes.push(searchDocument(ctx.store.get(id)!, '*'));
    for (const link of downFrom.get(id) ?? []) {
      const edge = searchEdge(link);
      edges.set(edge.docId, edge);
      trace(link.to.entity.id);
    }
  };
  for (const id of inGraph) if (failing.has(id)) trace(id);
  return { nodes, edges: [...edges.values()] };
}

/** The links of the graph `searchLineage` reads, upstream ones first (the CSV export). */
export function lineageLinks(
  ctx: CatalogContext,
  root: StoredEntity,
  query: SearchQuery,
): { from: StoredEntity; to: StoredEntity; edge: LineageEdge; pipeline: StoredEntity | undefined }[] {
  const graph = graphOf(ctx, query.includeDeleted);
  const first = query.connectedVia ? (graph.via.get(root.entity.id) ?? []) : undefined;
  const up = walk(graph, root, 'Upstream', query.upstreamDepth, undefined, first);
  const down = walk(graph, root, 'Downstream', query.downstreamDepth, undefined, first);
  return [...up.links, ...down.links];
}
