/**
 * CSV export and import for every kind with a `csv` hook (src/core/csv-hook.ts; docs/behaviour.md "CSV
 * import and export"), after OpenMetadata's `EntityCsv` and `CsvUtil`: the header line names the
 * hook's columns (required ones marked `*`), lines end in CRLF, and a cell is quoted only when it
 * must be (csv-stringify and csv-parse, RFC 4180).
 *
 * An import reads the whole file first: a body that is not CSV at all is refused (400 with the
 * line); a header line other than the expected one aborts the import (`status: aborted`); a row
 * with too few or too many cells, or an empty required cell, fails that row. The other rows go to
 * the hook, which writes them through the lifecycle. Then the store is put back (src/features/csv/savepoint.ts)
 * when the import is a dry run or any row failed: an import is all or nothing (OpenMetadata keeps
 * the rows that passed; here a failing row changes nothing, and the rows that passed are `skipped`).
 * The whole import is one synchronous step, so no other request sees it half done and the `--data`
 * journal records it as one change; the change events of its writes reach the webhook listeners
 * only when it stands.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ChangeEvent, Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { CsvCall, CsvColumn, CsvHook, CsvRow, RowOutcome } from '../../core/csv-hook.ts';
import { savepoint } from './savepoint.ts';

export type CsvImportResult = Schemas['CsvImportResult'];

/** The result CSV's status cell of a row. */
const SUCCESS = 'success';
const FAILURE = 'failure';
const SKIPPED = 'skipped';
const ENTITY_CREATED = 'Entity created';
const ENTITY_UPDATED = 'Entity updated';

/** `name` or `name*`: the header cell of a column. */
const headerOf = (column: CsvColumn): string => (column.required ? `${column.name}*` : column.name);

/** Cells as CSV text: CRLF line ends, quotes only where needed (a line break in a cell is always quoted). */
function toCsv(records: readonly (readonly string[])[]): string {
  return stringify(records as string[][], { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}

/** The CSV of the entity `call.name` names: the header line, then the hook's rows. */
export function exportCsv(hook: CsvHook, call: CsvCall): string {
  hook.check(call);
  return toCsv([hook.columns.map(headerOf), ...hook.exportRows(call)]);
}

/** The records of a CSV text; a text that is not CSV is a 400 naming the line where it breaks. */
function parseCsv(text: string): string[][] {
  // Where the last record read whole ends (bytes): the record that breaks starts after it.
  let readBytes = 0;
  try {
    return parse(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      on_record: (record, context) => {
        readBytes = context.bytes;
        return record;
      },
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      // The line where the record that breaks starts: after the records read whole and the blank lines after them.
      const read = Buffer.from(text).subarray(0, readBytes).toString();
      const line = 1 + (read.match(/\n/g)?.length ?? 0) + (/^(?:\r?\n)*/.exec(text.slice(read.length))![0].match(/\n/g)?.length ?? 0);
      // csv-parse's own text names the line where it stopped reading: only its title is kept (`Quote Not Closed`).
      throw CatalogError.badRequest(`Invalid CSV at line ${line}: ${error.message.split(':')[0]}`);
    }
    throw error;
  }
}

/** OpenMetadata's failure texts (`EntityCsv.invalidFieldCount`, `fieldRequired`, `invalidHeader`). */
const invalidFieldCount = (expected: number, actual: number): string => `#INVALID_FIELD_COUNT: Field count ${actual} does not match the expected field count of ${expected}`;
const fieldRequired = (index: number): string => `#FIELD_REQUIRED: Field ${index + 1} is required`;
const invalidHeader = (expected: readonly string[], actual: readonly string[]): string => `#INVALID_HEADER: Headers [${actual.join(',')}] doesn't match [${expected.join(',')}]`;

/** The header line is the expected one; the `*` of required columns may be left out. */
function headerMatches(columns: readonly CsvColumn[], header: readonly string[]): boolean {
  return header.length === columns.length && columns.every((column, i) => header[i]?.trim().replace(/\*$/, '') === column.name);
}

/** Why a row cannot go to the hook (its cell count, its empty required cells), or undefined. */
function rowProblem(columns: readonly CsvColumn[], cells: readonly string[]): string | undefined {
  if (cells.length !== columns.length) return invalidFieldCount(columns.length, cells.length);
  const missing = columns.flatMap((column, i) => (column.required && cells[i]!.trim() === '' ? [fieldRequired(i)] : []));
  return missing.length ? missing.join(';') : undefined;
}

/** Hands each event to each listener, as `recordChange` does: a listener's failure is its own. */
function tell(listeners: readonly ((event: ChangeEvent) => void)[], events: readonly ChangeEvent[]): void {
  for (const event of events) {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A listener only queues: its failure is not the import's.
      }
    }
  }
}

export interface ImportOptions {
  readonly dryRun: boolean;
  readonly user: string;
}

/** Imports a CSV text into the entity `call.name` names (see the module comment). */
export function importCsv(hook: CsvHook, call: CsvCall, text: string, options: ImportOptions): CsvImportResult {
  hook.check(call);
  const records = parseCsv(text);
  const header = records[0] ?? [];
  const expected = hook.columns.map(headerOf);
  if (!headerMatches(hook.columns, header)) {
    return {
      dryRun: options.dryRun,
      status: 'aborted',
      abortReason: invalidHeader(expected, header),
      numberOfRowsProcessed: 1,
      numberOfRowsPassed: 0,
      numberOfRowsFailed: 1,
    };
  }
  const rows = records.slice(1).map((cells, i): CsvRow => ({ cells, number: i + 2 }));
  const outcomes = new Map<CsvRow, RowOutcome>();
  const accepted: CsvRow[] = [];
  for (const row of rows) {
    const problem = rowProblem(hook.columns, row.cells);
    if (problem) outcomes.set(row, { error: problem });
    else accepted.push(row);
  }

  const { ctx } = call;
  // The change events of the writes reach the context's listeners (the webhook sender) only once the import stands.
  const listeners = [...ctx.events.listeners];
  const heard: ChangeEvent[] = [];
  const hear = (event: ChangeEvent): void => void heard.push(event);
  ctx.events.listeners.clear();
  ctx.events.listeners.add(hear);
  const rollback = savepoint(ctx.store);
  let failed: number;
  try {
    const written = accepted.length ? hook.importRows({ ...call, user: options.user }, accepted) : [];
    accepted.forEach((row, i) => outcomes.set(row, written[i] ?? { error: 'not imported' }));
    failed = rows.filter((row) => 'error' in outcomes.get(row)!).length;
    if (options.dryRun || failed > 0) rollback();
  } catch (error) {
    rollback();
    heard.length = 0;
    throw error;
  } finally {
    ctx.events.listeners.delete(hear);
    for (const listener of listeners) ctx.events.listeners.add(listener);
  }
  if (!options.dryRun && failed === 0) tell(listeners, heard);

  const passed = rows.length - failed;
  const undone = !options.dryRun && failed > 0;
  const results = rows.map((row) => {
    const outcome = outcomes.get(row)!;
    if ('error' in outcome) return [FAILURE, outcome.error, ...row.cells];
    if (undone) return [SKIPPED, 'Not imported: the import is all or nothing, and another row failed', ...row.cells];
    return [SUCCESS, outcome.created ? ENTITY_CREATED : ENTITY_UPDATED, ...row.cells];
  });
  return {
    dryRun: options.dryRun,
    status: failed === 0 ? 'success' : !options.dryRun || passed === 0 ? 'failure' : 'partialSuccess',
    // The header line counts as a row processed and passed, as OpenMetadata counts it.
    numberOfRowsProcessed: rows.length + 1,
    numberOfRowsPassed: passed + 1,
    numberOfRowsFailed: failed,
    importResultsCsv: toCsv([['status', 'details', ...expected], ...results]),
  };
}
