/**
 * What a kind says about its CSV (docs/behaviour.md "CSV import and export"): the `csv` hook of
 * `Kind` (src/core/context.ts). The kind that has one is the *scope* of the CSV: `GET
 * /v1/<collection>/name/<fqn>/export` writes what lies in the entity `<fqn>` of that kind (a
 * database's schemas, a table's columns...), one row each, and the import reads the same rows back.
 * The engine (src/features/csv/engine.ts) does the rest for every kind alike: parsing, the header line, field
 * counts, required cells, the result CSV, dry runs and all-or-nothing.
 */
import type { CatalogContext, Kind } from './context.ts';

/** One column of a kind's CSV, as OpenMetadata's `<kind>CsvDocumentation.json` lists it. */
export interface CsvColumn {
  readonly name: string;
  /** An empty cell fails the row; the header line marks the column with `*`. */
  readonly required?: boolean;
}

/** A row of the CSV: its cells in column order (as many as there are columns) and its place in the file. */
export interface CsvRow {
  readonly cells: readonly string[];
  /** The row's number in the file, the header line being 1. */
  readonly number: number;
}

/** What became of one row: written (`created` or updated), or refused with a reason. */
export type RowOutcome = { readonly created: boolean } | { readonly error: string };

/** What an export or import is called with. */
export interface CsvCall {
  readonly ctx: CatalogContext;
  /** The kind the hook belongs to: the kind of the entity `name` names. */
  readonly kind: Kind;
  /** The `{fqn}` of the path: the entity whose contents are exported or imported. */
  readonly name: string;
  /**
   * The rows are checked, not written: a hook whose rows stand alone does everything a write of
   * them checks and stores nothing (its outcomes are those the write would have).
   */
  readonly checkOnly?: boolean;
}

export interface CsvHook {
  /** The columns, in order. */
  readonly columns: readonly CsvColumn[];
  /**
   * Each row writes an entity of its own, whatever the other rows say (a schema's tables, test
   * cases): the engine may check the rows (`checkOnly`) and write them a few at a time, serving
   * other requests between (src/features/csv/engine.ts). Without it every row goes in one call (a table's
   * columns: one patch).
   */
  readonly rowsStandAlone?: boolean;
  /** Throws the `CatalogError` of a `name` that names nothing to export or import into (404), before anything is read. */
  check(call: CsvCall): void;
  /**
   * The rows of the entity `name` names, as cells in column order. An entity that does not exist
   * is a `CatalogError` (404), not an empty CSV.
   */
  exportRows(call: CsvCall): string[][];
  /**
   * Writes the rows (each with the right number of cells and its required cells filled) into the
   * catalog, in order, through the lifecycle; returns one outcome per row. A row that cannot be
   * written is an outcome with its reason, not an exception: an exception is for the call as a
   * whole (the entity `name` does not exist). The engine undoes every write when a row failed or
   * the import is a dry run, so the hook writes as if for good.
   */
  importRows(call: CsvCall & { readonly user: string }, rows: readonly CsvRow[]): RowOutcome[];
}
