import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createBaselineApp } from './baseline-app.ts';

async function seeded(count: number) {
  const app = createBaselineApp();
  await request(app).post('/api/v1/services/storageServices').send({ name: 'svc', serviceType: 'S3' }).expect(201);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await request(app)
      .post('/api/v1/containers')
      .send({ name: `c${String(i).padStart(2, '0')}`, service: 'svc' })
      .expect(201);
    ids.push(res.body.id as string);
  }
  return { app, ids };
}

describe('baseline app answers the statuses the bench expects of the reference', () => {
  it('create_then_get_by_id_and_name_returns_the_container_with_its_fqn', async () => {
    const { app, ids } = await seeded(1);
    const byId = await request(app).get(`/api/v1/containers/${ids[0]}`).expect(200);
    expect(byId.body).toMatchObject({ name: 'c00', fullyQualifiedName: 'svc.c00', version: 0.1, deleted: false, service: { name: 'svc' } });
    const byName = await request(app).get('/api/v1/containers/name/svc.c00').expect(200);
    expect(byName.body.id).toBe(ids[0]);
  });

  it('create_of_an_existing_name_is_409', async () => {
    const { app } = await seeded(1);
    await request(app).post('/api/v1/containers').send({ name: 'c00', service: 'svc' }).expect(409);
  });

  it('list_pages_follow_the_after_cursor_in_fqn_order', async () => {
    const { app } = await seeded(15);
    const first = await request(app).get('/api/v1/containers?limit=10').expect(200);
    expect(first.body.data.map((c: { name: string }) => c.name)).toEqual(Array.from({ length: 10 }, (_, i) => `c0${i}`));
    const second = await request(app)
      .get(`/api/v1/containers?limit=10&after=${first.body.paging.after as string}`)
      .expect(200);
    expect(second.body.data.map((c: { name: string }) => c.name)).toEqual(['c10', 'c11', 'c12', 'c13', 'c14']);
    expect(second.body.paging.after).toBeUndefined();
  });

  it('upsert_with_a_changed_description_bumps_the_version_and_answers_200', async () => {
    const { app } = await seeded(1);
    const res = await request(app).put('/api/v1/containers').send({ name: 'c00', service: 'svc', description: 'new' }).expect(200);
    expect(res.body).toMatchObject({ version: 0.2, description: 'new' });
  });

  it('soft_delete_hides_the_container_and_restore_brings_it_back', async () => {
    const { app, ids } = await seeded(1);
    const deleted = await request(app).delete(`/api/v1/containers/${ids[0]}`).expect(200);
    expect(deleted.body).toMatchObject({ deleted: true, version: 0.2 });
    await request(app).get(`/api/v1/containers/${ids[0]}`).expect(404);
    const restored = await request(app).put('/api/v1/containers/restore').send({ id: ids[0] }).expect(200);
    expect(restored.body).toMatchObject({ deleted: false, version: 0.3 });
  });
});
