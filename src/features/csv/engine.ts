/**
 * CSV export and import for every kind with a `csv` hook (src/core/csv-hook.ts; docs/behaviour.md "CSV
 * import and export"), after OpenMetadata's `EntityCsv` and `CsvUtil`: the header line names the
 * hook's columns (required ones marked `*`), lines end in CRLF, and a cell is quoted only when it
 * must be (csv-stringify and csv-parse, RFC 4180). A file read in may end its lines in CRLF, LF or
 * CR, mixed as a spreadsheet takes them, and start with a byte order mark.
 *
 * An import reads the whole file first: a body that is not CSV at all is refused (400 with the
 * line); a header line other than the expected one aborts the import (`status: aborted`); a row
 * with too few or too many cells, or an empty required cell, fails that row. The other rows go to
 * the hook, which writes them through the lifecycle. An import is all or nothing (OpenMetadata
 * keeps the rows that passed; here a failing row changes nothing, and the rows that passed are
 * `skipped`); a dry run changes nothing at all.
 *
 * No import holds the server for long (docs/behaviour.md "Limits of one request"). When the hook's
 * rows stand alone (each writes its own entity), each row is first checked on its own (everything
 * its write checks, nothing stored), in steps of about STEP_MS between which other requests are
 * served, so nothing of the check is ever seen; a dry run answers from that. An
 * import whose rows all passed is then written in such steps, each one whole (its change events
 * reach the webhook listeners once it stands), so other requests may see the rows written so far,
 * as OpenMetadata's imports are seen; if a row that passed fails when written (another request
 * changed the catalog meanwhile), the steps written stand and the rest is skipped. Rows that do not
 * stand alone (a table's columns, one patch) go in one synchronous step, and are put back with a
 * savepoint (src/features/csv/savepoint.ts) when the import is a dry run or a row failed.
 */
import { CsvError, parse } from 'csv-parse/sync';
import type { Options } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { ChangeEvent, Schemas } from '../../core/entity.ts';
import { CatalogError } from '../../core/errors.ts';
import type { CsvCall, CsvColumn, CsvHook, CsvRow, RowOutcome } from '../../core/csv-hook.ts';
import { savepoint } from './savepoint.ts';
import { utf8Prefix } from '../../platform/encoding.ts';

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

/** How csv-parse reads a file: any line end a spreadsheet takes, mixed (a lone LF among CRLF lines ends its row too). */
const PARSE_OPTIONS: Options = {
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
};

/** The records of a CSV text; a text that is not CSV is a 400 naming the line where it breaks. */
function parseCsv(text: string): string[][] {
  try {
    return parse(text, PARSE_OPTIONS) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // Read again, noting where each record read whole ends (bytes), which costs csv-parse more:
    // the record that breaks starts after the last of them and the blank lines after it.
    let readBytes = 0;
    try {
      parse(text, {
        ...PARSE_OPTIONS,
        on_record: (record, context) => {
          readBytes = context.bytes;
          return record;
        },
      });
    } catch {
      // The same error, now with `readBytes`.
    }
    const read = utf8Prefix(text, readBytes);
    const lineEnds = (part: string): number => part.match(/\r\n|\n|\r/g)?.length ?? 0;
    const line = 1 + lineEnds(read) + lineEnds(/^(?:\r\n|\n|\r)*/.exec(text.slice(read.length))![0]);
    // csv-parse's own text names the line where it stopped reading: only its title is kept (`Quote Not Closed`).
    throw CatalogError.badRequest(`Invalid CSV at line ${line}: ${error.message.split(':')[0]}`);
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

/**
 * Runs `write` (synchronous) with the context's listeners held back: the change events it records
 * are returned instead of told, for the caller to tell once the write stands, or drop.
 */
function heldBack<T>(ctx: CsvCall['ctx'], write: () => T): { value: T; heard: ChangeEvent[] } {
  const listeners = [...ctx.events.listeners];
  const heard: ChangeEvent[] = [];
  ctx.events.listeners.clear();
  ctx.events.listeners.add((event) => void heard.push(event));
  try {
    return { value: write(), heard };
  } finally {
    ctx.events.listeners.clear();
    for (const listener of listeners) ctx.events.listeners.add(listener);
  }
}

/** How long one synchronous step of an import runs before other requests are served (milliseconds). */
const STEP_MS = 25;

/** Lets the requests that came in meanwhile be served (a timer, not a microtask: it waits for them). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Thrown inside the store's `atomically` to undo what a check wrote. */
const UNDO = Symbol('undo the check');

export interface ImportOptions {
  readonly dryRun: boolean;
  readonly user: string;
  /** How long one synchronous step runs before other requests are served (default STEP_MS; 0: one row a step). */
  readonly stepMs?: number;
}

/** A row and what became of it. */
type Outcomes = Map<CsvRow, RowOutcome>;

/**
 * Checks each row on its own (src/core/csv-hook.ts `rowsStandAlone`, `checkOnly`: everything its write
 * checks, nothing stored; anything a hook wrote all the same is undone at once), in steps of about
 * STEP_MS with other requests served between, so no other request sees any of it.
 */
async function checkEach(hook: CsvHook, writer: CsvCall & { readonly user: string }, rows: readonly CsvRow[], outcomes: Outcomes, stepMs: number): Promise<void> {
  const call = { ...writer, checkOnly: true };
  const { ctx } = call;
  for (let next = 0; next < rows.length;) {
    const started = performance.now();
    heldBack(ctx, () => {
      do {
        const row = rows[next++]!;
        try {
          ctx.store.atomically(() => {
            outcomes.set(row, hook.importRows(call, [row])[0] ?? { error: 'not imported' });
            throw UNDO;
          });
        } catch (error) {
          if (error !== UNDO) throw error;
        }
      } while (next < rows.length && performance.now() - started < stepMs);
    });
    if (next < rows.length) await nextTurn();
  }
}

/**
 * Writes rows that all passed their check, in steps of about STEP_MS, each step whole (undone if a
 * row of it fails) and told to the listeners once it stands. Returns the first row that failed
 * when written (the catalog changed since the check), or undefined; its step is undone, the steps
 * before it stand.
 */
async function writeEach(hook: CsvHook, call: CsvCall & { readonly user: string }, rows: readonly CsvRow[], outcomes: Outcomes, stepMs: number): Promise<CsvRow | undefined> {
  const { ctx } = call;
  const listeners = [...ctx.events.listeners];
  for (let next = 0; next < rows.length;) {
    const started = performance.now();
    const step: [CsvRow, RowOutcome][] = [];
    let failed: CsvRow | undefined;
    const { heard } = heldBack(ctx, () => {
      try {
        ctx.store.atomically(() => {
          do {
            const row = rows[next++]!;
            const outcome = hook.importRows(call, [row])[0] ?? { error: 'not imported' };
            step.push([row, outcome]);
            if ('error' in outcome) {
              failed = row;
              throw UNDO;
            }
          } while (next < rows.length && performance.now() - started < stepMs);
        });
      } catch (error) {
        if (error !== UNDO) throw error;
      }
    });
    if (failed) {
      outcomes.set(failed, step[step.length - 1]![1]);
      return failed;
    }
    for (const [row, outcome] of step) outcomes.set(row, outcome);
    tell(listeners, heard);
    if (next < rows.length) await nextTurn();
  }
  return undefined;
}

/** Rows that do not stand alone: one synchronous call, put back with a savepoint when it is a dry run or a row failed. */
function writeTogether(hook: CsvHook, call: CsvCall & { readonly user: string }, rows: readonly CsvRow[], outcomes: Outcomes, dryRun: boolean): void {
  const { ctx } = call;
  const listeners = [...ctx.events.listeners];
  const rollback = savepoint(ctx.store);
  let failed = false;
  const { heard } = heldBack(ctx, () => {
    try {
      const written = rows.length ? hook.importRows(call, rows) : [];
      rows.forEach((row, i) => outcomes.set(row, written[i] ?? { error: 'not imported' }));
      failed = rows.some((row) => 'error' in outcomes.get(row)!);
      if (dryRun || failed) rollback();
    } catch (error) {
      rollback();
      throw error;
    }
  });
  if (!dryRun && !failed) tell(listeners, heard);
}

/** Imports a CSV text into the entity `call.name` names (see the module comment). */
export async function importCsv(hook: CsvHook, call: CsvCall, text: string, options: ImportOptions): Promise<CsvImportResult> {
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
  const outcomes: Outcomes = new Map();
  const accepted: CsvRow[] = [];
  for (const row of rows) {
    const problem = rowProblem(hook.columns, row.cells);
    if (problem) outcomes.set(row, { error: problem });
    else accepted.push(row);
  }
  // Other requests first: what follows writes only in steps of its own (and, after this, outside
  // any write step of the request that called it, whose undo covers only what runs before).
  await nextTurn();
  const writer = { ...call, user: options.user };
  let stoppedAt: CsvRow | undefined;
  if (!hook.rowsStandAlone) writeTogether(hook, writer, accepted, outcomes, options.dryRun);
  else {
    const stepMs = options.stepMs ?? STEP_MS;
    await checkEach(hook, writer, accepted, outcomes, stepMs);
    if (!options.dryRun && rows.every((row) => !('error' in outcomes.get(row)!))) stoppedAt = await writeEach(hook, writer, accepted, outcomes, stepMs);
  }

  const failed = rows.filter((row) => 'error' in outcomes.get(row)!).length;
  const passed = rows.length - failed;
  // A real import that failed wrote nothing; one stopped while written keeps the rows before the stop.
  const undone = !options.dryRun && failed > 0 && stoppedAt === undefined;
  const stop = stoppedAt === undefined ? -1 : rows.indexOf(stoppedAt);
  const results = rows.map((row, i) => {
    const outcome = outcomes.get(row)!;
    if ('error' in outcome) return [FAILURE, outcome.error, ...row.cells];
    if (undone) return [SKIPPED, 'Not imported: the import is all or nothing, and another row failed', ...row.cells];
    if (stop >= 0 && i > stop)
      return [SKIPPED, 'Not imported: a row that had passed the check failed when written (the catalog changed meanwhile); the rows before it stand', ...row.cells];
    return [SUCCESS, outcome.created ? ENTITY_CREATED : ENTITY_UPDATED, ...row.cells];
  });
  await nextTurn();
  return {
    dryRun: options.dryRun,
    status: failed === 0 ? 'success' : stop >= 0 ? 'partialSuccess' : !options.dryRun || passed === 0 ? 'failure' : 'partialSuccess',
    // The header line counts as a row processed and passed, as OpenMetadata counts it.
    numberOfRowsProcessed: rows.length + 1,
    numberOfRowsPassed: passed + 1,
    numberOfRowsFailed: failed,
    importResultsCsv: toCsv([['status', 'details', ...expected], ...results]),
  };
}
