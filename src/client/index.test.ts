import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { startApp } from '../../test/kit.ts';
import { createCatalogClient } from './index.ts';

let server: TestApp;
let token: string;

beforeAll(async () => {
  server = await startApp({ fixtures: 'default' });
  token = server.tokens.admin;
});

describe('typed client: createCatalogClient against the in-process server', () => {
  it('reads an entity of the demo catalog by name, typed', async () => {
    const catalog = createCatalogClient({ baseUrl: server.baseUrl, token });
    const { data, error } = await catalog.GET('/v1/tables/name/{fqn}', {
      params: { path: { fqn: 'acme_snowflake.ecommerce_dw.sales.fact_orders' }, query: { fields: 'owners,followers' } },
    });
    expect(error).toBeUndefined();
    expect(data?.version).toBe(0.2);
    expect(data?.followers?.length).toBe(2);
  });

  it('creates an entity and reports errors in the error shape', async () => {
    const catalog = createCatalogClient({ baseUrl: server.baseUrl, token: () => token });
    const body = { name: 'client_made', serviceType: 'Mysql' as const, connection: { config: { type: 'Mysql' } } };
    const created = await catalog.POST('/v1/services/databaseServices', { body });
    expect(created.response.status).toBe(201);
    expect(created.data?.fullyQualifiedName).toBe('client_made');
    const again = await catalog.POST('/v1/services/databaseServices', { body });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ code: 409, message: 'Entity already exists' });
  });

  it('without a token the server answers 401', async () => {
    const anonymous = createCatalogClient({ baseUrl: server.baseUrl });
    const { response } = await anonymous.GET('/v1/system/version');
    expect(response.status).toBe(401);
  });
});
