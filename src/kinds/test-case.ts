/**
 * Test cases: a test definition run against an entity or one of its columns, named by an entity
 * link `<#E::<type>::<fqn>[::columns::<column>]>`. Its FQN is `<entity FQN>[.<column>].<name>`;
 * `testCaseResult` is its newest result (src/features/data-quality/test-case-results.ts), and its results go with
 * it (the store drops an entity's side data with it). A test case cannot outlive the entity it tests: removed for good with it.
 * Its CSV is the test cases of a table, a test suite or the whole catalog (`testCaseCsv`).
 */
import { eachRow, fieldError, joinList, labelsCell, readLabels, splitList, textOf } from '../features/csv/cells.ts';
import { writeEntity } from '../features/csv/entity-rows.ts';
import type { CsvCall, CsvHook } from '../core/csv-hook.ts';
import type { CatalogContext } from '../core/context.ts';
import type { CreateRequest, Entity, EntityReference, Schemas } from '../core/entity.ts';
import { referenceTo } from '../core/entity.ts';
import { CatalogError } from '../core/errors.ts';
import { parseEntityLink, readEntityLink } from '../core/entity-link.ts';
import { findLive, resolveTagLabels } from '../core/references.ts';
import { latestTestCaseResult, testCaseStatuses } from '../features/data-quality/test-case-results.ts';
import { addToFqn, quoteName, splitFqn } from '../core/fqn.ts';
import type { StoredEntity } from '../core/entity-store.ts';
import { governed } from './shapes.ts';

type ParameterValue = Schemas['TestCaseParameterValue'];

/** The test cases `name` names: those of a table (its columns' included), of a test suite, or all of them (`*`). */
function testCasesOf({ ctx, name }: CsvCall): StoredEntity[] {
  const live = [...ctx.store.ofType('testCase')].filter((tc) => !tc.entity.deleted);
  if (name === '*') return live;
  const table = ctx.store.getByFqn('table', name);
  if (table && !table.entity.deleted) return live.filter((tc) => readEntityLink(tc.entity.entityLink)?.fqn === name);
  const suite = ctx.store.getByFqn('testSuite', name);
  if (suite && !suite.entity.deleted) return live.filter((tc) => (tc.entity.testSuite as EntityReference | undefined)?.id === suite.entity.id);
  // OpenMetadata's `TestCaseRepository.getTestCasesForExport` text.
  throw CatalogError.badRequest(`Entity '${name}' not found. Please provide a valid table FQN, test suite FQN, or '*' for platform-wide export.`);
}

/** `{"name":"minValue","value":"1"};{"name":"maxValue","value":"10"}`, as OpenMetadata writes them. */
const parameterValuesCell = (values: unknown): string => joinList(((values as ParameterValue[] | undefined) ?? []).map((value) => JSON.stringify(value)));

function readParameterValues(cell: string, index: number): ParameterValue[] | undefined {
  const items = splitList(cell);
  if (!items.length) return undefined;
  return items.map((item) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(item);
    } catch {
      parsed = undefined;
    }
    const { name, value } = (parsed ?? {}) as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || name === '') throw fieldError(index, `parameter value ${item} is not {"name": ..., "value": ...}`);
    return value === undefined ? { name } : { name, value: typeof value === 'string' ? value : JSON.stringify(value) };
  });
}

/** The entity link of a table FQN, or of a column FQN (`<table FQN>.<column>`); 404-like field error when there is no such table. */
function linkOf(ctx: CatalogContext, entityFqn: string, index: number): string {
  const table = ctx.store.getByFqn('table', entityFqn);
  if (table && !table.entity.deleted) return `<#E::table::${entityFqn}>`;
  const parts = splitFqn(entityFqn);
  const tableFqn = parts.slice(0, -1).map(quoteName).join('.');
  const owner = parts.length > 1 ? ctx.store.getByFqn('table', tableFqn) : undefined;
  if (!owner || owner.entity.deleted) throw fieldError(index, `Entity ${entityFqn} of type table not found`);
  return `<#E::table::${tableFqn}::columns::${parts[parts.length - 1]}>`;
}

/** A live entity of `type` by FQN as a reference, or the row's field error. */
function referenceOf(ctx: CatalogContext, type: string, fqn: string, index: number): EntityReference {
  const found = ctx.store.getByFqn(type, fqn);
  if (!found || found.entity.deleted) throw fieldError(index, `Entity ${fqn} of type ${type} not found`);
  return referenceTo(type, found.entity);
}

/** OpenMetadata's test case columns (`testCaseCsvDocumentation.json`, `TestCaseRepository.TestCaseCsv`). */
const COLUMNS = [
  { name: 'name', required: true },
  { name: 'displayName' },
  { name: 'description' },
  { name: 'testDefinition', required: true },
  { name: 'entityFQN', required: true },
  { name: 'testSuite' },
  { name: 'parameterValues' },
  { name: 'computePassedFailedRowCount' },
  { name: 'useDynamicAssertion' },
  { name: 'inspectionQuery' },
  { name: 'tags' },
  { name: 'glossaryTerms' },
] as const;
/** Columns of OpenMetadata's test cases this catalog does not keep: exported empty, and must be empty on import. */
const NOT_KEPT = [7, 8, 9];

const testCaseCsv: CsvHook = {
  columns: COLUMNS,
  rowsStandAlone: true,
  check: (call) => void testCasesOf(call),
  exportRows(call) {
    return testCasesOf(call)
      .sort((a, b) => (a.entity.fullyQualifiedName < b.entity.fullyQualifiedName ? -1 : 1))
      .map(({ entity }: { entity: Entity }) => [
        entity.name,
        entity.displayName ?? '',
        entity.description ?? '',
        (entity.testDefinition as EntityReference | undefined)?.fullyQualifiedName ?? '',
        typeof entity.entityFQN === 'string' ? entity.entityFQN : '',
        (entity.testSuite as EntityReference | undefined)?.fullyQualifiedName ?? '',
        parameterValuesCell(entity.parameterValues),
        '',
        '',
        '',
        labelsCell(entity.tags, 'allTags'),
        labelsCell(entity.tags, 'glossaryTerms'),
      ]);
  },
  importRows(call, rows) {
    const { ctx, user } = call;
    const kind = ctx.kinds.of('testCase');
    return eachRow(rows, ({ cells }) => {
      const [name, displayName, description, testDefinition, entityFqn, testSuite, parameterValues] = cells as string[];
      for (const index of NOT_KEPT) if (cells[index] !== '') throw fieldError(index, `${COLUMNS[index]!.name} is not kept by this server: leave the cell empty`);
      const entityLink = linkOf(ctx, entityFqn!, 4);
      const fields: Record<string, unknown> = {
        displayName: textOf(displayName!),
        description: textOf(description!),
        testDefinition: referenceOf(ctx, 'testDefinition', testDefinition!, 3),
        testSuite: testSuite ? referenceOf(ctx, 'testSuite', testSuite, 5) : undefined,
        parameterValues: readParameterValues(parameterValues!, 6),
        tags: resolveTagLabels(ctx, [...readLabels(ctx, cells[10]!, 'allTags', 10), ...readLabels(ctx, cells[11]!, 'glossaryTerms', 11)]),
      };
      const request: CreateRequest = { name: name!, entityLink, testDefinition: testDefinition! };
      for (const field of ['displayName', 'description', 'parameterValues', 'tags'] as const) {
        const value = fields[field];
        if (value !== undefined && !(Array.isArray(value) && value.length === 0)) (request as Record<string, unknown>)[field] = value;
      }
      if (testSuite) request.testSuite = testSuite;
      const link = parseEntityLink(entityLink);
      const fqn = addToFqn(link.column !== undefined ? addToFqn(link.fqn, link.column) : link.fqn, name!);
      return writeEntity(ctx, kind, fqn, request, fields, user, call.checkOnly);
    });
  },
};

export const testCase = governed('testCase', 'dataQuality/testCases', 'TestCase', {
  refFields: {
    testDefinition: { kinds: ['testDefinition'], by: 'fqn' },
    testSuite: { kinds: ['testSuite'], by: 'fqn' },
  },
  relationshipFields: ['testCaseResult'],
  listFilters: {
    // One status or several (repeated), by the newest result (docs/behaviour.md "Data quality").
    testCaseStatus: (value, ctx) => {
      const wanted = testCaseStatuses(value);
      return wanted ? (entity) => wanted.has(latestTestCaseResult(ctx, entity.id)?.testCaseStatus ?? '') : undefined;
    },
  },
  // A test case is named under the entity (and column) it tests.
  fqn(request, entity, ctx) {
    const link = parseEntityLink(String(request.entityLink));
    const target = findLive(ctx, [link.type], 'fqn', link.fqn);
    if (link.column !== undefined) {
      const columns = (target.entity.columns as { name: string }[] | undefined) ?? [];
      if (!columns.some((c) => c.name === link.column)) throw CatalogError.badRequest(`Invalid column name ${link.column}`);
    }
    entity.entityFQN = link.column !== undefined ? addToFqn(link.fqn, link.column) : link.fqn;
    return addToFqn(String(entity.entityFQN), request.name);
  },
  extraFields: { testCaseResult: (stored, ctx) => structuredClone(latestTestCaseResult(ctx, stored.entity.id)) },
  dependentsOf(removed, ctx) {
    return [...ctx.store.ofType('testCase')].filter((tc) => {
      const target = readEntityLink(tc.entity.entityLink);
      return target?.type === removed.type && target.fqn === removed.entity.fullyQualifiedName;
    });
  },
  csv: testCaseCsv,
});
