import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/kit.ts';
import { KINDS, SLOW_START, T0, createTable, startApp } from '../../../test/kit.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const apps: Record<'contract' | 'openmetadata', TestApp> = {} as never;
beforeAll(async () => {
  [apps.contract, apps.openmetadata] = await Promise.all([startApp({ at: T0 }), startApp({ at: T0, profile: 'openmetadata' })]);
}, SLOW_START);

/**
 * Lets the server's job run: it waits on `setTimeout` (1 ms), and the test and the app share one
 * event loop, where a timer of the same duration set later fires after it.
 */
async function settle(): Promise<void> {
  await sleep(1);
}

describe.each(['contract', 'openmetadata'] as const)('asynchronous delete, profile %s (docs/behaviour.md "Asynchronous delete")', (profile) => {
  it.each(KINDS.map((k) => [k.type, k] as const))('%s: 202 with a job id, then soft-deleted; hardDelete removes it', async (_type, kind) => {
    const c = apps[profile];
    const scope = await kind.scope(c);
    const soft = await c.create(kind.collection, scope.request(c.unique('async')));
    const res = await c.delete(`/api/v1/${kind.collection}/async/${soft.id}`).expect(202);
    expect(res.body).toEqual({
      jobId: expect.stringMatching(UUID),
      message: `Delete operation initiated for ${soft.name}`,
      entityName: soft.name,
      hardDelete: false,
      recursive: false,
    });
    await settle();
    const after = await c.get(`/api/v1/${kind.collection}/${soft.id}?include=all`).expect(200);
    expect(after.body.deleted).toBe(true);

    const hard = await c.create(kind.collection, scope.request(c.unique('async')));
    const answer = await c.delete(`/api/v1/${kind.collection}/async/${hard.id}?hardDelete=true`).expect(202);
    expect(answer.body).toMatchObject({ hardDelete: true, recursive: false });
    await settle();
    await c.get(`/api/v1/${kind.collection}/${hard.id}?include=all`).expect(404);
    await c.delete(`/api/v1/${kind.collection}/async/${MISSING}`).expect(404);
  });

  it('a parent without recursive is accepted, then left as it was; with recursive its children go too', async () => {
    const c = apps[profile];
    const t = await createTable(c);
    const schema = (await c.get(`/api/v1/databaseSchemas/name/svc.db.sch`).expect(200)).body;
    await c.delete(`/api/v1/databaseSchemas/async/${schema.id}`).expect(202);
    await settle();
    expect((await c.get(`/api/v1/databaseSchemas/${schema.id}`).expect(200)).body).toMatchObject({ deleted: false, version: schema.version });
    const other = await createTable(c);
    await c.delete(`/api/v1/databaseSchemas/async/${schema.id}?recursive=true&hardDelete=true`).expect(202);
    await settle();
    await c.get(`/api/v1/databaseSchemas/${schema.id}?include=all`).expect(404);
    for (const id of [t.id, other.id]) await c.get(`/api/v1/tables/${id}?include=all`).expect(404);
  });
});
