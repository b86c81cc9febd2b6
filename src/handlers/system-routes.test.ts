import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { signToken } from '../auth/tokens.ts';

describe('start-up endpoints: system version and the logged-in user', () => {
  it("GET /system/version answers OpenMetadata's CatalogVersion shape with the package version", async () => {
    const { app } = await createApp();
    const token = await signToken({ user: 'admin', role: 'Admin' });
    const res = await request(app).get('/api/v1/system/version').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '0.1.0', revision: 'catalog-kit', timestamp: expect.any(Number) });
  });

  it('GET /users/loggedInUser is the user of the token, created on first use', async () => {
    const { app, ctx } = await createApp();
    const token = await signToken({ user: 'jane', role: 'DataConsumer' });
    const res = await request(app).get('/api/v1/users/loggedInUser?fields=teams').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'jane', fullyQualifiedName: 'jane', version: 0.1, isAdmin: false });
    expect(res.body.id).toBe(ctx.store.getByFqn('user', 'jane')!.entity.id);
  });

  it('without a token both are 401', async () => {
    const { app } = await createApp();
    expect((await request(app).get('/api/v1/users/loggedInUser')).status).toBe(401);
    expect((await request(app).get('/api/v1/system/version')).status).toBe(401);
  });
});
