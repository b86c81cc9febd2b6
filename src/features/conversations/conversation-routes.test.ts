/**
 * Conversations (docs/behaviour.md "Conversations"), through HTTP: started about an entity, listed
 * by entity link and by user, patched (resolved; the message by its author only), reacted to,
 * replied to, deleted with their replies.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, createTable, startApp, tokenFor } from '../../../test/kit.ts';

let c: TestApp;
let dave: Body;
beforeAll(async () => {
  c = await startApp();
  dave = (await c.post('/api/v1/users', { name: 'dave', email: 'dave@example.com' }).expect(201)).body as Body;
}, SLOW_START);

const C = '/api/v1/conversations';

describe('a conversation about a table', () => {
  it('is started, listed by link and by its author, resolved, and then listed only with resolved=true', async () => {
    const t = await createTable(c);
    const link = `<#E::table::${t.fqn}>`;
    const started = (await c.post(C, { about: link, message: 'Who owns this?' }).expect(201)).body as Body;
    expect(started).toMatchObject({ about: link, message: 'Who owns this?', createdBy: 'admin', resolved: false, replyCount: 0, entityRef: { id: t.id } });
    const byLink = (await c.get(`${C}?entityLink=${encodeURIComponent(link)}`).expect(200)).body;
    expect(byLink.data.map((x: Body) => x.id)).toEqual([started.id]);
    const admin = (await c.get('/api/v1/users/name/admin').expect(200)).body as Body;
    expect((await c.get(`${C}?userId=${String(admin.id)}&limit=100`).expect(200)).body.data.map((x: Body) => x.id)).toContain(started.id);
    expect((await c.get(`${C}?userId=${String(dave.id)}`).expect(200)).body.data).toEqual([]);
    await c
      .request('patch', `${C}/${String(started.id)}`)
      .set('Content-Type', 'application/json-patch+json')
      .send([{ op: 'replace', path: '/resolved', value: true }])
      .expect(200);
    expect((await c.get(`${C}?entityLink=${encodeURIComponent(link)}`).expect(200)).body.data).toEqual([]);
    expect((await c.get(`${C}?entityLink=${encodeURIComponent(link)}&resolved=true`).expect(200)).body.data).toHaveLength(1);
    await c.post(C, { about: '<#E::table::no.such.table>', message: 'x' }).expect(404);
  });

  it('its message is changed by its author only; reactions and replies; a delete takes the replies', async () => {
    const t = await createTable(c);
    const started = (await c.post(C, { about: `<#E::table::${t.fqn}>`, message: 'Hello' }).expect(201)).body as Body;
    const id = String(started.id);
    const token = await tokenFor('DataConsumer', 'dave');
    const patch = (ops: unknown[], who?: string) => c.request('patch', `${C}/${id}`, who).set('Content-Type', 'application/json-patch+json').send(ops);
    await patch([{ op: 'replace', path: '/message', value: 'mine' }], token).expect(403);
    expect((await patch([{ op: 'replace', path: '/message', value: 'Hello all' }]).expect(200)).body.message).toBe('Hello all');
    const reacted = (await c.request('put', `${C}/${id}/reaction/rocket`, token).expect(200)).body as Body;
    expect(reacted.reactions).toEqual([expect.objectContaining({ reactionType: 'rocket', user: expect.objectContaining({ name: 'dave' }) })]);
    const reply = (await c.request('post', `${C}/${id}/replies`, token).send({ message: 'Hi' }).expect(201)).body as Body;
    expect(reply).toMatchObject({ message: 'Hi', from: 'dave' });
    expect((await c.get(`${C}/${id}`).expect(200)).body.replyCount).toBe(1);
    const replyPath = `${C}/${id}/replies/${String(reply.id)}`;
    await c
      .request('patch', replyPath)
      .set('Content-Type', 'application/json-patch+json')
      .send([{ op: 'replace', path: '/message', value: 'x' }])
      .expect(403);
    expect((await c.put(`${replyPath}/reaction/heart`).expect(200)).body.reactions).toHaveLength(1);
    await c.request('delete', `${C}/${id}`, token).expect(403);
    expect((await c.delete(`${C}/${id}`).expect(200)).body.id).toBe(id);
    await c.get(`${C}/${id}`).expect(404);
    await c.get(`${C}/${id}/replies`).expect(404);
  });

  it('the list and the replies page with before / after cursors; a cursor the server did not issue is 400', async () => {
    const t = await createTable(c);
    const link = encodeURIComponent(`<#E::table::${t.fqn}>`);
    const started: string[] = [];
    for (const message of ['one', 'two', 'three']) started.push(String(((await c.post(C, { about: `<#E::table::${t.fqn}>`, message }).expect(201)).body as Body).id));
    const newestFirst = [...started].reverse();
    const first = (await c.get(`${C}?entityLink=${link}&limit=2`).expect(200)).body;
    expect([first.data.map((x: Body) => x.id), first.paging.total, first.paging.before]).toEqual([newestFirst.slice(0, 2), 3, undefined]);
    const second = (await c.get(`${C}?entityLink=${link}&limit=2&after=${first.paging.after as string}`).expect(200)).body;
    expect([second.data.map((x: Body) => x.id), second.paging.after]).toEqual([newestFirst.slice(2), undefined]);
    const back = (await c.get(`${C}?entityLink=${link}&limit=2&before=${second.paging.before as string}`).expect(200)).body;
    expect(back.data.map((x: Body) => x.id)).toEqual(newestFirst.slice(0, 2));
    for (const q of ['before=Zm9yZ2Vk', 'after=AAAA']) {
      expect((await c.get(`${C}?${q}`).expect(400)).body.message).toBe(`Invalid cursor ${q.split('=')[1]}`);
    }

    const id = started[0]!;
    const replies: string[] = [];
    for (const message of ['a', 'b', 'c']) replies.push(String(((await c.post(`${C}/${id}/replies`, { message }).expect(201)).body as Body).id));
    const page1 = (await c.get(`${C}/${id}/replies?limit=2`).expect(200)).body;
    expect([page1.data.map((r: Body) => r.id), page1.paging.total]).toEqual([replies.slice(0, 2), 3]);
    const page2 = (await c.get(`${C}/${id}/replies?limit=2&after=${page1.paging.after as string}`).expect(200)).body;
    expect(page2.data.map((r: Body) => r.id)).toEqual(replies.slice(2));
    expect((await c.get(`${C}/${id}/replies?before=Zm9yZ2Vk`).expect(400)).body.message).toBe('Invalid cursor Zm9yZ2Vk');
  });
});

describe('announcements', () => {
  it('are created (a name given when left out), active in their window, filtered by entity link, patched and deleted', async () => {
    const t = await createTable(c);
    const link = `<#E::table::${t.fqn}>`;
    const now = Date.now();
    const live = (await c.post('/api/v1/announcements', { description: 'Maintenance', startTime: now - 1000, endTime: now + 3_600_000, entityLink: link }).expect(201))
      .body as Body;
    expect(live).toMatchObject({ status: 'Active', createdBy: 'admin', entityLink: link });
    expect(String(live.name)).toMatch(/^announcement_\d+$/);
    const later = (await c.post('/api/v1/announcements', { description: 'Later', startTime: now + 3_600_000, endTime: now + 7_200_000, entityLink: link }).expect(201))
      .body as Body;
    expect(later.status).toBe('Scheduled');
    const ids = async (q: string) => ((await c.get(`/api/v1/announcements?${q}`).expect(200)).body.data as Body[]).map((a) => a.id);
    expect(await ids(`entityLink=${encodeURIComponent(link)}&active=true`)).toEqual([live.id]);
    expect((await ids(`entityLink=${encodeURIComponent(link)}`)).sort()).toEqual([live.id, later.id].sort());
    await c.post('/api/v1/announcements', { description: 'Backwards', startTime: now, endTime: now - 1 }).expect(400);
    await c.post('/api/v1/announcements', { description: 'Nowhere', startTime: now, endTime: now + 1, entityLink: '<#E::table::no.such>' }).expect(404);
    const patched = await c.patch(`/api/v1/announcements/${String(live.id)}`, [{ op: 'replace', path: '/description', value: 'Maintenance, moved' }]).expect(200);
    expect(patched.body.description).toBe('Maintenance, moved');
    await c.delete(`/api/v1/announcements/${String(later.id)}?hardDelete=true`).expect((r) => expect([200, 204]).toContain(r.status));
  });
});
