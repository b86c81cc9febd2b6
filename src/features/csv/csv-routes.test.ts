/**
 * CSV export and import, as requirements (docs/behaviour.md "CSV import and export"), against a
 * running server with the demo catalog: the columns each kind exports, an export imported back
 * changes nothing, a dry run reports and changes nothing, an import creates and updates in one
 * step, a bad row fails the whole import and changes nothing, a body that is not CSV is a 400
 * naming the line, and `--data` records an import as one journal record.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { expectError, SLOW_START, startApp, storeDump, T0 } from '../../../test/kit.ts';
import type { ChangeEvent } from '../../core/entity.ts';
import { journalPath } from '../../app/persistence/data-file.ts';

const SERVICE = 'acme_snowflake';
const DATABASE = `${SERVICE}.ecommerce_dw`;
const SCHEMA = `${DATABASE}.sales`;
const TABLE = `${SCHEMA}.fact_orders`;

const ENTITY_HEADER = 'name*,displayName,description,owner,tags,glossaryTerms,tiers,certification,retentionPeriod,sourceUrl,domains,extension';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ fixtures: 'default', at: T0 });
}, SLOW_START);

const exportOf = (collection: string, fqn: string) => app.get(`/api/v1/${collection}/name/${encodeURIComponent(fqn)}/export`);
const importInto = (collection: string, fqn: string, csv: string, query = 'dryRun=false', token?: string) =>
  app
    .request('put', `/api/v1/${collection}/name/${encodeURIComponent(fqn)}/import?${query}`, token)
    .set('Content-Type', 'text/plain')
    .send(csv);

/** The rows of a CSV text, header first. */
const rowsOf = (csv: string): string[][] => parse(csv, { relax_column_count: true }) as string[][];

/** Everything the store holds: entities with their histories, and the data kept beside them (change events included). */
const state = (): string => storeDump(app.ctx) + JSON.stringify(app.ctx.store.exportSideData());

describe('export: the columns of each kind, as OpenMetadata writes them', () => {
  const given = [
    {
      collection: 'services/databaseServices',
      fqn: SERVICE,
      header: 'name*,displayName,description,owner,tags,glossaryTerms,tiers,certification,domains,extension',
      row: 'ecommerce_dw',
    },
    { collection: 'databases', fqn: DATABASE, header: ENTITY_HEADER, row: 'sales' },
    { collection: 'databaseSchemas', fqn: SCHEMA, header: ENTITY_HEADER, row: 'fact_orders' },
    {
      collection: 'tables',
      fqn: TABLE,
      header: 'column.name*,column.displayName,column.description,column.dataTypeDisplay,column.dataType*,column.arrayDataType,column.dataLength,column.tags,column.glossaryTerms',
      row: 'order_id',
    },
    {
      collection: 'dataQuality/testCases',
      fqn: TABLE,
      header:
        'name*,displayName,description,testDefinition*,entityFQN*,testSuite,parameterValues,computePassedFailedRowCount,useDynamicAssertion,inspectionQuery,tags,glossaryTerms',
      row: 'fact_orders_row_count',
    },
  ];
  it.each(given)('$collection/name/$fqn/export: header $header, a row for $row', async ({ collection, fqn, header, row }) => {
    const res = await exportOf(collection, fqn).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text.split('\r\n')[0]).toBe(header);
    expect(res.text.endsWith('\r\n')).toBe(true);
    expect(rowsOf(res.text).map((cells) => cells[0])).toContain(row);
  });

  it('a schema row carries owners, tags by cell, domains and custom properties (given fact_orders, want these cells)', async () => {
    const rows = rowsOf((await exportOf('databaseSchemas', SCHEMA).expect(200)).text);
    const cells = Object.fromEntries(rows[0]!.map((name, i) => [name, rows.find((r) => r[0] === 'fact_orders')![i]]));
    expect(cells).toMatchObject({ owner: 'user:alice.nguyen', tags: 'Quality.Certified', tiers: 'Tier.Tier1', glossaryTerms: '', certification: '', domains: 'Sales' });
    expect(cells.extension).toMatch(/^dataSteward:\{.*\};retentionDays:730;refreshCadence:\["hourly"\];lastReviewed:2025-10-01$/);
  });

  it('test cases: of a table, of the whole catalog (`*`); a name that is neither table, suite nor `*` is a 400', async () => {
    const ofTable = rowsOf((await exportOf('dataQuality/testCases', TABLE).expect(200)).text).slice(1);
    const all = rowsOf((await exportOf('dataQuality/testCases', '*').expect(200)).text).slice(1);
    expect(ofTable.every((cells) => cells[4]!.startsWith(TABLE))).toBe(true);
    expect(all.length).toBeGreaterThan(ofTable.length);
    expectError(await exportOf('dataQuality/testCases', 'no.such.thing'), 400, undefined, /not found.*table FQN, test suite FQN, or '\*'/);
  });

  it('exportAsync answers 202 with a job id and, in place of the websocket message, the same CSV', async () => {
    const sync = (await exportOf('databases', DATABASE).expect(200)).text;
    const res = await app.get(`/api/v1/databases/name/${DATABASE}/exportAsync`).expect(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^[1-9][0-9]*$/), message: 'Export initiated successfully.', status: 'COMPLETED', data: sync });
  });

  describe('an async export or import is a job, as OpenMetadata 2.0 keeps it (/v1/csvAsyncJobs)', () => {
    const exportJob = async (token?: string) => (await app.request('get', `/api/v1/databases/name/${DATABASE}/exportAsync`, token).expect(202)).body as { jobId: string };
    const jobOf = (jobId: string, token?: string) => app.get(`/api/v1/csvAsyncJobs/${jobId}`, token);

    it('an export: the job with its operation, target, result and log; /result is the CSV (text/csv)', async () => {
      const sync = (await exportOf('databases', DATABASE).expect(200)).text;
      const { jobId } = await exportJob();
      const job = (await jobOf(jobId).expect(200)).body;
      expect(job).toMatchObject({
        jobId,
        operation: 'EXPORT',
        entityType: 'database',
        targetFqn: DATABASE,
        createdBy: 'admin',
        status: 'COMPLETED',
        result: sync,
        message: 'Export completed.',
        cancelRequested: false,
        createdAt: T0,
        completedAt: T0,
      });
      expect(job.logs.map((l: { level: string; message: string; jobId: string }) => [l.jobId, l.level, l.message])).toEqual([
        [jobId, 'INFO', 'Export queued.'],
        [jobId, 'INFO', 'Export started.'],
        [jobId, 'INFO', 'Export completed.'],
      ]);
      const result = await app.get(`/api/v1/csvAsyncJobs/${jobId}/result`).set('Accept', 'text/csv').expect(200);
      expect(result.headers['content-type']).toMatch(/^text\/csv/);
      expect(result.text).toBe(sync);
    });

    it("an import: the job's result is the import's result as JSON, its progress the rows processed; /result is 400, as it is no export", async () => {
      const sync = (await exportOf('databases', DATABASE).expect(200)).text;
      const imported = (await app.request('put', `/api/v1/databases/name/${DATABASE}/importAsync`).set('Content-Type', 'text/plain').send(sync).expect(200)).body;
      const job = (await jobOf(imported.jobId).expect(200)).body;
      expect(job).toMatchObject({
        operation: 'IMPORT',
        dryRun: true,
        status: 'COMPLETED',
        message: 'Import completed.',
        progress: imported.result.numberOfRowsProcessed,
        total: imported.result.numberOfRowsProcessed,
      });
      expect(JSON.parse(job.result)).toEqual(imported.result);
      const refused = expectError(await app.get(`/api/v1/csvAsyncJobs/${String(imported.jobId)}/result`), 400);
      expect(refused.message).toBe(`CSV job ${String(imported.jobId)} is not a completed export; it has no downloadable result.`);
    });

    it("the list: a plain array of the caller's own jobs, newest first, exports without their CSV; limit defaults to 20 and is taken into 1..100", async () => {
      const first = await exportJob();
      for (let i = 0; i < 100; i++) await exportJob();
      const mine = (await exportJob(app.tokens.consumer)).jobId;
      // given: a query; want: how many jobs it lists.
      const rows: [string, number][] = [
        ['', 20],
        ['?limit=1', 1],
        ['?limit=0', 1],
        ['?limit=-5', 1],
        ['?limit=100', 100],
        ['?limit=1000', 100],
      ];
      for (const [query, want] of rows) {
        const listed = (await app.get(`/api/v1/csvAsyncJobs${query}`).expect(200)).body as { jobId: string; createdBy: string; result?: string }[];
        expect(Array.isArray(listed), query).toBe(true);
        expect(listed.length, query).toBe(want);
        expect(
          listed.map((j) => Number(j.jobId)),
          query,
        ).toEqual(listed.map((j) => Number(j.jobId)).sort((a, b) => b - a));
        expect(
          listed.every((j) => j.createdBy === 'admin' && j.result === undefined),
          query,
        ).toBe(true);
      }
      expect(Number(mine)).toBeGreaterThan(Number(first.jobId));
      const consumers = (await app.get('/api/v1/csvAsyncJobs', app.tokens.consumer).expect(200)).body as { jobId: string }[];
      expect(consumers.map((j) => j.jobId)).toEqual([mine]);
    });

    it("another user's job is 403 but to an Admin; a cancel answers the job, a finished one as it is; an unknown job is 404, a job id that is no number 400", async () => {
      const admins = (await exportJob()).jobId;
      const consumers = (await exportJob(app.tokens.consumer)).jobId;
      const before = storeDump(app.ctx);
      // given: a call and a token; want: the status and, for an error, the message.
      const rows: [string, 'get' | 'put', string, string, number, string?][] = [
        ['another user reads', 'get', `/api/v1/csvAsyncJobs/${admins}`, app.tokens.consumer, 403, 'CSV job belongs to another user.'],
        ['another user reads the result', 'get', `/api/v1/csvAsyncJobs/${admins}/result`, app.tokens.consumer, 403, 'CSV job belongs to another user.'],
        ['another user cancels', 'put', `/api/v1/csvAsyncJobs/${admins}/cancel`, app.tokens.consumer, 403, 'CSV job belongs to another user.'],
        ['its creator cancels', 'put', `/api/v1/csvAsyncJobs/${consumers}/cancel`, app.tokens.consumer, 200],
        ['an Admin reads', 'get', `/api/v1/csvAsyncJobs/${consumers}`, app.tokens.admin, 200],
        ['an Admin cancels', 'put', `/api/v1/csvAsyncJobs/${consumers}/cancel`, app.tokens.admin, 200],
        ['an unknown job', 'get', '/api/v1/csvAsyncJobs/999999', app.tokens.admin, 404, 'CSV job not found: 999999'],
        ['an unknown job cancelled', 'put', '/api/v1/csvAsyncJobs/999999/cancel', app.tokens.consumer, 404, 'CSV job not found: 999999'],
      ];
      for (const [given, method, path, token, status, message] of rows) {
        const res = await app.request(method, path, token);
        expect(res.status, given).toBe(status);
        if (message) expect(res.body.message, given).toBe(message);
        if (status === 200) expect(res.body, given).toMatchObject({ jobId: consumers, status: 'COMPLETED', cancelRequested: false, createdBy: 'consumer' });
      }
      expect(storeDump(app.ctx), 'nothing changed').toBe(before);
      expect(expectError(await jobOf('00000000-0000-4000-8000-000000000000'), 400).message).toMatch(/^\[path param jobId must match pattern/);
    });
  });

  it('the CSV documentation of a kind lists its columns in order (OpenMetadata 2.0 /v1/csv/documentation); a kind without a CSV is 404', async () => {
    const doc = (await app.get('/api/v1/csv/documentation/table').expect(200)).body;
    expect(doc.headers[0]).toEqual({ name: 'column.name', required: true, description: 'Required.', examples: [] });
    const header = (await exportOf('tables', TABLE).expect(200)).text.split('\r\n')[0]!;
    expect(doc.headers.map((h: { name: string; required: boolean }) => `${h.name}${h.required ? '*' : ''}`).join(',')).toBe(header);
    await app.get('/api/v1/csv/documentation/user').expect(404);
  });

  it('an unknown entity is 404; recursive=true is 400; a DataConsumer may export', async () => {
    expectError(await exportOf('databases', `${SERVICE}.nope`), 404, undefined, `database instance for ${SERVICE}.nope not found`);
    expectError(await app.get(`/api/v1/databases/name/${DATABASE}/export?recursive=true`), 400, undefined, /recursive=true is not served/);
    await app.get(`/api/v1/databases/name/${DATABASE}/export`, app.tokens.consumer).expect(200);
  });
});

describe('import', () => {
  it.each([
    { collection: 'services/databaseServices', fqn: SERVICE },
    { collection: 'databases', fqn: DATABASE },
    { collection: 'databaseSchemas', fqn: SCHEMA },
    { collection: 'tables', fqn: TABLE },
    { collection: 'dataQuality/testCases', fqn: '*' },
  ])('$collection: an export imported back changes nothing (every row "Entity updated", no new version)', async ({ collection, fqn }) => {
    const csv = (await exportOf(collection, fqn).expect(200)).text;
    const before = storeDump(app.ctx);
    const res = await importInto(collection, fqn, csv).expect(200);
    expect(res.body).toMatchObject({ dryRun: false, status: 'success', numberOfRowsFailed: 0, numberOfRowsProcessed: rowsOf(csv).length });
    expect(
      rowsOf(res.body.importResultsCsv as string)
        .slice(1)
        .map((r) => r.slice(0, 2)),
    ).toEqual(
      rowsOf(csv)
        .slice(1)
        .map(() => ['success', 'Entity updated']),
    );
    expect(storeDump(app.ctx)).toBe(before);
  });

  const ADD_AND_CHANGE = `${ENTITY_HEADER}\r\nsales,Sales,Orders and revenue facts (edited).,team:Analytics,,,,,,,Sales,\r\nmarketing,Marketing,Campaigns and attribution.,user:bob.martins,PII.NonSensitive,,Tier.Tier3,,P90D,,Marketing,\r\n`;

  it('a dry run reports each row (given a new schema and a changed one, want created / updated) and changes nothing, events included', async () => {
    const heard: ChangeEvent[] = [];
    const listener = (event: ChangeEvent): void => void heard.push(event);
    app.ctx.events.listeners.add(listener);
    const before = state();
    const res = await importInto('databases', DATABASE, ADD_AND_CHANGE, 'dryRun=true').expect(200);
    app.ctx.events.listeners.delete(listener);
    expect(res.body).toMatchObject({ dryRun: true, status: 'success', numberOfRowsProcessed: 3, numberOfRowsPassed: 3, numberOfRowsFailed: 0 });
    expect(rowsOf(res.body.importResultsCsv as string).map((r) => r.slice(0, 3))).toEqual([
      ['status', 'details', 'name*'],
      ['success', 'Entity updated', 'sales'],
      ['success', 'Entity created', 'marketing'],
    ]);
    expect(state()).toBe(before);
    expect(heard).toEqual([]);
    // The default is a dry run, as OpenMetadata's.
    expect((await importInto('databases', DATABASE, ADD_AND_CHANGE, '').expect(200)).body.dryRun).toBe(true);
    expect(state()).toBe(before);
  });

  it('a bad row fails the import and changes nothing; the rows that passed are skipped (a dry run says partialSuccess)', async () => {
    const csv = `${ADD_AND_CHANGE}broken,,,user:nobody,,,,,,,,\r\n`;
    const before = state();
    const res = await importInto('databases', DATABASE, csv).expect(200);
    expect(res.body).toMatchObject({ dryRun: false, status: 'failure', numberOfRowsProcessed: 4, numberOfRowsPassed: 3, numberOfRowsFailed: 1 });
    expect(rowsOf(res.body.importResultsCsv as string).map((r) => r.slice(0, 3))).toEqual([
      ['status', 'details', 'name*'],
      ['skipped', 'Not imported: the import is all or nothing, and another row failed', 'sales'],
      ['skipped', 'Not imported: the import is all or nothing, and another row failed', 'marketing'],
      ['failure', '#INVALID_FIELD: Field 4 error - Entity nobody of type user not found', 'broken'],
    ]);
    expect(state()).toBe(before);
    const dry = await importInto('databases', DATABASE, csv, 'dryRun=true').expect(200);
    expect(dry.body).toMatchObject({ status: 'partialSuccess', numberOfRowsPassed: 3, numberOfRowsFailed: 1 });
    expect(state()).toBe(before);
  });

  it('rows that fail their own checks: given each, want its failure text', async () => {
    const given = [
      { row: 'a,b', want: '#INVALID_FIELD_COUNT: Field count 2 does not match the expected field count of 12' },
      { row: ',,,,,,,,,,,', want: '#FIELD_REQUIRED: Field 1 is required' },
      { row: 'x,,,alice.nguyen,,,,,,,,', want: '#INVALID_FIELD: Field 4 error - Owner should be of format user:userName or team:teamName' },
      { row: 'x,,,,PII.Nope,,,,,,,', want: '#INVALID_FIELD: Field 5 error - tag instance for PII.Nope not found' },
      { row: 'x,,,,,Glossary.Term,,,,,,', want: '#INVALID_FIELD: Field 6 error - glossaryTerm instance for Glossary.Term not found' },
      { row: 'x,,,,,,Tier.Tier1;Tier.Tier2,,,,,', want: "Tag labels Tier.Tier2 and Tier.Tier1 are mutually exclusive and can't be assigned together" },
      { row: 'x,,,,,,,Certification.Gold,,,,', want: '#INVALID_FIELD: Field 8 error - certification is not kept by this server: leave the cell empty' },
      { row: 'x,,,,,,,,,,Nowhere,', want: '#INVALID_FIELD: Field 11 error - Entity Nowhere of type domain not found' },
      {
        row: 'x,,,,,,,,,,,novalue',
        want: '#INVALID_FIELD: Field 12 error - Invalid key-value pair in extension string: Key = novalue, Value = null . Extensions should be of format customPropertyName:customPropertyValue',
      },
    ];
    for (const { row, want } of given) {
      const res = await importInto('databases', DATABASE, `${ENTITY_HEADER}\r\n${row}\r\n`, 'dryRun=true').expect(200);
      expect(rowsOf(res.body.importResultsCsv as string)[1]!.slice(0, 2), row).toEqual(['failure', want]);
      expect(res.body.status).toBe('failure');
    }
  });

  it('a header line other than the expected one aborts the import with the reason; the `*` marks may be left out', async () => {
    const res = await importInto('databases', DATABASE, 'name,description\r\nx,y\r\n', 'dryRun=true').expect(200);
    expect(res.body).toEqual({
      dryRun: true,
      status: 'aborted',
      abortReason: `#INVALID_HEADER: Headers [name,description] doesn't match [${ENTITY_HEADER}]`,
      numberOfRowsProcessed: 1,
      numberOfRowsPassed: 0,
      numberOfRowsFailed: 1,
    });
    const unmarked = await importInto('databases', DATABASE, `${ENTITY_HEADER.replace('*', '')}\r\nsales,,,,,,,,,,,\r\n`, 'dryRun=true').expect(200);
    expect(unmarked.body.status).toBe('success');
  });

  it('a body that is not CSV is a 400 naming the line; so is an empty body', async () => {
    expectError(await importInto('databases', DATABASE, `${ENTITY_HEADER}\r\nsales,ok\r\nx,"never closed\r\n`), 400, undefined, 'Invalid CSV at line 3: Quote Not Closed');
    expectError(await importInto('databases', DATABASE, ''), 400);
  });

  it('an import creates and updates in one step: every row applied, one new version each, change events told once it stands', async () => {
    const heard: ChangeEvent[] = [];
    const listener = (event: ChangeEvent): void => void heard.push(event);
    app.ctx.events.listeners.add(listener);
    const res = await importInto('databases', DATABASE, ADD_AND_CHANGE).expect(200);
    app.ctx.events.listeners.delete(listener);
    expect(res.body).toMatchObject({ dryRun: false, status: 'success', numberOfRowsPassed: 3, numberOfRowsFailed: 0 });
    const sales = (await app.get(`/api/v1/databaseSchemas/name/${SCHEMA}?fields=owners,domains`).expect(200)).body;
    expect(sales).toMatchObject({
      displayName: 'Sales',
      description: 'Orders and revenue facts (edited).',
      owners: [{ type: 'team', name: 'Analytics' }],
      domains: [{ name: 'Sales' }],
    });
    const marketing = (await app.get(`/api/v1/databaseSchemas/name/${DATABASE}.marketing?fields=owners,domains,tags`).expect(200)).body;
    expect(marketing).toMatchObject({
      version: 0.1,
      retentionPeriod: 'P90D',
      owners: [{ name: 'bob.martins' }],
      tags: [{ tagFQN: 'PII.NonSensitive' }, { tagFQN: 'Tier.Tier3' }],
      domains: [{ name: 'Marketing' }],
    });
    expect(heard.map((e) => [e.eventType, e.entityFullyQualifiedName])).toEqual([
      ['entityUpdated', SCHEMA],
      ['entityCreated', `${DATABASE}.marketing`],
    ]);
    // Through the asynchronous form the UI calls, the same import is now a no-op.
    const again = await app
      .request('put', `/api/v1/databases/name/${DATABASE}/importAsync?dryRun=false&recursive=false`)
      .set('Content-Type', 'text/plain')
      .send(ADD_AND_CHANGE)
      .expect(200);
    expect(again.body).toMatchObject({ jobId: expect.any(String), message: 'Import is in progress.', status: 'COMPLETED', result: { status: 'success', dryRun: false } });
    expect((await app.get(`/api/v1/databaseSchemas/name/${DATABASE}.marketing`).expect(200)).body.version).toBe(0.1);
  });

  it('custom properties: `name:value` pairs, a value that is not text read as JSON (given retentionDays:365, want the number)', async () => {
    const rows = rowsOf((await exportOf('databaseSchemas', SCHEMA).expect(200)).text);
    const at = rows[0]!.indexOf('extension');
    const refunds = rows.find((r) => r[0] === 'fact_refunds')!;
    refunds[at] = 'retentionDays:365;refreshCadence:["daily"]';
    const csv = rows.map((r) => r.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\r\n');
    const res = await importInto('databaseSchemas', SCHEMA, `${csv}\r\n`).expect(200);
    expect(res.body.status, res.body.importResultsCsv).toBe('success');
    const table = (await app.get(`/api/v1/tables/name/${SCHEMA}.fact_refunds?fields=extension`).expect(200)).body;
    expect(table.extension).toEqual({ retentionDays: 365, refreshCadence: ['daily'] });
    const unknown = await importInto('databaseSchemas', SCHEMA, `${ENTITY_HEADER}\r\nfact_refunds,,,,,,,,,,,nope:1\r\n`, 'dryRun=true').expect(200);
    expect(rowsOf(unknown.body.importResultsCsv as string)[1]![0]).toBe('failure');
  });

  it('a table import adds columns (nested ones after their parent) and edits others as one new version', async () => {
    const csv = (await exportOf('tables', TABLE).expect(200)).text;
    const before = (await app.get(`/api/v1/tables/name/${TABLE}`).expect(200)).body;
    const extra = 'order_id,Order,Order identifier.,,BIGINT,,,PII.NonSensitive,\r\nshipping,,,struct<city:string>,STRUCT,,,,\r\nshipping.city,City,,,VARCHAR,,64,,\r\n';
    const res = await importInto('tables', TABLE, csv + extra).expect(200);
    expect(res.body).toMatchObject({ status: 'success', numberOfRowsFailed: 0 });
    const after = (await app.get(`/api/v1/tables/name/${TABLE}`).expect(200)).body;
    expect(after.version).toBe(Math.round((before.version + 0.1) * 10) / 10);
    const columns = after.columns as { name: string; displayName?: string; tags?: { tagFQN: string }[]; children?: unknown[] }[];
    expect(columns.find((c) => c.name === 'order_id')).toMatchObject({ displayName: 'Order', tags: [{ tagFQN: 'PII.NonSensitive' }] });
    expect(columns.find((c) => c.name === 'shipping')).toMatchObject({
      dataType: 'STRUCT',
      children: [{ name: 'city', dataType: 'VARCHAR', dataLength: 64, displayName: 'City' }],
    });
    const exported = rowsOf((await exportOf('tables', TABLE).expect(200)).text).map((r) => r[0]);
    expect(exported.slice(-2)).toEqual(['shipping', 'shipping.city']);
    const orphan = await importInto('tables', TABLE, `${csv.split('\r\n')[0]}\r\nnowhere.child,,,,INT,,,,\r\n`, 'dryRun=true').expect(200);
    expect(rowsOf(orphan.body.importResultsCsv as string)[1]!.slice(0, 2)).toEqual(['failure', 'Parent Column not found. Check the order of the columns in the CSV file.']);
  });

  it('a test case import creates a column test from its entity FQN, under the test definition named', async () => {
    const header =
      'name*,displayName,description,testDefinition*,entityFQN*,testSuite,parameterValues,computePassedFailedRowCount,useDynamicAssertion,inspectionQuery,tags,glossaryTerms';
    const csv = `${header}\r\nquantity_positive,,,columnValuesToBeNotNull,${TABLE}.quantity,,,,,,,\r\n`;
    const res = await importInto('dataQuality/testCases', TABLE, csv).expect(200);
    expect(rowsOf(res.body.importResultsCsv as string)[1]!.slice(0, 2)).toEqual(['success', 'Entity created']);
    const created = (await app.get(`/api/v1/dataQuality/testCases/name/${TABLE}.quantity.quantity_positive`).expect(200)).body;
    expect(created).toMatchObject({ entityLink: `<#E::table::${TABLE}::columns::quantity>`, testDefinition: { name: 'columnValuesToBeNotNull' } });
    const bad = await importInto('dataQuality/testCases', TABLE, `${header}\r\nx,,,columnValuesToBeNotNull,${TABLE}.quantity,,,true,,,,\r\n`, 'dryRun=true').expect(200);
    expect(rowsOf(bad.body.importResultsCsv as string)[1]![1]).toBe('#INVALID_FIELD: Field 8 error - computePassedFailedRowCount is not kept by this server: leave the cell empty');
  });

  it('an import needs the edit permission: a DataConsumer gets 403; an unknown entity is 404', async () => {
    expectError(await importInto('databases', DATABASE, `${ENTITY_HEADER}\r\n`, 'dryRun=true', app.tokens.consumer), 403);
    expectError(await importInto('databases', `${SERVICE}.nope`, `${ENTITY_HEADER}\r\n`, 'dryRun=true'), 404);
  });
});

describe('profile openmetadata: the same operations', () => {
  it('export, dry-run import and the asynchronous forms answer as in the contract profile', async () => {
    const om = await startApp({ fixtures: 'default', at: T0, profile: 'openmetadata' });
    const csv = (await om.get(`/api/v1/tables/name/${TABLE}/export`).expect(200)).text;
    expect(csv.startsWith('column.name*,')).toBe(true);
    const res = await om.request('put', `/api/v1/tables/name/${TABLE}/importAsync?dryRun=true`).set('Content-Type', 'text/plain').send(csv).expect(200);
    expect(res.body.result).toMatchObject({ dryRun: true, status: 'success' });
    await om.get(`/api/v1/services/databaseServices/name/${SERVICE}/exportAsync`).expect(202);
    await om.close();
  });
});

describe('--data: an import is one journal record, a dry run none', () => {
  it('given a dry run and then the import, want no record and then exactly one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ck-csv-')), 'state.json');
    const server = await startApp({ fixtures: 'default', dataFile: file, at: T0 });
    const records = (): string[] => readFileSync(journalPath(file), 'utf8').split('\n').filter(Boolean);
    const csv = `${ENTITY_HEADER}\r\nsales,Sales,Edited.,,,,,,,,,\r\nstaging,,,,,,,,,,,\r\n`;
    const start = records().length;
    const put = (query: string) => server.request('put', `/api/v1/databases/name/${DATABASE}/import?${query}`).set('Content-Type', 'text/plain').send(csv).expect(200);
    await put('dryRun=true');
    expect(records().length).toBe(start);
    await put('dryRun=false');
    const added = records().slice(start);
    expect(added).toHaveLength(1);
    const puts = (JSON.parse(added[0]!) as { put?: { entity: { fullyQualifiedName: string } }[] }).put ?? [];
    expect(puts.map((p) => p.entity.fullyQualifiedName)).toEqual(expect.arrayContaining([SCHEMA, `${DATABASE}.staging`]));
    await server.close();
  });
});
