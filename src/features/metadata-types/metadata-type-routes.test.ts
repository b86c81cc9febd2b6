/**
 * Types and custom properties against a running app, in both profiles (docs/behaviour.md "Custom
 * properties"; openapi/paths/metadata-types.yaml): the type list, adding properties to an entity
 * type, and every entity's `extension` checked against its type's properties on create, upsert
 * and patch.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

type Type = { id: string; name: string; category: string; version: number; customProperties?: { name: string; propertyType: { name: string } }[] };

const catalogs: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  catalogs.contract = await startApp({ at: T0 });
  catalogs.openmetadata = await startApp({ at: T0, profile: 'openmetadata' });
}, SLOW_START);

async function typeNamed(c: TestApp, name: string): Promise<Type> {
  return (await c.get(`/api/v1/metadata/types/name/${name}?fields=customProperties`).expect(200)).body as Type;
}

/** Adds a property of `propertyType` to an entity type (200 expected). */
async function addProperty(c: TestApp, entityType: string, name: string, propertyType: string, config?: unknown) {
  const [entity, property] = await Promise.all([typeNamed(c, entityType), typeNamed(c, propertyType)]);
  return c
    .put(`/api/v1/metadata/types/${entity.id}`, {
      name,
      description: `${name} of a ${entityType}`,
      propertyType: { id: property.id, type: 'type' },
      ...(config !== undefined ? { customPropertyConfig: { config } } : {}),
    })
    .expect(200);
}

describe('the types (GET /v1/metadata/types)', () => {
  it('property types and one entity type per kind, by category, paged, with stable ids', async () => {
    const c = catalogs.contract;
    const fields = await c.get('/api/v1/metadata/types?category=field&limit=100').expect(200);
    const fieldNames = (fields.body.data as Type[]).map((t) => t.name);
    expect(fieldNames).toEqual(
      expect.arrayContaining([
        'string',
        'integer',
        'number',
        'markdown',
        'email',
        'timestamp',
        'duration',
        'enum',
        'date-cp',
        'dateTime-cp',
        'time-cp',
        'entityReference',
        'entityReferenceList',
      ]),
    );
    expect(fieldNames).not.toContain('table-cp');
    const entities = await c.get('/api/v1/metadata/types?category=entity&limit=100').expect(200);
    expect((entities.body.data as Type[]).map((t) => t.name)).toEqual(expect.arrayContaining(['table', 'dashboard', 'container', 'user']));
    expect(entities.body.data.every((t: Type) => t.category === 'entity' && t.customProperties === undefined)).toBe(true);
    const first = await c.get('/api/v1/metadata/types?limit=2').expect(200);
    const second = await c.get(`/api/v1/metadata/types?limit=2&after=${first.body.paging.after as string}`).expect(200);
    expect(second.body.paging.before).toBeDefined();
    expect(second.body.data[0].name > first.body.data[1].name).toBe(true);
    // Ids are derived from names: the other app (another profile) gives the same one.
    expect((await typeNamed(catalogs.openmetadata, 'table')).id).toBe((await typeNamed(c, 'table')).id);
    await c.get('/api/v1/metadata/types/name/table?fields=owners').expect(400);
    await c.get('/api/v1/metadata/types/name/no_such_type').expect(404);
    await c.get('/api/v1/metadata/types/00000000-0000-4000-8000-000000000000').expect(404);
  });
});

describe.each(['contract', 'openmetadata'] as const)('custom properties (profile %s)', (profile) => {
  let c: TestApp;
  beforeAll(() => {
    c = catalogs[profile];
  });

  it('adding properties makes new versions of the entity type; the same property again changes nothing', async () => {
    const before = await typeNamed(c, 'table');
    const added = await addProperty(c, 'table', 'dataSteward', 'string');
    expect(added.headers['x-openmetadata-change']).toBe('entityUpdated');
    expect(added.body).toMatchObject({
      name: 'table',
      version: Math.round((before.version + 0.1) * 10) / 10,
      customProperties: expect.arrayContaining([expect.objectContaining({ name: 'dataSteward', propertyType: expect.objectContaining({ name: 'string', type: 'type' }) })]),
    });
    const again = await addProperty(c, 'table', 'dataSteward', 'string');
    expect(again.headers['x-openmetadata-change']).toBe('entityNoChange');
    expect(again.body.version).toBe(added.body.version);
    await addProperty(c, 'table', 'rowLimit', 'integer');
    await addProperty(c, 'table', 'tier', 'enum', { values: ['gold', 'silver', 'bronze'], multiSelect: false });
    await addProperty(c, 'table', 'labels', 'enum', { values: ['pii', 'finance', 'ops'], multiSelect: true });
    await addProperty(c, 'table', 'reviewedOn', 'date-cp', 'yyyy-MM-dd');
    await addProperty(c, 'table', 'owner2', 'entityReference', ['user', 'team']);
    const listed = await c.get('/api/v1/metadata/types/name/table/customProperties').expect(200);
    expect(listed.body.map((p: { name: string }) => p.name).sort()).toEqual(['dataSteward', 'labels', 'owner2', 'reviewedOn', 'rowLimit', 'tier']);
    const all = await c.get('/api/v1/metadata/types/customProperties').expect(200);
    expect(all.body.table).toEqual(
      expect.arrayContaining([
        { name: 'rowLimit', type: 'integer' },
        { name: 'tier', type: 'enum', customPropertyConfig: { config: { values: ['gold', 'silver', 'bronze'], multiSelect: false } } },
      ]),
    );
    const fields = await c.get('/api/v1/metadata/types/fields/table').expect(200);
    expect(fields.body).toEqual(
      expect.arrayContaining([
        { name: 'name', type: 'string' },
        { name: 'columns', type: 'array<column>' },
        { name: 'extension.tier', type: 'enum' },
      ]),
    );
  });

  it('refuses bad property definitions (given a property, want 400 or 404 and the message)', async () => {
    const table = await typeNamed(c, 'table');
    const string = await typeNamed(c, 'string');
    const enumType = await typeNamed(c, 'enum');
    const dateType = await typeNamed(c, 'date-cp');
    const put = (id: string, body: unknown) => c.put(`/api/v1/metadata/types/${id}`, body);
    const cases: { given: [string, unknown]; status: number; message?: string }[] = [
      {
        given: [table.id, { name: 'e1', description: 'd', propertyType: { id: enumType.id, type: 'type' } }],
        status: 400,
        message: 'Enum Custom Property Type must have EnumConfig.',
      },
      {
        given: [table.id, { name: 'e2', description: 'd', propertyType: { id: enumType.id, type: 'type' }, customPropertyConfig: { config: { values: [] } } }],
        status: 400,
        message: 'Enum Custom Property Type must have EnumConfig populated with values.',
      },
      {
        given: [table.id, { name: 'e3', description: 'd', propertyType: { id: enumType.id, type: 'type' }, customPropertyConfig: { config: { values: ['a', 'a'] } } }],
        status: 400,
        message: 'Enum Custom Property values cannot have duplicates.',
      },
      {
        given: [table.id, { name: 'd1', description: 'd', propertyType: { id: dateType.id, type: 'type' }, customPropertyConfig: { config: 'yyyy-MM-dd HH:mm' } }],
        status: 400,
        message: 'Invalid date format: yyyy-MM-dd HH:mm',
      },
      { given: [table.id, { name: 'bad name', description: 'd', propertyType: { id: string.id, type: 'type' } }], status: 400 },
      { given: [table.id, { name: 'x', description: 'd', propertyType: { id: table.id, type: 'type' } }], status: 404 },
      {
        given: [string.id, { name: 'x', description: 'd', propertyType: { id: string.id, type: 'type' } }],
        status: 400,
        message: "Only entity types can be extended and field types can't be extended",
      },
      { given: ['00000000-0000-4000-8000-000000000000', { name: 'x', description: 'd', propertyType: { id: string.id, type: 'type' } }], status: 404 },
    ];
    for (const { given, status, message } of cases) {
      const res = await put(...given);
      expect({ given, status: res.status, ...(message ? { message: res.body.message } : {}) }).toEqual({ given, status, ...(message ? { message } : {}) });
    }
    await c.put(`/api/v1/metadata/types/${table.id}`, { name: 'x', description: 'd', propertyType: { id: string.id, type: 'type' } }, c.tokens.consumer).expect(403);
  });

  it('checks extension values on create, upsert and patch (given an extension, want the status and message)', async () => {
    const user = await c.get('/api/v1/users/name/admin').expect(200);
    const cases: { extension: Record<string, unknown>; status: number; message?: string }[] = [
      { extension: { dataSteward: 'Ana', rowLimit: 10, tier: ['gold'], labels: ['pii', 'finance'], reviewedOn: '2025-02-28' }, status: 201 },
      { extension: { nope: 'x' }, status: 400, message: 'Unknown custom field nope' },
      { extension: { rowLimit: 'ten' }, status: 400, message: 'Custom field rowLimit has invalid JSON [$: string found, integer expected]' },
      { extension: { dataSteward: 12 }, status: 400, message: 'Custom field dataSteward has invalid JSON [$: integer found, string expected]' },
      { extension: { tier: ['gold', 'silver'] }, status: 400, message: 'Only one value allowed for non-multiSelect tier property' },
      { extension: { tier: ['platinum'] }, status: 400, message: "Values '[platinum]' not supported for property tier" },
      { extension: { reviewedOn: '28/02/2025' }, status: 400, message: 'Custom field reviewedOn value is not as per defined format yyyy-MM-dd' },
      { extension: { reviewedOn: '2025-13-01' }, status: 400, message: 'Custom field reviewedOn value is not as per defined format yyyy-MM-dd' },
      { extension: { owner2: { id: user.body.id, type: 'user' } }, status: 201 },
      { extension: { owner2: { id: user.body.id, type: 'table' } }, status: 400, message: 'Custom field owner2: entity type table is not one of user, team' },
    ];
    await createTable(c); // svc.db.sch
    for (const [i, { extension, status, message }] of cases.entries()) {
      const res = await c.post('/api/v1/tables', { name: `ext_${profile}_${i}`, databaseSchema: 'svc.db.sch', columns: [{ name: 'id', dataType: 'BIGINT' }], extension });
      expect({ extension, status: res.status, ...(message ? { message: res.body.message } : {}) }).toEqual({ extension, status, ...(message ? { message } : {}) });
    }
  });

  it('stores values as OpenMetadata does (enum values sorted, references completed); PUT and PATCH are checked too', async () => {
    const user = await c.get('/api/v1/users/name/admin').expect(200);
    const t = await createTable(c, `stored_${profile}`, [{ name: 'id', dataType: 'BIGINT' }], {
      extension: { labels: ['pii', 'finance'], owner2: { id: user.body.id, type: 'user' } },
    });
    const read = await c.get(`/api/v1/tables/${t.id}?fields=extension`).expect(200);
    expect(read.body.extension).toEqual({
      labels: ['finance', 'pii'],
      owner2: expect.objectContaining({ id: user.body.id, type: 'user', name: 'admin', fullyQualifiedName: 'admin' }),
    });
    const put = await c.put('/api/v1/tables', { name: t.name, databaseSchema: 'svc.db.sch', columns: [{ name: 'id', dataType: 'BIGINT' }], extension: { rowLimit: 1.5 } });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe('Custom field rowLimit has invalid JSON [$: number found, integer expected]');
    const patched = await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/extension/rowLimit', value: 5 }]).expect(200);
    expect(patched.body.extension).toMatchObject({ rowLimit: 5, labels: ['finance', 'pii'] });
    const badPatch = await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/extension/unknown', value: 5 }]).expect(400);
    expect(badPatch.body.message).toBe('Unknown custom field unknown');
    // Other kinds have no properties yet: any value is unknown.
    const svc = await c.post('/api/v1/services/storageServices', {
      name: `s_${profile}`,
      serviceType: 'S3',
      connection: { config: { type: 'S3' } },
      extension: { dataSteward: 'x' },
    });
    expect([svc.status, svc.body.message]).toEqual([400, 'Unknown custom field dataSteward']);
  });

  it('removing a property with JSON Patch takes its values off the entities of the type, without a new version', async () => {
    const t = await createTable(c, `removal_${profile}`, [{ name: 'id', dataType: 'BIGINT' }], { extension: { dataSteward: 'Ana', rowLimit: 3 } });
    const table = await typeNamed(c, 'table');
    const index = table.customProperties!.findIndex((p) => p.name === 'dataSteward');
    const res = await c.patch(`/api/v1/metadata/types/${table.id}`, [{ op: 'remove', path: `/customProperties/${index}` }]).expect(200);
    expect(res.body.customProperties.map((p: { name: string }) => p.name)).not.toContain('dataSteward');
    expect(res.body.version).toBe(Math.round((table.version + 0.1) * 10) / 10);
    const read = await c.get(`/api/v1/tables/${t.id}?fields=extension`).expect(200);
    expect(read.body.extension).toEqual({ rowLimit: 3 });
    expect(read.body.version).toBe(0.1);
    await c.patch(`/api/v1/metadata/types/${table.id}`, [{ op: 'replace', path: '/name', value: 'tables' }]).expect(200);
    expect((await typeNamed(c, 'table')).name).toBe('table');
  });

  it('the state export carries the custom properties; reset forgets them', async () => {
    const state = (await request(c.app).get('/__admin/state').expect(200)).body;
    expect(state.sideData.types.table.customProperties.map((p: { name: string }) => p.name)).toContain('rowLimit');
    await request(c.app).post('/__admin/reset').expect(200);
    expect((await typeNamed(c, 'table')).customProperties).toEqual([]);
    const imported = await request(c.app).put('/__admin/state').send(state);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect((await typeNamed(c, 'table')).customProperties!.map((p) => p.name)).toContain('rowLimit');
  });
});
