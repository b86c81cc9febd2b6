/**
 * A `csv` hook (src/core/csv-hook.ts) whose rows are the columns of the scope entity, nested columns
 * after their parent (OpenMetadata's `TableRepository.TableCsv`; docs/behaviour.md "CSV import and
 * export"). A row names its column by its path under the entity (`address.zipcode`, a part with a
 * dot quoted as in FQNs). A path the entity has updates that column; a new path adds a column, at
 * the end of its parent's (a nested one needs its parent on an earlier row or already there). The
 * rows become one JSON Patch of the entity's columns, so one import is one new version.
 */
import type { CatalogContext } from '../../core/context.ts';
import type { Schemas, TagLabel } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import { patchEntity } from '../../core/lifecycle.ts';
import { resolveTagLabels } from '../../core/references.ts';
import { detailsText } from '../../openapi/validation-details.ts';
import { quoteName, splitFqn } from '../../core/fqn.ts';
import type { LabelCell } from './cells.ts';
import { fieldError, inCurrentOrder, labelsCell, readLabels, textOf } from './cells.ts';
import { scopeOf } from './entity-rows.ts';
import type { CsvColumn, CsvHook, RowOutcome } from '../../core/csv-hook.ts';

/** A column as a row builds it: its type may still be missing (the required cell says so first). */
type Column = Omit<Schemas['Column'], 'dataType' | 'children'> & { dataType?: string; children?: Column[] };

/** What a row's cells are read into. */
interface Target {
  readonly ctx: CatalogContext;
  readonly column: Column;
  readonly labels: TagLabel[];
}

/** One CSV column: how a column writes it, and how a cell is read back into the column. */
interface ColumnCell {
  write(column: Column): string;
  read(cell: string, index: number, into: Target): void;
}

const text = (field: 'displayName' | 'description' | 'dataTypeDisplay' | 'dataType' | 'arrayDataType'): ColumnCell => ({
  write: (column) => column[field] ?? '',
  read: (cell, _index, { column }) => {
    const value = textOf(cell);
    if (value === undefined) delete column[field];
    else column[field] = value;
  },
});

const labels = (kind: LabelCell): ColumnCell => ({
  write: (column) => labelsCell(column.tags, kind),
  read: (cell, index, { ctx, labels: into }) => void into.push(...readLabels(ctx, cell, kind, index)),
});

/** OpenMetadata's column cells, by header name (`tableCsvDocumentation.json`); `column.name` is the path. */
const COLUMN_CELLS: Readonly<Record<string, ColumnCell>> = {
  'column.name': { write: () => '', read: () => undefined },
  'column.displayName': text('displayName'),
  'column.description': text('description'),
  'column.dataTypeDisplay': text('dataTypeDisplay'),
  'column.dataType': text('dataType'),
  'column.arrayDataType': text('arrayDataType'),
  'column.dataLength': {
    write: (column) => (column.dataLength === undefined ? '' : String(column.dataLength)),
    read: (cell, index, { column }) => {
      if (cell === '') return void delete column.dataLength;
      if (!/^\d+$/.test(cell.trim())) throw fieldError(index, `dataLength ${cell} is not a whole number`);
      column.dataLength = Number(cell.trim());
    },
  },
  // Every classification tag (a column has no tiers cell), and the glossary terms.
  'column.tags': labels('allTags'),
  'column.glossaryTerms': labels('glossaryTerms'),
};

export interface ColumnRowsSpec {
  /** The entity field holding the columns. */
  readonly field: string;
  /** The component schema of one column (checked on each row). */
  readonly schema: string;
  /** The header names, in order (`column.name` first). */
  readonly columns: readonly CsvColumn[];
}

/** `a`, `a.b`, `"x.y".c`: a column's path under its entity. */
const pathOf = (parent: string | undefined, name: string): string => (parent === undefined ? quoteName(name) : `${parent}.${quoteName(name)}`);

/** Every column by its path (`a`, `a.b`): a row finds its column, or its new column's parent, at once (a file may hold thousands). */
function byPath(columns: readonly Column[]): Map<string, Column> {
  const paths = new Map<string, Column>();
  const visit = (level: readonly Column[] | undefined, parent: string | undefined): void => {
    for (const column of level ?? []) {
      const path = pathOf(parent, column.name);
      if (!paths.has(path)) paths.set(path, column);
      visit(column.children, path);
    }
  };
  visit(columns, undefined);
  return paths;
}

/** The hook of a kind whose CSV rows are the columns in its `spec.field`. */
export function columnRowsCsv(spec: ColumnRowsSpec): CsvHook {
  const cells = spec.columns.map(({ name }) => {
    const cell = COLUMN_CELLS[name];
    if (!cell) throw new Error(`CSV column ${name} is not a column cell (${Object.keys(COLUMN_CELLS).join(', ')})`);
    return cell;
  });
  const pathAt = spec.columns.findIndex(({ name }) => name === 'column.name');
  if (pathAt === -1) throw new Error('a column CSV needs a column.name column');

  return {
    columns: spec.columns,
    check: (call) => void scopeOf(call),
    exportRows(call) {
      const rows: string[][] = [];
      const visit = (columns: readonly Column[] | undefined, parent: string | undefined): void => {
        for (const column of columns ?? []) {
          const path = pathOf(parent, column.name);
          rows.push(cells.map((cell, i) => (i === pathAt ? path : cell.write(column))));
          visit(column.children, path);
        }
      };
      visit(scopeOf(call).entity[spec.field] as Column[] | undefined, undefined);
      return rows;
    },
    importRows(call, rows) {
      const { ctx, kind, user } = call;
      const scope = scopeOf(call);
      const columns = structuredClone((scope.entity[spec.field] as Column[] | undefined) ?? []);
      const paths = byPath(columns);
      const outcomes: RowOutcome[] = rows.map((row) => {
        try {
          const parts = splitFqn(row.cells[pathAt]!.trim());
          const path = parts.map(quoteName).join('.');
          let column = paths.get(path);
          if (!column) {
            const parent = parts.length === 1 ? undefined : paths.get(parts.slice(0, -1).map(quoteName).join('.'));
            if (parts.length > 1 && !parent) throw CatalogError.badRequest('Parent Column not found. Check the order of the columns in the CSV file.');
            column = { name: parts[parts.length - 1]! };
            if (parent) (parent.children ??= []).push(column);
            else columns.push(column);
            paths.set(path, column);
          }
          const labels: TagLabel[] = [];
          cells.forEach((cell, i) => cell.read(row.cells[i]!, i, { ctx, column, labels }));
          if (labels.length) column.tags = inCurrentOrder(column.tags, resolveTagLabels(ctx, labels));
          else delete column.tags;
          const problems = ctx.validators.validate(spec.schema, column);
          if (problems.length) throw CatalogError.badRequest(`Invalid column ${row.cells[pathAt]}: ${detailsText(problems)}`, problems);
          // OpenMetadata reports every row of a table import as an update.
          return { created: false };
        } catch (error) {
          if (error instanceof CatalogError) return { error: error.message };
          throw error;
        }
      });
      if (outcomes.some((outcome) => 'error' in outcome)) return outcomes;
      try {
        patchEntity(ctx, kind, scope, [{ op: 'add', path: `/${spec.field}`, value: columns }], user);
      } catch (error) {
        // One write for all the rows: its failure is every row's.
        if (error instanceof CatalogError) return rows.map(() => ({ error: error.message }));
        throw error;
      }
      return outcomes;
    },
  };
}
