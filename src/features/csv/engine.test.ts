/**
 * The CSV engine (src/features/csv/engine.ts) as requirements, on the demo catalog: a file's line ends read
 * as a spreadsheet reads them, and an import split into steps between which other work runs —
 * seeing nothing of a dry run, the rows of an import as they are written, and, when a row that
 * passed its check fails when written, the steps before it kept. Steps are counted, not timed:
 * `stepMs: 0` makes each row a step of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, startApp } from '../../../test/kit.ts';
import { hardDelete } from '../../core/lifecycle.ts';
import type { ImportOptions } from './engine.ts';
import { importCsv } from './engine.ts';

const DATABASE = 'acme_snowflake.ecommerce_dw';
const HEADER = 'name*,displayName,description,owner,tags,glossaryTerms,tiers,certification,retentionPeriod,sourceUrl,domains,extension';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ fixtures: 'default', at: T0 });
}, SLOW_START);

const importSchemas = (csv: string, options: Partial<ImportOptions> = {}) => {
  const kind = app.ctx.kinds.of('database');
  return importCsv(kind.csv!, { ctx: app.ctx, kind, name: DATABASE }, csv, { dryRun: true, user: 'admin', ...options });
};
const row = (name: string, owner = '') => `${name},,,${owner},,,,,,,,`;
const schemaOf = (name: string) => app.ctx.store.getByFqn('databaseSchema', `${DATABASE}.${name}`);

describe('line ends as a spreadsheet reads them (given a file, want its rows)', () => {
  it.each([
    { given: 'CRLF', csv: `${HEADER}\r\n${row('a1')}\r\n${row('a2')}\r\n` },
    { given: 'LF', csv: `${HEADER}\n${row('a1')}\n${row('a2')}\n` },
    { given: 'CR', csv: `${HEADER}\r${row('a1')}\r${row('a2')}` },
    { given: 'a lone LF among CRLF lines', csv: `${HEADER}\r\n${row('a1')}\n${row('a2')}\r\n` },
    { given: 'LF first, then CRLF', csv: `${HEADER}\n${row('a1')}\r\n${row('a2')}\r\n` },
    { given: 'a byte order mark, mixed line ends and blank lines', csv: `\uFEFF${HEADER}\r\n\r\n${row('a1')}\n\n${row('a2')}\r` },
  ])('$given: two rows, each its own', async ({ csv }) => {
    const result = await importSchemas(csv);
    expect(result).toMatchObject({ status: 'success', numberOfRowsProcessed: 3, numberOfRowsFailed: 0 });
    expect(
      result
        .importResultsCsv!.split('\r\n')
        .slice(1, 3)
        .map((line) => line.split(',').slice(0, 3)),
    ).toEqual([
      ['success', 'Entity created', 'a1'],
      ['success', 'Entity created', 'a2'],
    ]);
  });

  it('a line break inside quotes stays in its cell', async () => {
    const result = await importSchemas(`${HEADER}\r\na1,,"two\nlines",,,,,,,,,\na2,,,,,,,,,,,\r\n`);
    expect(result).toMatchObject({ status: 'success', numberOfRowsProcessed: 3 });
  });

  it('a file that is not CSV names the line where it breaks, whatever its line ends', async () => {
    await expect(importSchemas(`${HEADER}\r${row('a1')}\n${row('a2')}\r\nx,"never closed\r\n`)).rejects.toThrow('Invalid CSV at line 4: Quote Not Closed');
  });
});

/** Runs `during` on every turn the import leaves to other work, until it ends; returns what it ran and the import's result. */
async function interleaved<T>(work: Promise<T>, during: () => void): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let done = false;
  const result = work.finally(() => (done = true));
  const tick = (): void => {
    if (done) return;
    turns++;
    during();
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const value = await result;
  return { turns, result: value };
}

describe('a large import is split into steps, other work served between (docs/behaviour.md "Limits of one request")', () => {
  const names = Array.from({ length: 40 }, (_, i) => `step_${i}`);
  const csv = `${HEADER}\r\n${names.map((name) => row(name)).join('\r\n')}\r\n`;

  it('a dry run: other work runs between its rows, and never sees one of them', async () => {
    let seen = 0;
    const run = await interleaved(importSchemas(csv, { stepMs: 0 }), () => (seen += names.filter((name) => schemaOf(name)).length));
    // Turns between the rows: each row is a step of its own.
    expect(run.turns).toBeGreaterThanOrEqual(names.length - 1);
    expect(seen).toBe(0);
    expect(run.result).toMatchObject({ dryRun: true, status: 'success', numberOfRowsPassed: names.length + 1 });
    expect(names.filter((name) => schemaOf(name))).toEqual([]);
  });

  it('an import: other work sees the rows written so far, in order, and all of them at the end', async () => {
    const counts: number[] = [];
    const run = await interleaved(
      importSchemas(csv.replaceAll('step_', 'written_'), { dryRun: false, stepMs: 0 }),
      () => void counts.push(names.filter((name) => schemaOf(name.replace('step_', 'written_'))).length),
    );
    expect(run.result).toMatchObject({ dryRun: false, status: 'success', numberOfRowsFailed: 0 });
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.some((n) => n > 0 && n < names.length)).toBe(true);
    expect(names.every((name) => schemaOf(name.replace('step_', 'written_')))).toBe(true);
  });

  it('a row that passed its check but fails when written (its owner deleted meanwhile): the rows before it stand, the rest are skipped', async () => {
    const user = await app.create('users', { name: 'leaving', email: 'leaving@example.com' });
    const rows = ['keep_0', 'keep_1', 'keep_2', 'keep_3'].map((name) => row(name)).concat(row('owned', 'user:leaving'), row('after'));
    let deleted = false;
    const run = await interleaved(importSchemas(`${HEADER}\r\n${rows.join('\r\n')}\r\n`, { dryRun: false, stepMs: 0 }), () => {
      if (deleted || !schemaOf('keep_0')) return;
      deleted = true;
      const stored = app.ctx.store.get(String(user.id))!;
      hardDelete(app.ctx, app.ctx.kinds.of('user'), stored, false, 'admin');
    });
    expect(deleted).toBe(true);
    expect(run.result).toMatchObject({ dryRun: false, status: 'partialSuccess', numberOfRowsFailed: 1 });
    const lines = run.result
      .importResultsCsv!.split('\r\n')
      .slice(1, 7)
      .map((line) => line.split(',')[0]);
    expect(lines).toEqual(['success', 'success', 'success', 'success', 'failure', 'skipped']);
    expect(['keep_0', 'keep_1', 'keep_2', 'keep_3'].every((name) => schemaOf(name))).toBe(true);
    expect(schemaOf('owned')).toBeUndefined();
    expect(schemaOf('after')).toBeUndefined();
  });
});
