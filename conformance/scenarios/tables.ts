/** Table sub-resources (profiler config, sample data, followers, votes) and data contract results. */
import { followAndCheck, voteAndCheck } from '../commands/social.ts';
import type { Exchange } from '../http.ts';
import { asArray, asObject } from '../http.ts';
import { KINDS } from '../kinds.ts';
import type { Model, ModelEntity } from '../model.ts';
import { createEntity, tagOf } from '../ops.ts';
import type { Session } from '../session.ts';
import { EVERY_OPERATION_RULES, everyOperation } from './operations.ts';
import { SetupError, setupOk, type Scenario } from './support.ts';

const MISSING_TABLE = '3d6f0a52-0000-4000-8000-0000000000aa';

/** database service → database → schema → table with two columns. */
export async function makeTable(s: Session, m: Model): Promise<ModelEntity> {
  const { entity: service } = await createEntity(s, m, KINDS.databaseService, null, { checkFqn: false });
  if (!service) throw new SetupError('could not create a database service');
  const { entity: database } = await createEntity(s, m, KINDS.database, service, { checkFqn: false });
  if (!database) throw new SetupError('could not create a database');
  const addChild = async (kindId: 'databaseSchema' | 'table', parent: ModelEntity, body: Record<string, unknown>) => {
    const kind = KINDS[kindId];
    const ex = await s.send({ method: 'POST', path: kind.path, body });
    const got = setupOk(ex, [200, 201], `create a ${kindId}`);
    if (typeof got.id !== 'string') throw new SetupError(`create a ${kindId}: no id in ${ex.responseText.slice(0, 200)}`);
    return m.add({
      kind,
      name: String(body.name),
      fqn: typeof got.fullyQualifiedName === 'string' ? got.fullyQualifiedName : `${parent.fqn}.${String(body.name)}`,
      id: got.id,
      parent,
      root: service,
      state: 'active',
      version: typeof got.version === 'number' ? got.version : null,
      body,
      deletedWith: null,
      following: false,
      vote: 'unVoted',
    });
  };
  const schema = await addChild('databaseSchema', database, { name: m.freshName(tagOf(KINDS.databaseSchema)), database: database.fqn });
  return addChild('table', schema, {
    name: m.freshName(tagOf(KINDS.table)),
    databaseSchema: schema.fqn,
    columns: [
      { name: 'c1', dataType: 'INT' },
      { name: 'c2', dataType: 'STRING' },
    ],
  });
}

/** True when `sub`'s fields all appear, equal, in `whole`. */
function containsAll(whole: unknown, sub: Record<string, unknown>): boolean {
  const w = asObject(whole);
  return !!w && Object.entries(sub).every(([k, v]) => JSON.stringify(w[k]) === JSON.stringify(v));
}

export const tableSubresources: Scenario = {
  name: 'table-subresources',
  rules: [
    'profiler-config.round-trip',
    'profiler-config.not-found-404',
    'sample-data.round-trip',
    'sample-data.not-found-404',
    'followers.consistent',
    'votes.consistent',
    'table-profile.round-trip',
    'versions.arithmetic',
    'sample-data.per-table',
  ],
  async run(s, m) {
    const c = s.checker;
    const table = await makeTable(s, m);
    const exp = s.ctx.exp;
    const base = `/v1/tables/${table.id}`;
    // Whether an answer holds no profiler config / sample data: 404 (contract) or, for OpenMetadata, the table without it.
    const nothingStored = (ex: Exchange, field: string) => ex.status === 404 || (exp.profilerConfigResponse === 'table' && ex.status === 200 && asObject(ex.json)?.[field] == null);

    // Profiler configuration.
    const seg = exp.profilerConfigPath;
    const cfgField = 'tableProfilerConfig';
    const none = await s.send({ method: 'GET', path: `${base}/${seg}` });
    c.check(
      'profiler-config.not-found-404',
      nothingStored(none, cfgField),
      `GET ${seg} of a table with none: 404`,
      () => `${none.status} ${none.responseText.slice(0, 200)}`,
      none,
    );
    if (none.status === 404) s.errorBody(none);
    for (const method of ['GET', 'PUT'] as const) {
      const ex = await s.send({ method, path: `/v1/tables/${MISSING_TABLE}/${seg}`, body: method === 'PUT' ? { profileSample: 10 } : undefined });
      s.expectError('profiler-config.not-found-404', ex, 404, `${method} ${seg} of an unknown table`);
    }
    const config = { profileSample: 50, profileSampleType: 'PERCENTAGE', sampleDataCount: 25, profileQuery: 'select * from t', excludeColumns: ['c2'] };
    const configOf = (ex: Exchange) => (exp.profilerConfigResponse === 'config' ? ex.json : asObject(ex.json)?.[cfgField]);
    const put = await s.send({ method: 'PUT', path: `${base}/${seg}`, body: config });
    if (c.status('profiler-config.round-trip', put, [200], `PUT ${seg}`)) {
      c.check('profiler-config.round-trip', containsAll(configOf(put), config), `the stored configuration ${JSON.stringify(config)}`, () => put.responseText.slice(0, 300), put);
    }
    const get = await s.send({ method: 'GET', path: `${base}/${seg}` });
    if (c.status('profiler-config.round-trip', get, [200], `GET ${seg} after PUT`)) {
      c.check('profiler-config.round-trip', containsAll(configOf(get), config), `GET returns ${JSON.stringify(config)}`, () => get.responseText.slice(0, 300), get);
    }
    const del = await s.send({ method: 'DELETE', path: `${base}/${seg}` });
    c.status('profiler-config.round-trip', del, [exp.tableDataDelete.status], `DELETE ${seg}`);
    const gone = await s.send({ method: 'GET', path: `${base}/${seg}` });
    c.check(
      'profiler-config.round-trip',
      nothingStored(gone, cfgField),
      `GET ${seg} after DELETE: nothing stored (404)`,
      () => `${gone.status} ${gone.responseText.slice(0, 200)}`,
      gone,
    );

    // Sample data.
    const rows = [
      [1, 'a'],
      [2, 'b'],
    ];
    const sample =
      exp.sampleData === 'contract'
        ? {
            columns: [
              { name: 'c1', dataType: 'INT' },
              { name: 'c2', dataType: 'STRING' },
            ],
            rows,
          }
        : { columns: ['c1', 'c2'], rows };
    const sampleOf = (ex: Exchange) => (exp.sampleData === 'contract' ? asObject(ex.json) : asObject(asObject(ex.json)?.sampleData));
    const sameSample = (ex: Exchange) => {
      const got = sampleOf(ex);
      const names = asArray(got?.columns)?.map((col) => (typeof col === 'string' ? col : asObject(col)?.name));
      return JSON.stringify(names) === JSON.stringify(['c1', 'c2']) && JSON.stringify(got?.rows) === JSON.stringify(rows);
    };
    const noSample = await s.send({ method: 'GET', path: `${base}/sampleData` });
    c.check(
      'sample-data.not-found-404',
      nothingStored(noSample, 'sampleData') || (exp.sampleData === 'table' && noSample.status === 200 && asObject(noSample.json)?.sampleData == null),
      'GET sampleData of a table with none: 404',
      () => `${noSample.status} ${noSample.responseText.slice(0, 200)}`,
      noSample,
    );
    if (noSample.status === 404) s.errorBody(noSample);
    for (const method of ['GET', 'PUT'] as const) {
      const ex = await s.send({ method, path: `/v1/tables/${MISSING_TABLE}/sampleData`, body: method === 'PUT' ? sample : undefined });
      s.expectError('sample-data.not-found-404', ex, 404, `${method} sampleData of an unknown table`);
    }
    const putSample = await s.send({ method: 'PUT', path: `${base}/sampleData`, body: sample });
    if (c.status('sample-data.round-trip', putSample, [200], 'PUT sampleData')) {
      c.check(
        'sample-data.round-trip',
        sameSample(putSample),
        `the stored sample data (columns c1, c2; rows ${JSON.stringify(rows)})`,
        () => putSample.responseText.slice(0, 300),
        putSample,
      );
    }
    const getSample = await s.send({ method: 'GET', path: `${base}/sampleData` });
    if (c.status('sample-data.round-trip', getSample, [200], 'GET sampleData after PUT')) {
      c.check(
        'sample-data.round-trip',
        sameSample(getSample),
        `GET returns columns c1, c2 and rows ${JSON.stringify(rows)}`,
        () => getSample.responseText.slice(0, 300),
        getSample,
      );
    }
    // Another table of the same schema: the sample data written to the first is not its.
    const schema = table.parent;
    if (schema) {
      const other = setupOk(
        await s.send({
          method: 'POST',
          path: KINDS.table.path,
          body: { name: m.freshName(tagOf(KINDS.table)), databaseSchema: schema.fqn, columns: [{ name: 'c1', dataType: 'INT' }] },
        }),
        [200, 201],
        'create a second table in the schema',
      );
      const otherSample = await s.send({ method: 'GET', path: `/v1/tables/${String(other.id)}/sampleData` });
      c.check(
        'sample-data.per-table',
        otherSample.status === 404 || (exp.sampleData === 'table' && otherSample.status === 200 && asObject(otherSample.json)?.sampleData == null),
        `GET sampleData of a second table of ${schema.fqn}, after PUT sampleData of ${table.fqn}: none (404${exp.sampleData === 'table' ? ', or the table without sampleData' : ''})`,
        () => `${otherSample.status} ${otherSample.responseText.slice(0, 200)}`,
        otherSample,
      );
      const again = await s.send({ method: 'GET', path: `${base}/sampleData` });
      c.check(
        'sample-data.per-table',
        again.status === 200 && sameSample(again),
        `GET sampleData of ${table.fqn} still answers its own`,
        () => `${again.status} ${again.responseText.slice(0, 200)}`,
        again,
      );
    }
    const delSample = await s.send({ method: 'DELETE', path: `${base}/sampleData` });
    c.status('sample-data.round-trip', delSample, [exp.tableDataDelete.status], 'DELETE sampleData');
    const afterSample = await s.send({ method: 'GET', path: `${base}/sampleData` });
    c.check(
      'sample-data.round-trip',
      afterSample.status === 404 || (exp.sampleData === 'table' && afterSample.status === 200 && asObject(afterSample.json)?.sampleData == null),
      'GET sampleData after DELETE: nothing stored (404)',
      () => `${afterSample.status} ${afterSample.responseText.slice(0, 200)}`,
      afterSample,
    );

    // OpenMetadata's path of the profiler configuration, which answers the table, in both profiles (docs/behaviour.md "Table data").
    if (seg !== 'tableProfilerConfig') {
      const other = `${base}/tableProfilerConfig`;
      const stored = (ex: Exchange) => asObject(ex.json)?.[cfgField];
      const putOther = await s.send({ method: 'PUT', path: other, body: config });
      if (c.status('profiler-config.round-trip', putOther, [200], 'PUT tableProfilerConfig')) {
        c.check(
          'profiler-config.round-trip',
          containsAll(stored(putOther), config),
          `the table with tableProfilerConfig ${JSON.stringify(config)}`,
          () => putOther.responseText.slice(0, 300),
          putOther,
        );
      }
      const getOther = await s.send({ method: 'GET', path: other });
      c.check(
        'profiler-config.round-trip',
        getOther.status === 200 && containsAll(stored(getOther), config),
        `GET tableProfilerConfig: the table with the configuration`,
        () => `${getOther.status} ${getOther.responseText.slice(0, 300)}`,
        getOther,
      );
      const delOther = await s.send({ method: 'DELETE', path: other });
      c.check(
        'profiler-config.round-trip',
        delOther.status === 200 && stored(delOther) == null,
        `DELETE tableProfilerConfig: 200, the table without it`,
        () => `${delOther.status} ${delOther.responseText.slice(0, 300)}`,
        delOther,
      );
    }

    await tableProfiles(s, table);

    // Followers and votes on a table (the contract's example kind).
    await followAndCheck(s, table, true);
    await followAndCheck(s, table, false);
    await voteAndCheck(s, table, 'votedUp');
    await voteAndCheck(s, table, 'unVoted');

    // A major change: a column removed (docs/behaviour.md "Versions").
    const before = asObject((await s.send({ method: 'GET', path: base })).json)?.version;
    if (typeof before === 'number') {
      const narrowed = { ...table.body, columns: (table.body.columns as unknown[]).slice(0, 1) };
      const put = await s.send({ method: 'PUT', path: KINDS.table.path, body: narrowed });
      const after = asObject(put.json)?.version;
      const expected = Math.round((before + 1) * 10) / 10;
      if (c.status('versions.arithmetic', put, [200], `PUT ${table.fqn} without its column c2`)) {
        c.check(
          'versions.arithmetic',
          after === expected,
          `PUT ${table.fqn} without its column c2: version ${expected} (+1.0, a major change)`,
          () => `version ${JSON.stringify(after)}`,
          put,
        );
      }
    }
  },
};

/**
 * A database's CSV: the export lists its schema; the export imported back (a dry run) passes every
 * row; the asynchronous forms answer a job (rule csv.export-import-round-trip).
 */
export const csvRoundTrip: Scenario = {
  name: 'csv-round-trip',
  rules: ['csv.export-import-round-trip', 'csv.dry-run-changes-nothing'],
  async run(s, m) {
    const rule = 'csv.export-import-round-trip';
    const c = s.checker;
    const table = await makeTable(s, m);
    const schema = table.parent;
    const database = schema?.parent;
    if (!schema || !database) throw new SetupError('the table has no schema or database in the model');
    const base = `${KINDS.database.path}/name/${encodeURIComponent(database.fqn)}`;
    const exported = await s.send({ method: 'GET', path: `${base}/export` });
    const lines = exported.responseText.split(/\r?\n/).filter(Boolean);
    if (!c.status(rule, exported, [200], `GET ${base}/export`)) return;
    c.check(
      rule,
      exported.responseContentType.startsWith('text/') && /(^|,)name\*?(,|$)/.test(lines[0] ?? '') && lines.slice(1).some((l) => l.split(',')[0] === schema.name),
      `GET ${base}/export: CSV, a header with name*, and a row of the schema ${schema.name}`,
      () => `${exported.responseContentType} ${exported.responseText.slice(0, 300)}`,
      exported,
    );
    const imported = await s.send({ method: 'PUT', path: `${base}/import`, query: { dryRun: true }, rawBody: exported.responseText, contentType: 'text/plain' });
    const result = asObject(imported.json);
    if (c.status(rule, imported, [200], `PUT ${base}/import?dryRun=true of the export`)) {
      c.check(
        rule,
        result?.status === 'success' && result?.numberOfRowsFailed === 0 && result?.dryRun === true,
        `the import of the export itself: status success, no row failed, a dry run`,
        () => imported.responseText.slice(0, 300),
        imported,
      );
    }
    await dryRunChangesNothing(s, base, exported.responseText, schema);
    const exportJob = await s.send({ method: 'GET', path: `${base}/exportAsync` });
    if (c.status(rule, exportJob, [202], `GET ${base}/exportAsync`)) {
      c.check(rule, typeof asObject(exportJob.json)?.jobId === 'string', 'an export job with its jobId', () => exportJob.responseText.slice(0, 300), exportJob);
    }
    const importJob = await s.send({ method: 'PUT', path: `${base}/importAsync`, query: { dryRun: true }, rawBody: exported.responseText, contentType: 'text/plain' });
    if (c.status(rule, importJob, [200], `PUT ${base}/importAsync?dryRun=true`)) {
      c.check(rule, typeof asObject(importJob.json)?.jobId === 'string', 'an import job with its jobId', () => importJob.responseText.slice(0, 300), importJob);
    }
  },
};

/**
 * A dry-run import of the export with the schema's description changed: a dry-run result, and the
 * schema as it was (description and version), read after (rule csv.dry-run-changes-nothing).
 */
async function dryRunChangesNothing(s: Session, base: string, csv: string, schema: ModelEntity): Promise<void> {
  const rule = 'csv.dry-run-changes-nothing';
  const c = s.checker;
  const path = `${KINDS.databaseSchema.path}/name/${encodeURIComponent(schema.fqn)}`;
  const before = asObject((await s.send({ method: 'GET', path })).json);
  const lines = csv.split('\r\n');
  const row = lines.findIndex((l, i) => i > 0 && l.split(',')[0] === schema.name);
  // The schema's row: name, displayName, description, ... (no cell of it is quoted: the names are the suite's own).
  if (row < 0 || lines[row]!.includes('"')) throw new SetupError(`the export of ${base} has no plain row for the schema ${schema.name}`);
  const cells = lines[row]!.split(',');
  const wanted = 'changed by a dry run of catalog-kit conform';
  cells[2] = wanted;
  lines[row] = cells.join(',');
  const imported = await s.send({ method: 'PUT', path: `${base}/import`, query: { dryRun: true }, rawBody: lines.join('\r\n'), contentType: 'text/plain' });
  const result = asObject(imported.json);
  c.check(
    rule,
    imported.status === 200 && result?.dryRun === true && result?.numberOfRowsFailed === 0,
    `PUT ${base}/import?dryRun=true with the schema's description changed: 200, a dry run, no row failed`,
    () => `${imported.status} ${imported.responseText.slice(0, 300)}`,
    imported,
  );
  const after = await s.send({ method: 'GET', path });
  const body = asObject(after.json);
  c.check(
    rule,
    after.status === 200 && body?.description === before?.description && body?.version === before?.version,
    `after the dry run, ${schema.fqn} as before: description ${JSON.stringify(before?.description)}, version ${JSON.stringify(before?.version)}`,
    () => `${after.status} description ${JSON.stringify(body?.description)}, version ${JSON.stringify(body?.version)}`,
    after,
  );
}

/**
 * PUT tableProfile stores a table, a column and a system profile; the three reads return them in
 * their time range, keyed as the profile says (rule table-profile.round-trip).
 */
async function tableProfiles(s: Session, table: ModelEntity): Promise<void> {
  const rule = 'table-profile.round-trip';
  const c = s.checker;
  const t = Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000;
  const profile = {
    tableProfile: { timestamp: t, rowCount: 2, columnCount: 2 },
    columnProfile: [{ name: 'c1', timestamp: t, nullCount: 0, min: 1, max: 2 }],
    systemProfile: [{ timestamp: t, operation: 'INSERT', rowsAffected: 2 }],
  };
  const put = await s.send({ method: 'PUT', path: `/v1/tables/${table.id}/tableProfile`, body: profile });
  const answered = asObject(put.json);
  if (c.status(rule, put, [200], 'PUT tableProfile')) {
    c.check(rule, answered?.id === table.id, `PUT tableProfile answers the table ${table.id}`, () => put.responseText.slice(0, 300), put);
  }
  const byFqn = s.ctx.exp.profileReadsByFqn;
  const key = byFqn ? encodeURIComponent(table.fqn) : table.id;
  const columnKey = byFqn ? encodeURIComponent(`${table.fqn}.c1`) : table.id;
  const range = { startTs: t - 60_000, endTs: t + 60_000 };
  for (const [path, wanted] of [
    [`/v1/tables/${key}/tableProfile`, { timestamp: t, rowCount: 2 }],
    [`/v1/tables/${columnKey}/columnProfile`, { timestamp: t, name: 'c1', nullCount: 0 }],
    [`/v1/tables/${key}/systemProfile`, { timestamp: t, operation: 'INSERT', rowsAffected: 2 }],
  ] as const) {
    const ex = await s.send({ method: 'GET', path, query: range });
    const data = asArray(asObject(ex.json)?.data) ?? [];
    c.check(
      rule,
      ex.status === 200 && data.some((d) => containsAll(d, wanted)),
      `GET ${path}?startTs=${range.startTs}&endTs=${range.endTs} lists ${JSON.stringify(wanted)}`,
      () => `${ex.status} ${ex.responseText.slice(0, 300)}`,
      ex,
    );
  }
  // The newest profiles, on the table and its column (docs/behaviour.md "Table columns and custom metrics").
  const latestPath = `/v1/tables/${encodeURIComponent(table.fqn)}/tableProfile/latest`;
  const latest = await s.send({ method: 'GET', path: latestPath });
  const got = asObject(latest.json);
  const c1 = asArray(got?.columns)
    ?.map(asObject)
    .find((col) => col?.name === 'c1');
  c.check(
    rule,
    latest.status === 200 && got?.id === table.id && containsAll(got.profile, { timestamp: t, rowCount: 2 }) && containsAll(c1?.profile, { timestamp: t, nullCount: 0 }),
    `GET ${latestPath}: the table with profile ${JSON.stringify({ timestamp: t, rowCount: 2 })} and column c1 with its profile`,
    () => `${latest.status} ${latest.responseText.slice(0, 300)}`,
    latest,
  );
}

const STATUSES = ['Success', 'Failed', 'PartialSuccess', 'Aborted', 'Queued', 'Running'];

export const dataContractResults: Scenario = {
  name: 'data-contract-results',
  rules: [
    'data-contract.results-newest-first',
    'data-contract.results-limit',
    'data-contract.results-time-range',
    'data-contract.results-latest',
    'data-contract.results-delete-one',
    'data-contract.results-delete-before',
    'data-contract.validate-returns-result',
    'data-contract.unknown-404',
    'data-contract.by-entity',
    ...EVERY_OPERATION_RULES,
  ],
  async run(s, m) {
    const c = s.checker;
    const table = await makeTable(s, m);
    const { entity: dataContract, ex: created } = await createEntity(s, m, KINDS.dataContract, null, {
      body: { name: m.freshName('dc'), entity: { id: table.id, type: 'table' }, description: 'catalog-kit conform' },
      checkFqn: false,
      fqnFromAnswer: true,
    });
    const contract = setupOk(created, [200, 201], 'create a data contract');
    const id = String(contract.id);
    s.registerExtra(`/v1/dataContracts/${id}`);
    const fqn = String(contract.fullyQualifiedName ?? '');
    const base = `/v1/dataContracts/${id}/results`;
    // Five runs a minute apart, ending ten minutes ago, stored out of order.
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 15 * 60_000;
    const ts = [0, 1, 2, 3, 4].map((i) => t0 + i * 60_000);
    const resultIds: unknown[] = [];
    for (const i of [2, 0, 4, 1, 3]) {
      const ex = await s.send({
        method: 'PUT',
        path: base,
        body: { timestamp: ts[i], contractExecutionStatus: i % 2 === 0 ? 'Success' : 'Failed', result: `run ${i}`, dataContractFQN: fqn, executionTime: 100 + i },
      });
      resultIds[i] = setupOk(ex, [200, 201], `store result ${i}`).id;
    }
    const window = { startTs: t0 - 30_000, endTs: t0 + 5 * 60_000 };
    const list = async (query: Record<string, number>) => {
      const ex = await s.send({ method: 'GET', path: base, query });
      return { ex, stamps: asArray(asObject(ex.json)?.data)?.map((r) => asObject(r)?.timestamp) };
    };
    const show = (x: { ex: Exchange; stamps?: unknown[] }) =>
      `${x.ex.status} timestamps ${JSON.stringify(x.stamps?.map((t) => (typeof t === 'number' ? (t - t0) / 60_000 : t)))} (minutes after the first)`;
    const at = (...i: number[]) => i.map((k) => ts[k]);
    const minutes = (...i: number[]) => JSON.stringify(i);

    const all = await list({ ...window, limit: 10 });
    c.check(
      'data-contract.results-newest-first',
      JSON.stringify(all.stamps) === JSON.stringify(at(4, 3, 2, 1, 0)),
      `results at minutes ${minutes(4, 3, 2, 1, 0)}, newest first`,
      () => show(all),
      all.ex,
    );
    const limited = await list({ ...window, limit: 2 });
    c.check(
      'data-contract.results-limit',
      JSON.stringify(limited.stamps) === JSON.stringify(at(4, 3)),
      `limit=2: the two newest (minutes ${minutes(4, 3)})`,
      () => show(limited),
      limited.ex,
    );
    const ranged = await list({ startTs: ts[1]! - 30_000, endTs: ts[3]! + 30_000, limit: 10 });
    c.check(
      'data-contract.results-time-range',
      JSON.stringify([...(ranged.stamps ?? [])].sort()) === JSON.stringify(at(1, 2, 3)),
      `startTs/endTs around minutes 1..3: exactly ${minutes(1, 2, 3)}`,
      () => show(ranged),
      ranged.ex,
    );
    const latest = await s.send({ method: 'GET', path: `${base}/latest` });
    c.check(
      'data-contract.results-latest',
      latest.status === 200 && asObject(latest.json)?.timestamp === ts[4],
      `the latest result (minute 4)`,
      () => `${latest.status} ${latest.responseText.slice(0, 200)}`,
      latest,
    );
    if (typeof resultIds[2] === 'string') {
      const one = await s.send({ method: 'GET', path: `${base}/${resultIds[2]}` });
      c.check(
        'data-contract.results-latest',
        one.status === 200 && asObject(one.json)?.id === resultIds[2] && asObject(one.json)?.timestamp === ts[2],
        `the result ${resultIds[2]} by its id (minute 2)`,
        () => `${one.status} ${one.responseText.slice(0, 200)}`,
        one,
      );
    }

    const delOne = await s.send({ method: 'DELETE', path: `${base}/${ts[2]}` });
    if (c.status('data-contract.results-delete-one', delOne, [200, 204], 'DELETE one result (minute 2)')) {
      const after = await list({ ...window, limit: 10 });
      c.check(
        'data-contract.results-delete-one',
        JSON.stringify(after.stamps) === JSON.stringify(at(4, 3, 1, 0)),
        `minutes ${minutes(4, 3, 1, 0)} remain`,
        () => show(after),
        after.ex,
      );
    }
    const delBefore = await s.send({ method: 'DELETE', path: `${base}/before/${ts[1]! + 30_000}` });
    if (c.status('data-contract.results-delete-before', delBefore, [200, 204], 'DELETE results before minute 1.5')) {
      const after = await list({ ...window, limit: 10 });
      const expected = s.checker.isActive('data-contract.results-delete-one') ? at(4, 3) : undefined;
      const ok = expected
        ? JSON.stringify(after.stamps) === JSON.stringify(expected)
        : (after.stamps ?? []).every((t) => typeof t === 'number' && t > ts[1]!) && (after.stamps ?? []).includes(ts[4]);
      c.check('data-contract.results-delete-before', ok, 'only minutes 3 and 4 remain', () => show(after), after.ex);
    }
    const latestAgain = await s.send({ method: 'GET', path: `${base}/latest` });
    c.check(
      'data-contract.results-latest',
      asObject(latestAgain.json)?.timestamp === ts[4],
      'the latest result is still minute 4',
      () => `${latestAgain.status} ${latestAgain.responseText.slice(0, 200)}`,
      latestAgain,
    );

    const validated = await s.send({ method: 'POST', path: `/v1/dataContracts/${id}/validate` });
    const v = asObject(validated.json);
    if (c.status('data-contract.validate-returns-result', validated, [200, 201], 'POST validate')) {
      c.check(
        'data-contract.validate-returns-result',
        !!v && STATUSES.includes(String(v.contractExecutionStatus)) && Number.isInteger(v.timestamp) && (fqn === '' || v.dataContractFQN === fqn),
        `a validation result of ${fqn} with a known contractExecutionStatus and a timestamp`,
        () => validated.responseText.slice(0, 300),
        validated,
      );
    }

    const missing = `/v1/dataContracts/9a1e5c07-0000-4000-8000-00000000dc00`;
    for (const [method, path, body] of [
      ['GET', `${missing}/results`, undefined],
      ['GET', `${missing}/results/latest`, undefined],
      ['PUT', `${missing}/results`, { timestamp: t0, contractExecutionStatus: 'Success', dataContractFQN: 'missing' }],
      ['POST', `${missing}/validate`, undefined],
    ] as const) {
      const ex = await s.send({ method, path, body });
      s.expectError('data-contract.unknown-404', ex, 404, `${method} ${path} (unknown data contract)`);
    }

    // The contract of an entity, and validating by entity (contract "Data contracts").
    const byEntity = { entityId: table.id, entityType: 'table' };
    const found = await s.send({ method: 'GET', path: '/v1/dataContracts/entity', query: byEntity });
    c.check(
      'data-contract.by-entity',
      found.status === 200 && asObject(found.json)?.id === id,
      `GET /v1/dataContracts/entity?entityId=${table.id}&entityType=table: the contract ${id}`,
      () => `${found.status} ${found.responseText.slice(0, 200)}`,
      found,
    );
    const byEntityValidated = await s.send({ method: 'POST', path: '/v1/dataContracts/entity/validate', query: byEntity });
    const r = asObject(byEntityValidated.json);
    if (c.status('data-contract.validate-returns-result', byEntityValidated, [200, 201], 'POST entity/validate')) {
      c.check(
        'data-contract.validate-returns-result',
        !!r && STATUSES.includes(String(r.contractExecutionStatus)) && (fqn === '' || r.dataContractFQN === fqn),
        `a validation result of ${fqn}, the table's contract`,
        () => byEntityValidated.responseText.slice(0, 300),
        byEntityValidated,
      );
    }

    // Every other operation of the collection (results changed the contract's version: a read resolves it).
    if (dataContract) {
      dataContract.version = null;
      await everyOperation(s, m, dataContract, null);
    }
  },
};
