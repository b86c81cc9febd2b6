/**
 * Lineage in a fixture file (README.md "Your own fixtures"; docs/behaviour.md "Lineage"):
 *
 *   { "lineage": [<AddLineage>, …] }
 *
 * each body what `PUT /v1/lineage` takes, ends named with `{"$ref": "<type>:<fqn>"}`, replayed
 * through the same function as the API (src/lineage/edges.ts), checked against its schema first.
 */
import type { CatalogContext } from '../domain/context.ts';
import { resolvePlaceholders } from '../fixtures/placeholders.ts';
import { detailsText } from '../openapi/validation-details.ts';
import type { AddLineage } from './edges.ts';
import { addEdge } from './edges.ts';

export interface LineageFile {
  user?: string;
  lineage?: unknown[];
}

/** Adds a file's edges; returns how many. */
export function loadLineage(ctx: CatalogContext, file: LineageFile, now: number, check: boolean): number {
  for (const [i, raw] of (file.lineage ?? []).entries()) {
    const body = resolvePlaceholders(ctx, raw, now);
    const problems = check ? ctx.validators.validate('AddLineage', body) : [];
    if (problems.length) throw new Error(`lineage[${i}]: ${detailsText(problems, '; ')}`);
    addEdge(ctx, body as AddLineage, file.user ?? 'admin');
  }
  return file.lineage?.length ?? 0;
}
