import { describe, expect, it } from 'vitest';
import { startApp, tokenFor } from '../../../test/kit.ts';

describe('start-up endpoints: system version and the logged-in user', () => {
  it("GET /system/version answers OpenMetadata's CatalogVersion shape with the package version", async () => {
    const res = await (await startApp()).get('/api/v1/system/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '0.1.0', revision: 'catalog-kit', timestamp: expect.any(Number) });
  });

  it('GET /users/loggedInUser is the user of the token, created on first use', async () => {
    const catalog = await startApp();
    const res = await catalog.get('/api/v1/users/loggedInUser?fields=teams', await tokenFor('DataConsumer', 'jane'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'jane', fullyQualifiedName: 'jane', version: 0.1, isAdmin: false });
    expect(res.body.id).toBe(catalog.ctx.store.getByFqn('user', 'jane')!.entity.id);
  });

  it('without a token both are 401', async () => {
    const catalog = await startApp();
    expect((await catalog.get('/api/v1/users/loggedInUser', '')).status).toBe(401);
    expect((await catalog.get('/api/v1/system/version', '')).status).toBe(401);
  });
});

describe('what the web UI reads at start-up besides the version (docs/behaviour.md "System")', () => {
  it("the sign-in and authorizer configuration, and the status of the server's parts", async () => {
    const app = await startApp();
    expect((await app.get('/api/v1/system/config/auth').expect(200)).body).toMatchObject({ provider: 'basic', providerName: 'catalog-kit', enableSelfSignup: false });
    expect((await app.get('/api/v1/system/config/authorizer').expect(200)).body).toMatchObject({ useRolesFromProvider: true });
    const status = (await app.get('/api/v1/system/status').expect(200)).body as Record<string, { passed: boolean }>;
    expect(Object.keys(status).sort()).toEqual(['database', 'jwks', 'migrations', 'pipelineServiceClient', 'searchInstance']);
    expect(Object.values(status).every((step) => step.passed)).toBe(true);
  });
});
