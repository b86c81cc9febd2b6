/**
 * The data kept beside entities in the state export (`sideData`: the Admin API's export/import and
 * the `--data` file). The store holds it and writes the export (src/core/side-data.ts lists the
 * areas: profiler configs, sample data and profiles of tables, test case results, data contract
 * results). An import is checked here first, area by area as each was declared: every value (every
 * item of a series) against its schema in the document, every key against the exported entities of
 * the area's owner type; anything wrong is a 400 before the state is touched, so a bad file changes
 * nothing.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { DataContractResult } from '../../features/data-contracts/data-contracts.ts';
import type { TableSideData } from '../../features/table-data/table-data.ts';
import type { TestCaseResult } from '../../features/data-quality/test-case-results.ts';
import { ApiError } from '../../http/errors.ts';
import { detailsText } from '../../openapi/validation-details.ts';
import type { SideData, SideDataExport } from '../../core/side-data.ts';
import { ANY_ENTITY, declaredSideData, ownerHolds } from '../../core/side-data.ts';

/** The export's side data, with the types of the groups the server declares. */
export interface SideDataJson extends SideDataExport {
  tables: Record<string, TableSideData>;
  testCaseResults: Record<string, TestCaseResult[]>;
  contractResults: Record<string, DataContractResult[]>;
}

/** Checks an export's side data against the entity types it names (id → type); throws 400. */
export function checkSideData(ctx: CatalogContext, value: unknown, typeOf: ReadonlyMap<string, string>): SideDataExport {
  if (value === undefined) return {};
  const side = record(value, 'sideData');
  const groups = new Map<string, SideData<unknown>[]>();
  for (const area of declaredSideData()) groups.set(area.group, [...(groups.get(area.group) ?? []), area]);
  const check = (schema: string, item: unknown, where: string) => {
    const problems = ctx.validators.validate(schema, item);
    if (problems.length) throw ApiError.badRequest(`${where}: ${detailsText(problems, '; ')}`);
  };
  const checkValue = (area: SideData<unknown>, raw: unknown, where: string) => {
    if (!area.series) return check(area.schema, raw, where);
    for (const item of array(raw, where)) check(area.schema, item, where);
  };
  for (const [group, areas] of groups) {
    const entries = record(side[group] ?? {}, `sideData.${group}`);
    const owner = areas[0]!.owner;
    for (const [id, raw] of Object.entries(entries)) {
      const where = `sideData.${group}.${id}`;
      if (!ownerHolds(owner, typeOf.get(id))) throw ApiError.badRequest(`${where}: ${id} is not the id of an exported ${owner === ANY_ENTITY ? 'entity' : owner}`);
      if (areas[0]!.field === undefined) {
        checkValue(areas[0]!, raw, where);
        continue;
      }
      const fields = record(raw, where);
      for (const area of areas) {
        if (fields[area.field!] !== undefined) checkValue(area, fields[area.field!], `${where}.${area.field!}`);
      }
    }
  }
  return side as SideDataExport;
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ApiError.badRequest(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function array(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw ApiError.badRequest(`${where} must be an array`);
  return value;
}
