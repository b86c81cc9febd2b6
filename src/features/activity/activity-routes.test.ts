/**
 * The activity stream (docs/behaviour.md "Activity"), through HTTP: a write of an entity is an
 * activity of its kind (a description update a DescriptionUpdated), found by entity, by actor, by
 * entity link, in the feeds of its owner and follower, counted; reactions and replies stay with it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../openapi/document.ts';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, createTable, startApp, tokenFor } from '../../../test/kit.ts';

let c: TestApp;
let carol: Body;
beforeAll(async () => {
  c = await startApp();
  carol = (await c.post('/api/v1/users', { name: 'carol', email: 'carol@example.com' }).expect(201)).body as Body;
}, SLOW_START);

const A = '/api/v1/activity';
const data = (res: { body: { data: Body[] } }) => res.body.data;

describe('the activity of a table', () => {
  it('a create and a description update: EntityCreated and DescriptionUpdated, newest first, by id, by name and by entity link', async () => {
    const t = await createTable(c);
    await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/description', value: 'Orders' }]).expect(200);
    for (const path of [
      `${A}/entity/table/${t.id}`,
      `${A}/entity/table/name/${encodeURIComponent(t.fqn)}`,
      `${A}/about?entityLink=${encodeURIComponent(`<#E::table::${t.fqn}>`)}`,
    ]) {
      const activity = data(await c.get(path).expect(200));
      expect(
        activity.map((a) => a.eventType),
        path,
      ).toEqual(['DescriptionUpdated', 'EntityCreated']);
      expect(activity[0]).toMatchObject({ entity: { id: t.id, type: 'table' }, actor: { name: 'admin' }, fieldName: 'description', newValue: 'Orders' });
    }
    await c.get(`${A}/entity/table/00000000-0000-4000-8000-000000000000`).expect(404);
  });

  it('an unknown entity type is 400 naming it, by id and by name; the document lists the types of the kinds served', async () => {
    for (const path of [`${A}/entity/tabel/00000000-0000-4000-8000-000000000000`, `${A}/entity/tabel/name/a.b`]) {
      const res = await c.get(path).expect(400);
      expect(res.body.message, path).toMatch(/^\[path param entityType must be equal to one of the allowed values \(storageService, .*\), not "tabel"\]$/);
    }
    const served = c.ctx.kinds.all.map((k) => k.type);
    expect([...(readDocument().components.schemas.EntityType as { enum: string[] }).enum].sort()).toEqual([...served].sort());
  });

  it("by actor, in the owner's and the follower's feeds, and counted", async () => {
    const t = await createTable(c);
    const admin = data(await c.get(`${A}?entityId=${t.id}`).expect(200));
    const adminId = (admin[0]!.actor as Body).id;
    expect(data(await c.get(`${A}/user/${String(adminId)}?limit=1000`).expect(200)).some((a) => (a.entity as Body).id === t.id)).toBe(true);
    const token = await tokenFor('DataConsumer', 'carol');
    expect(data(await c.get(`${A}/following`, token).expect(200)).some((a) => (a.entity as Body).id === t.id)).toBe(false);
    await c.request('put', `/api/v1/tables/${t.id}/followers`, token).set('Content-Type', 'application/json').send(JSON.stringify(carol.id)).expect(200);
    await c.patch(`/api/v1/tables/${t.id}`, [{ op: 'add', path: '/owners', value: [{ id: carol.id, type: 'user' }] }]).expect(200);
    expect(data(await c.get(`${A}/following`, token).expect(200)).some((a) => (a.entity as Body).id === t.id)).toBe(true);
    const mine = data(await c.get(`${A}/my-feed?limit=1000`, token).expect(200));
    expect(mine.find((a) => (a.entity as Body).id === t.id)?.eventType).toBe('OwnerUpdated');
    const count = (await c.get(`${A}/count`).expect(200)).body as number;
    expect(count).toBeGreaterThanOrEqual(3);
  });

  it('reactions (once per user and type) and replies stay with an activity', async () => {
    const t = await createTable(c);
    const [created] = data(await c.get(`${A}/entity/table/${t.id}`).expect(200));
    const id = String(created!.id);
    await c.put(`${A}/${id}/reaction/heart`).expect(200);
    const twice = (await c.put(`${A}/${id}/reaction/heart`).expect(200)).body as Body;
    expect(twice.reactions).toEqual([expect.objectContaining({ reactionType: 'heart', user: expect.objectContaining({ name: 'admin' }) })]);
    expect(((await c.delete(`${A}/${id}/reaction/heart`).expect(200)).body as Body).reactions).toEqual([]);
    const reply = (await c.post(`${A}/${id}/replies`, { message: 'Nice' }).expect(201)).body as Body;
    expect(reply).toMatchObject({ message: 'Nice', from: 'admin' });
    expect((await c.get(`${A}/${id}/replies`).expect(200)).body).toEqual({ data: [reply], paging: { total: 1 } });
    await c.get(`${A}/00000000-0000-4000-8000-000000000000/replies`).expect(404);
    const second = (await c.post(`${A}/${id}/replies`, { message: 'Agreed' }).expect(201)).body as Body;
    const page1 = (await c.get(`${A}/${id}/replies?limit=1`).expect(200)).body;
    expect([page1.data, page1.paging.total]).toEqual([[reply], 2]);
    expect((await c.get(`${A}/${id}/replies?limit=1&after=${page1.paging.after as string}`).expect(200)).body.data).toEqual([second]);
    expect((await c.get(`${A}/${id}/replies?after=Zm9yZ2Vk`).expect(400)).body.message).toBe('Invalid cursor Zm9yZ2Vk');
  });
});
