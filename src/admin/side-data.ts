/**
 * The data kept beside entities, in the state export (issue 6 "Admin API" export/import and
 * `--data` persistence): table profiler configs, sample data and profiles (table-data.ts), test
 * case results (test-case-results.ts) and data contract results (data-contracts.ts). Each is keyed
 * by the id of its entity. An import checks every item against its schema in the document and its
 * key against the exported entities before anything is replaced, so a bad file changes nothing.
 */
import type { CatalogContext } from '../domain/context.ts';
import type { DataContractResult } from '../domain/data-contracts.ts';
import { clearContractResults, exportContractResults, importContractResults } from '../domain/data-contracts.ts';
import type { TableSideDataJson } from '../domain/table-data.ts';
import { clearTableData, exportTableData, importTableData } from '../domain/table-data.ts';
import type { TestCaseResult } from '../domain/test-case-results.ts';
import { clearTestCaseResults, exportTestCaseResults, importTestCaseResults } from '../domain/test-case-results.ts';
import { ApiError } from '../http/errors.ts';

export interface SideDataJson {
  tables: TableSideDataJson;
  testCaseResults: Record<string, TestCaseResult[]>;
  contractResults: Record<string, DataContractResult[]>;
}

export function exportSideData(ctx: CatalogContext): SideDataJson {
  return { tables: exportTableData(ctx), testCaseResults: exportTestCaseResults(ctx), contractResults: exportContractResults(ctx) };
}

export function clearSideData(ctx: CatalogContext): void {
  clearTableData(ctx);
  clearTestCaseResults(ctx);
  clearContractResults(ctx);
}

/** Checks an export's side data against the entity types it names (id → type); throws 400. */
export function checkSideData(ctx: CatalogContext, value: unknown, typeOf: ReadonlyMap<string, string>): SideDataJson {
  if (value === undefined) return { tables: {}, testCaseResults: {}, contractResults: {} };
  const side = record(value, 'sideData');
  const tables = record(side.tables ?? {}, 'sideData.tables');
  const testCaseResults = record(side.testCaseResults ?? {}, 'sideData.testCaseResults');
  const contractResults = record(side.contractResults ?? {}, 'sideData.contractResults');
  const check = (schema: string, item: unknown, where: string) => {
    const problems = ctx.validators.validate(schema, item);
    if (problems.length) throw ApiError.badRequest(`${where}: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  };
  const keyOf = (id: string, type: string, where: string) => {
    if (typeOf.get(id) !== type) throw ApiError.badRequest(`${where}: ${id} is not the id of an exported ${type}`);
  };
  for (const [id, raw] of Object.entries(tables)) {
    const where = `sideData.tables.${id}`;
    keyOf(id, 'table', where);
    const data = record(raw, where);
    if (data.profilerConfig !== undefined) check('TableProfilerConfig', data.profilerConfig, `${where}.profilerConfig`);
    if (data.sampleData !== undefined) check('TableData', data.sampleData, `${where}.sampleData`);
    for (const [list, schema] of [['tableProfiles', 'TableProfile'], ['columnProfiles', 'ColumnProfile'], ['systemProfiles', 'SystemProfile']] as const) {
      data[list] ??= [];
      for (const item of array(data[list], `${where}.${list}`)) check(schema, item, `${where}.${list}`);
    }
  }
  for (const [id, list] of Object.entries(testCaseResults)) {
    keyOf(id, 'testCase', `sideData.testCaseResults.${id}`);
    for (const item of array(list, `sideData.testCaseResults.${id}`)) check('TestCaseResult', item, `sideData.testCaseResults.${id}`);
  }
  for (const [id, list] of Object.entries(contractResults)) {
    keyOf(id, 'dataContract', `sideData.contractResults.${id}`);
    for (const item of array(list, `sideData.contractResults.${id}`)) check('DataContractResult', item, `sideData.contractResults.${id}`);
  }
  return { tables, testCaseResults, contractResults } as unknown as SideDataJson;
}

/** Replaces the side data with checked data; lists are kept in ascending timestamp order. */
export function importSideData(ctx: CatalogContext, side: SideDataJson): void {
  const byTime = <T extends { timestamp: number }>(list: T[]) => [...list].sort((a, b) => a.timestamp - b.timestamp);
  const sorted = <T extends { timestamp: number }>(lists: Record<string, T[]>) => Object.fromEntries(Object.entries(lists).map(([id, list]) => [id, byTime(list)]));
  importTableData(
    ctx,
    Object.fromEntries(
      Object.entries(side.tables).map(([id, d]) => [id, { ...d, tableProfiles: byTime(d.tableProfiles), columnProfiles: byTime(d.columnProfiles), systemProfiles: byTime(d.systemProfiles) }]),
    ),
  );
  importTestCaseResults(ctx, sorted(side.testCaseResults));
  importContractResults(ctx, sorted(side.contractResults));
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ApiError.badRequest(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function array(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw ApiError.badRequest(`${where} must be an array`);
  return value;
}
