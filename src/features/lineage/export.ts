/**
 * The lineage CSV (docs/behaviour.md "Lineage"; OpenMetadata's `LineageRepository.exportCsvAsync`):
 * one row per column mapping of an edge, else one row with the edge's pipeline, else one row for
 * the edge, with OpenMetadata's twenty columns. Owners are their display names joined by `;`
 * (OpenMetadata's `getOwners`), a domain its FQN.
 */
import { stringify } from 'csv-stringify/sync';
import type { CatalogContext } from '../../core/context.ts';
import type { Entity, EntityReference } from '../../core/entity.ts';
import type { StoredEntity } from '../../core/entity-store.ts';
import type { SearchQuery } from './graph.ts';
import { lineageLinks } from './graph.ts';

const LINEAGE_CSV_HEADERS = [
  'fromEntityFQN',
  'fromServiceName',
  'fromServiceType',
  'fromOwners',
  'fromDomain',
  'toEntityFQN',
  'toServiceName',
  'toServiceType',
  'toOwners',
  'toDomain',
  'fromChildEntityFQN',
  'toChildEntityFQN',
  'pipelineName',
  'pipelineDisplayName',
  'pipelineType',
  'pipelineDescription',
  'pipelineOwners',
  'pipelineDomain',
  'pipelineServiceName',
  'pipelineServiceType',
] as const;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function owners(entity: Entity): string {
  return ((entity.owners as EntityReference[] | undefined) ?? [])
    .map((owner) => owner.displayName ?? '')
    .filter((name) => name !== '')
    .join(';');
}

function domain(entity: Entity): string {
  return text((entity.domains as EntityReference[] | undefined)?.[0]?.fullyQualifiedName);
}

function serviceName(entity: Entity): string {
  return text((entity.service as EntityReference | undefined)?.name);
}

/** The five columns that describe one end of an edge. */
function end(stored: StoredEntity): string[] {
  const e = stored.entity;
  return [e.fullyQualifiedName, serviceName(e), text(e.serviceType), owners(e), domain(e)];
}

export function lineageCsv(ctx: CatalogContext, root: StoredEntity, query: SearchQuery): string {
  const rows: string[][] = [[...LINEAGE_CSV_HEADERS]];
  for (const { from, to, edge, pipeline } of lineageLinks(ctx, root, query)) {
    const base = [...end(from), ...end(to)];
    const mappings = (edge.lineageDetails?.columnsLineage ?? []).flatMap((m) => (m.toColumn ? (m.fromColumns ?? []).map((column) => [column, m.toColumn!]) : []));
    if (mappings.length) {
      for (const [fromColumn, toColumn] of mappings) rows.push([...base, fromColumn!, toColumn!, ...Array<string>(8).fill('')]);
    } else if (pipeline) {
      const p = pipeline.entity;
      rows.push([...base, '', '', p.name, text(p.displayName), text(p.serviceType), text(p.description), owners(p), domain(p), serviceName(p), text(p.serviceType)]);
    } else {
      rows.push([...base, ...Array<string>(10).fill('')]);
    }
  }
  return stringify(rows);
}
