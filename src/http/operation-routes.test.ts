/**
 * The document and the server describe the same API: every documented operation has a route, in
 * both profiles, and a request to a documented path with another method is a 405 naming the
 * methods it has, in the error shape.
 */
import { describe, expect, it } from 'vitest';
import { startApp } from '../../test/kit.ts';
import { compiledValidators, operationsOf } from '../openapi/compiled.ts';
import { bindOperation } from './operation-validation.ts';

describe('every documented operation is served', () => {
  it.each(['contract', 'openmetadata'] as const)('profile %s: no operation of the document is without a route', async (profile) => {
    const catalog = await startApp({ profile });
    expect(catalog.unroutedOperations().map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  // Routes bind their operation on first use (start-up time): a validator the build did not write
  // must still fail here, not on some request in production.
  it.each(['contract', 'openmetadata'] as const)('profile %s: every operation binds to compiled validators', (profile) => {
    const compiled = compiledValidators();
    const unbound = [...operationsOf(compiled.tables.api, profile), ...compiled.tables.admin.operations].flatMap((entry) => {
      try {
        bindOperation(entry, compiled);
        return [];
      } catch (error) {
        return [`${entry.operationId}: ${(error as Error).message}`];
      }
    });
    expect(unbound).toEqual([]);
  });

  it('a documented path with an undocumented method is 405, listing the methods it has', async () => {
    const catalog = await startApp();
    const res = await catalog.post('/api/v1/containers/name/some.container', {});
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ code: 405, errorType: 'METHOD_NOT_ALLOWED' });
    expect(res.body.message).toMatch(/allowed: .*GET/);
  });

  it('a path the document does not have is 404 in the error shape', async () => {
    const catalog = await startApp();
    const res = await catalog.get('/api/v1/noSuchCollection');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, errorType: 'NOT_FOUND' });
  });
});
