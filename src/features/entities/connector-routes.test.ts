/**
 * OpenMetadata 2.0's connector and services-page calls (docs/behaviour.md "Delete and restore",
 * "Services"), through HTTP: deleteStale soft-deletes the unseen entities of a scope (or only
 * reports them with dryRun), never for an empty list; the services overview counts services by
 * kind and connector.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, startApp } from '../../../test/kit.ts';

let c: TestApp;
beforeAll(async () => {
  c = await startApp();
}, SLOW_START);

/** A schema with tables t0…t<n-1>; returns their FQNs. */
async function schemaWithTables(n: number): Promise<{ schema: string; tables: string[] }> {
  const svc = c.unique('svc');
  await c.put('/api/v1/services/databaseServices', { name: svc, serviceType: 'Postgres', connection: { config: { type: 'Postgres' } } }).expect(201);
  await c.put('/api/v1/databases', { name: 'db', service: svc }).expect(201);
  await c.put('/api/v1/databaseSchemas', { name: 'sch', database: `${svc}.db` }).expect(201);
  const tables: string[] = [];
  for (let i = 0; i < n; i++)
    tables.push(
      String(
        ((await c.post('/api/v1/tables', { name: `t${i}`, databaseSchema: `${svc}.db.sch`, columns: [{ name: 'c', dataType: 'INT' }] }).expect(201)).body as Body)
          .fullyQualifiedName,
      ),
    );
  return { schema: `${svc}.db.sch`, tables };
}

const deleted = async (fqn: string) => ((await c.get(`/api/v1/tables/name/${encodeURIComponent(fqn)}?include=all`).expect(200)).body as Body).deleted;

describe('PUT /v1/tables/deleteStale', () => {
  it('soft-deletes the unseen tables of the scope; dryRun only reports them', async () => {
    const { schema, tables } = await schemaWithTables(4);
    const request = { scopeFqn: schema, scopeEntityType: 'databaseSchema', seenFqns: tables.slice(0, 2) };
    const dry = (await c.put('/api/v1/tables/deleteStale', { ...request, dryRun: true }).expect(200)).body as Body;
    expect(dry).toMatchObject({ dryRun: true, numberOfRowsPassed: 2 });
    for (const fqn of tables) expect(await deleted(fqn), fqn).toBe(false);
    const done = (await c.put('/api/v1/tables/deleteStale', request).expect(200)).body as { successRequest: { request: string }[] };
    expect(done.successRequest.map((r) => r.request).sort()).toEqual(tables.slice(2).sort());
    expect(await Promise.all(tables.map(deleted))).toEqual([false, false, true, true]);
  });

  it('the service scope spans its databases; an empty seen list or an unknown scope deletes nothing; an unknown scope type is 400; a DataConsumer 403', async () => {
    const { schema, tables } = await schemaWithTables(2);
    const service = schema.split('.')[0]!;
    expect(
      ((await c.put('/api/v1/tables/deleteStale', { scopeFqn: service, scopeEntityType: 'databaseService', seenFqns: [] }).expect(200)).body as Body).numberOfRowsProcessed,
    ).toBe(0);
    expect(
      ((await c.put('/api/v1/tables/deleteStale', { scopeFqn: 'no.such.scope', scopeEntityType: 'databaseSchema', seenFqns: ['x'] }).expect(200)).body as Body)
        .numberOfRowsProcessed,
    ).toBe(0);
    await c.put('/api/v1/tables/deleteStale', { scopeFqn: schema, scopeEntityType: 'notAType', seenFqns: ['x'] }).expect(400);
    await c.put('/api/v1/tables/deleteStale', { scopeFqn: schema, scopeEntityType: 'databaseSchema', seenFqns: ['x'] }, c.tokens.consumer).expect(403);
    const res = (await c.put('/api/v1/tables/deleteStale', { scopeFqn: service, scopeEntityType: 'service', seenFqns: [tables[0]] }).expect(200)).body as Body;
    expect(res.numberOfRowsPassed).toBe(1);
    expect(await deleted(tables[1]!)).toBe(true);
  });
});

describe('GET /v1/services/overview', () => {
  it('counts the live services by kind and connector', async () => {
    const before = (await c.get('/api/v1/services/overview').expect(200)).body as {
      total: number;
      byType: { serviceType: string; count: number; byConnector: Record<string, number> }[];
    };
    await c.put('/api/v1/services/storageServices', { name: c.unique('lake'), serviceType: 'S3', connection: { config: { type: 'S3' } } }).expect(201);
    const after = (await c.get('/api/v1/services/overview').expect(200)).body as typeof before;
    const storage = (o: typeof before) => o.byType.find((t) => t.serviceType === 'storageService')!;
    expect(after.total).toBe(before.total + 1);
    expect(storage(after).byConnector.S3).toBe((storage(before).byConnector.S3 ?? 0) + 1);
  });
});
