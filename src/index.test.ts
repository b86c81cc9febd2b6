/**
 * The package root loads what its first lines need and nothing more: importing `catalog-kit` must
 * not load the server (express, the OpenAPI document, the validators) nor the conformance suite,
 * which the exported functions import on their first call. Read from the import graph, not timed.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staticClosure } from '../test/static-imports.ts';
import * as root from './index.ts';

const closure = staticClosure(fileURLToPath(new URL('./index.ts', import.meta.url)));

describe('the package root (src/index.ts)', () => {
  it("imports the token signer, the typed client and the suite's TargetError only", () => {
    expect(closure.packages.filter((name) => !/^(jose\/|openapi-fetch$)/.test(name))).toEqual([]);
    expect(closure.files.filter((file) => /^src\/(app|http|core|openapi|features|kinds)\/|^conformance\/run\.ts$/.test(file))).toEqual([]);
  });

  it('the walker sees what it should: the express app module does load express', () => {
    const app = staticClosure(fileURLToPath(new URL('./app/express-app.ts', import.meta.url)));
    expect(app.packages).toContain('express');
  });

  it('still gives the whole programmatic API, and the server starts on the first call', async () => {
    expect(Object.keys(root).sort()).toEqual(['TargetError', 'createApp', 'createCatalogClient', 'runConformance', 'signToken', 'startServer']);
    const server = await root.startServer({ port: 0, host: '127.0.0.1', log: () => {} });
    try {
      const token = await root.signToken({ user: 'admin', role: 'Admin' });
      const { response } = await root.createCatalogClient({ baseUrl: server.baseUrl, token }).GET('/v1/system/version');
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
