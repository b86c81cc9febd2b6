import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const CONFIG = { profileSample: 20, profileSampleType: 'PERCENTAGE', sampleDataCount: 50 };
const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

const SERVED = [
  { collection: 'databases', fqn: 'svc.db', field: 'databaseProfilerConfig' },
  { collection: 'databaseSchemas', fqn: 'svc.db.sch', field: 'databaseSchemaProfilerConfig' },
];

describe.each(['contract', 'openmetadata'] as const)(
  'database and schema profiler configuration, profile %s (docs/behaviour.md "Database and schema profiler configuration")',
  (profile) => {
    it.each(SERVED)('$collection: GET / PUT / DELETE answer the entity with the field; the version stays; fields= shows it', async ({ collection, fqn, field }) => {
      const c = apps[profile];
      await createTable(c);
      const entity = (await c.get(`/api/v1/${collection}/name/${fqn}`).expect(200)).body;
      const path = `/api/v1/${collection}/${entity.id}/${field}`;
      await c.delete(path).expect(200);
      const given = [
        { method: 'get', want: undefined },
        { method: 'put', body: CONFIG, want: CONFIG },
        { method: 'get', want: CONFIG },
        { method: 'put', body: { sampleDataCount: 5 }, want: { sampleDataCount: 5 } },
        { method: 'delete', want: undefined },
        { method: 'get', want: undefined },
      ] as const;
      for (const g of given) {
        const res = g.method === 'put' ? await c.put(path, g.body) : await c.request(g.method, path);
        expect({ method: g.method, status: res.status, id: res.body.id, config: res.body[field] }).toEqual({ method: g.method, status: 200, id: entity.id, config: g.want });
      }
      await c.put(path, CONFIG).expect(200);
      const read = await c.get(`/api/v1/${collection}/${entity.id}?fields=${field}`).expect(200);
      expect(read.body[field]).toEqual(CONFIG);
      expect(read.body.version).toBe(entity.version);
      expect((await c.get(`/api/v1/${collection}/${entity.id}`).expect(200)).body[field]).toBeUndefined();
    });

    it.each(SERVED)('$collection: an invalid configuration is 400 and an unknown id 404', async ({ collection, field }) => {
      const c = apps[profile];
      await createTable(c);
      const entity = (await c.get(`/api/v1/${collection}/name/${SERVED.find((s) => s.collection === collection)!.fqn}`).expect(200)).body;
      await c.put(`/api/v1/${collection}/${entity.id}/${field}`, { profileSampleType: 'HALF' }).expect(400);
      await c.put(`/api/v1/${collection}/${entity.id}/${field}`, { nope: 1 }).expect(400);
      for (const method of ['get', 'delete'] as const) await c.request(method, `/api/v1/${collection}/${MISSING}/${field}`).expect(404);
      await c.put(`/api/v1/${collection}/${MISSING}/${field}`, CONFIG).expect(404);
    });
  },
);
