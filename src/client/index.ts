/**
 * The typed client for client authors (docs/programmatic-api.md "Typed client"): openapi-fetch over the types
 * generated from the OpenAPI document, so paths, parameters, bodies and responses are checked by
 * the TypeScript compiler. `import { createCatalogClient } from 'catalog-kit/client'`.
 *
 *   const catalog = createCatalogClient({ baseUrl: 'http://127.0.0.1:8585/api', token });
 *   const { data, error } = await catalog.GET('/v1/tables/name/{fqn}', { params: { path: { fqn } } });
 */
import createClient from 'openapi-fetch';
import type { Client, ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from '../../openapi/generated/schema.js';

export type { components, operations, paths };
export type CatalogSchemas = components['schemas'];
export type CatalogClient = Client<paths>;

export interface CatalogClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The API base, ending in `/api` (what `catalog-kit serve` prints). */
  baseUrl: string;
  /** A bearer token (`catalog-kit token`), or a function returning the current one. */
  token?: string | (() => string | undefined | Promise<string | undefined>);
}

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
  const { token, baseUrl, ...rest } = options;
  const client = createClient<paths>({ ...rest, baseUrl: baseUrl.replace(/\/$/, '') });
  if (token !== undefined) {
    client.use({
      async onRequest({ request }) {
        const value = typeof token === 'function' ? await token() : token;
        if (value) request.headers.set('Authorization', `Bearer ${value}`);
        return request;
      },
    });
  }
  return client;
}
