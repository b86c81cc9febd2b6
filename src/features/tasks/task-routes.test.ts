/**
 * Tasks (docs/behaviour.md "Tasks"), through HTTP: a task about a table is numbered, listed in the
 * views of its assignee and creator, counted, commented, and resolved; resolving a description
 * update writes the description to the table; every change is a `taskCreated` / `taskUpdated`
 * event and an activity about the table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, createTable, startApp, tokenFor } from '../../../test/kit.ts';

let c: TestApp;
beforeAll(async () => {
  c = await startApp();
  await c.post('/api/v1/users', { name: 'bob', email: 'bob@example.com' }).expect(201);
}, SLOW_START);

const TASKS = '/api/v1/tasks';

async function newTask(table: { fqn: string }, extra: Body = {}): Promise<Body> {
  const res = await c.post(TASKS, {
    name: 'Describe the table',
    category: 'MetadataUpdate',
    type: 'DescriptionUpdate',
    about: table.fqn,
    aboutType: 'table',
    assignees: ['bob'],
    payload: { newDescription: 'One row per order.' },
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
}

describe('a task about a table', () => {
  it('is numbered TASK-00001, 00002...; open, Medium, created by the token user, about the table; read by id and by task id', async () => {
    const t = await createTable(c);
    const first = await newTask(t);
    const second = await newTask(t, { priority: 'High' });
    expect(first).toMatchObject({ status: 'Open', priority: 'Medium', category: 'MetadataUpdate', about: { id: t.id, type: 'table' }, createdBy: { name: 'admin', type: 'user' } });
    expect(first.assignees).toEqual([expect.objectContaining({ name: 'bob', type: 'user' })]);
    const [n1, n2] = [first, second].map((task) => Number(/^TASK-(\d{5})$/.exec(String(task.taskId))?.[1]));
    expect(n2).toBe(n1! + 1);
    expect(first.fullyQualifiedName).toBe(first.taskId);
    await c.get(`${TASKS}/name/${String(first.taskId)}`).expect(200);
    expect((await c.get(`${TASKS}/${String(first.id)}`).expect(200)).body.taskId).toBe(first.taskId);
  });

  it('an unknown entity is 404; an unknown aboutType 400', async () => {
    await c.post(TASKS, { name: 'x', category: 'Review', type: 'CustomTask', about: 'no.such.table', aboutType: 'table' }).expect(404);
    await c.post(TASKS, { name: 'x', category: 'Review', type: 'CustomTask', about: 'x', aboutType: 'nothing' }).expect(400);
  });

  it('shows in the views of its assignee and creator, and in the counts', async () => {
    const t = await createTable(c);
    const task = await newTask(t);
    const bob = await tokenFor('DataSteward', 'bob');
    const ids = (res: { body: { data: Body[] } }) => res.body.data.map((x) => x.id);
    expect(ids(await c.get(`${TASKS}/assigned?limit=1000`, bob).expect(200))).toContain(task.id);
    expect(ids(await c.get(`${TASKS}/created?limit=1000`).expect(200))).toContain(task.id);
    expect(ids(await c.get(`${TASKS}/assigned?limit=1000`).expect(200))).not.toContain(task.id);
    expect(ids(await c.get(`${TASKS}?aboutEntity=${encodeURIComponent(t.fqn)}&statusGroup=open`).expect(200))).toEqual([task.id]);
    const count = (await c.get(`${TASKS}/count?aboutEntity=${encodeURIComponent(t.fqn)}`).expect(200)).body;
    expect(count).toEqual({ open: 1, inProgress: 0, completed: 0, total: 1 });
  });

  it('resolved as approved: status Approved, the resolution, and the table gets the description (new version, event); a second resolve is 400', async () => {
    const t = await createTable(c);
    const task = await newTask(t);
    const res = await c.post(`${TASKS}/${String(task.id)}/resolve`, { resolutionType: 'Approved', comment: 'ok' }).expect(200);
    expect(res.body).toMatchObject({ status: 'Approved', resolution: { type: 'Approved', comment: 'ok', resolvedBy: { name: 'admin' } }, version: 0.2 });
    const table = (await c.get(`/api/v1/tables/${t.id}`).expect(200)).body;
    expect([table.description, table.version]).toEqual(['One row per order.', 0.2]);
    await c.post(`${TASKS}/${String(task.id)}/resolve`, {}).expect(400);
    const events = (await c.get('/api/v1/events?entityCreated=task&entityUpdated=task,table').expect(200)).body.data as Body[];
    const about = events.filter((e) => e.entityId === task.id || e.entityId === t.id).map((e) => `${String(e.entityType)} ${String(e.eventType)}`);
    expect(about).toEqual(['task taskCreated', 'table entityUpdated', 'task taskUpdated']);
  });

  it('a column description suggestion writes the column; rejected writes nothing', async () => {
    const t = await createTable(c);
    const suggestion = await newTask(t, { type: 'Suggestion', payload: { suggestionType: 'SuggestDescription', suggestedValue: 'The amount.', fieldPath: 'columns.amount' } });
    await c.post(`${TASKS}/${String(suggestion.id)}/resolve`, { resolutionType: 'Completed' }).expect(200);
    const columns = (await c.get(`/api/v1/tables/${t.id}`).expect(200)).body.columns as Body[];
    expect(columns.find((col) => col.name === 'amount')?.description).toBe('The amount.');
    const rejected = await newTask(t, { payload: { newDescription: 'never' } });
    await c.post(`${TASKS}/${String(rejected.id)}/resolve`, { resolutionType: 'Rejected' }).expect(200);
    expect((await c.get(`/api/v1/tables/${t.id}`).expect(200)).body.description).toBeUndefined();
  });

  it('close cancels it; comments are added, edited by their author only, deleted', async () => {
    const t = await createTable(c);
    const task = await newTask(t);
    const commented = (await c.post(`${TASKS}/${String(task.id)}/comments`, { message: 'On it' }).expect(200)).body;
    expect(commented.commentCount).toBe(1);
    const comment = (commented.comments as Body[])[0]!;
    expect(comment).toMatchObject({ message: 'On it', author: { name: 'admin' } });
    const bob = await tokenFor('DataSteward', 'bob');
    await c
      .request('patch', `${TASKS}/${String(task.id)}/comments/${String(comment.id)}`, bob)
      .send({ message: 'mine now' })
      .expect(403);
    const edited = await c
      .request('patch', `${TASKS}/${String(task.id)}/comments/${String(comment.id)}`)
      .send({ message: 'Done soon' })
      .expect(200);
    expect((edited.body.comments as Body[])[0]!.message).toBe('Done soon');
    await c.delete(`${TASKS}/${String(task.id)}/comments/${String(comment.id)}`).expect(200);
    const closed = (await c.post(`${TASKS}/${String(task.id)}/close?comment=obsolete`, {}).expect(200)).body;
    expect(closed).toMatchObject({ status: 'Cancelled', commentCount: 0, resolution: { type: 'Cancelled', comment: 'obsolete' } });
  });

  it('shows in the activity of the table it is about', async () => {
    const t = await createTable(c);
    const task = await newTask(t);
    const activity = (await c.get(`/api/v1/activity/entity/table/name/${encodeURIComponent(t.fqn)}`).expect(200)).body.data as Body[];
    expect(activity.find((a) => (a.entity as Body).id === task.id)).toMatchObject({ eventType: 'EntityCreated', about: `<#E::table::${t.fqn}>`, actor: { name: 'admin' } });
  });
});
