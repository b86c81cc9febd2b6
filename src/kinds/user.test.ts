/**
 * A user's roles (OpenMetadata's createUser.json `roles`: role ids; names too, here) are held as
 * references (user.json `roles`), so the document's own example request for users creates one, and
 * the user can then be upserted and deleted (docs/behaviour.md "Users and teams").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { expectError, SLOW_START, startApp, storeDump, v1 } from '../../test/kit.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
}, SLOW_START);

const DATA_STEWARD = 'f0135469-69e8-4afd-a6a1-d460be2b33a2';

describe('roles of a user', () => {
  it('POST with role names answers 201 with role references; PUT and DELETE by name then work', async () => {
    const name = app.unique('jane');
    const created = await app.post(v1('users'), { name, email: `${name}@example.com`, roles: ['DataSteward', 'DataSteward'] }).expect(201);
    expect(created.body.roles).toEqual([{ id: DATA_STEWARD, type: 'role', name: 'DataSteward', fullyQualifiedName: 'DataSteward', displayName: 'DataSteward', deleted: false }]);
    const read = await app.get(v1('users', `/name/${name}?fields=roles`)).expect(200);
    expect(read.body.roles).toEqual(created.body.roles);
    const updated = await app.put(v1('users'), { name, email: `${name}@example.com`, roles: ['DataConsumer'], description: 'now a consumer' }).expect(200);
    expect(updated.body.roles.map((r: { name: string }) => r.name)).toEqual(['DataConsumer']);
    await app.delete(v1('users', `/name/${name}`)).expect(200);
  });

  it('names a role by its id as well', async () => {
    const name = app.unique('joe');
    const created = await app.post(v1('users'), { name, email: `${name}@example.com`, roles: [DATA_STEWARD] }).expect(201);
    expect(created.body.roles).toEqual([expect.objectContaining({ id: DATA_STEWARD, name: 'DataSteward' })]);
  });

  it('an unknown role is 404 and creates nothing', async () => {
    const before = storeDump(app.ctx);
    const name = app.unique('ann');
    expectError(await app.post(v1('users'), { name, email: `${name}@example.com`, roles: ['Overlord'] }), 404, 'NOT_FOUND', 'role instance for Overlord not found');
    expect(storeDump(app.ctx)).toBe(before);
  });
});
