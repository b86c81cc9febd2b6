/**
 * The document and the server describe the same API: every documented operation has a route, in
 * both profiles, and a request to a documented path with another method is a 405 naming the
 * methods it has, in the error shape.
 */
import { describe, expect, it } from 'vitest';
import { startApp } from '../../test/kit.ts';
import { profileByName } from '../config/profiles.ts';
import { compiledValidators, operationsOf, responsesOf } from '../openapi/compiled.ts';
import { createDispatcher } from './dispatcher.ts';
import type { OperationRoutes } from './operation-routes.ts';
import { ApiError } from './errors.ts';
import { bindOperation } from './operation-validation.ts';
import { operationRoutes } from './operation-routes.ts';
import { errorRenderer } from './render-error.ts';

/** A dispatcher over `routes` with no authentication: what the test sends, the routes answer. */
function dispatcherOf(routes: OperationRoutes, { log = () => {}, validateResponses = true }: { log?: (line: string) => void; validateResponses?: boolean } = {}) {
  const dispatch = createDispatcher({ routes, renderError: errorRenderer(profileByName('contract'), log), validateResponses });
  return async (method: string, url: string) => {
    const answer = await dispatch({ method, url, origin: 'http://catalog.test', headers: {} });
    return { status: answer.status, type: answer.headers['content-type'], body: answer.body === undefined ? undefined : (JSON.parse(answer.body) as Record<string, unknown>) };
  };
}

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

  it('every Admin API operation that takes a parameter or a body documents the 400 its request validation answers', () => {
    const undocumented = compiledValidators()
      .tables.admin.operations.filter((entry) => (entry.params !== undefined || entry.body !== undefined) && !('400' in responsesOf(entry)))
      .map((entry) => entry.operationId);
    expect(undocumented).toEqual([]);
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

describe('an error answer the operation does not document', () => {
  it('is answered as the server bug it is: 500 in the error shape, naming the status, and logged', async () => {
    const compiled = compiledValidators();
    const routes = operationRoutes({ prefix: '', operations: compiled.tables.admin.operations, compiled });
    // resetState documents 200 and 400: a 409 from it is not in the document.
    routes.post('/__admin/reset', () => {
      throw new ApiError(409, 'already reset');
    });
    const logged: string[] = [];
    const res = await dispatcherOf(routes, { log: (line) => logged.push(line) })('POST', '/__admin/reset');
    expect([res.status, res.type, res.body?.code]).toEqual([500, 'application/json; charset=utf-8', 500]);
    expect(res.body?.message).toMatch(/failed validation.*status 409 is not documented for POST \/__admin\/reset/);
    expect(logged).toEqual([expect.stringMatching(/^500 on POST \/__admin\/reset: status 409 is not documented/)]);
  });
});

describe('a request goes to the first mounted route that matches it, whatever its static prefix', () => {
  // `/api/v1/containers/name/versions` matches both: the versions of the container whose id is
  // "name" (not a uuid: 400), and the container whose FQN is "versions" (the handler below: 200).
  const byId = '/api/v1/containers/:id/versions';
  const byName = '/api/v1/containers/name/:fqn';
  const appWith = (order: string[], later?: string) => {
    const compiled = compiledValidators();
    const routes = operationRoutes({ prefix: '/api', operations: operationsOf(compiled.tables.api, 'contract'), compiled });
    const mount = (path: string) => routes.get(path, (_req, reply) => reply.json({ route: path }));
    for (const path of order) mount(path);
    return { get: (url: string) => dispatcherOf(routes, { validateResponses: false })('GET', url), mountLater: () => later && mount(later) };
  };

  it.each([
    { given: 'the id route mounted first', order: [byId, byName], want: 400 },
    { given: 'the name route mounted first', order: [byName, byId], want: 200 },
  ])('$given → $want', async ({ order, want }) => {
    const { get } = appWith(order);
    expect((await get('/api/v1/containers/name/versions')).status).toBe(want);
  });

  // A route is tried only for paths of its own length: one trailing slash and the case do not count.
  const id = '6f1c0e3e-0000-4000-8000-000000000001';
  it.each([
    { given: `/api/v1/containers/${id}`, want: '/api/v1/containers/:id' },
    { given: `/api/v1/containers/${id}/`, want: '/api/v1/containers/:id' },
    { given: `/API/V1/Containers/${id}/Versions/`, want: byId },
    { given: `/api/v1/containers/${id}/versions/0.1`, want: '/api/v1/containers/:id/versions/:version' },
    { given: `/api/v1/containers/${id}/versions//`, want: undefined },
    { given: `/api/v1/containers/${id}//versions`, want: undefined },
  ])('$given → $want', async ({ given, want }) => {
    const { get } = appWith(['/api/v1/containers/:id/versions/:version', '/api/v1/containers/:id', byId]);
    const res = await get(given);
    expect([res.status, res.body?.route]).toEqual(want === undefined ? [404, undefined] : [200, want]);
  });

  it('a route whose parameters are named otherwise than its operation is a programming error at mount', () => {
    const compiled = compiledValidators();
    const routes = operationRoutes({ prefix: '/api', operations: operationsOf(compiled.tables.api, 'contract'), compiled });
    expect(() => routes.get('/api/v1/containers/:uuid', () => {})).toThrow('route GET /api/v1/containers/:uuid names its path parameters differently from /v1/containers/{id}');
    expect(() => routes.get('/api/v1/containers/:id', () => {})).not.toThrow();
  });

  it('a route mounted after requests were served is found, under a static prefix already served', async () => {
    const { get, mountLater } = appWith(['/api/v1/containers'], byId);
    const versions = '/api/v1/containers/6f1c0e3e-0000-4000-8000-000000000001/versions';
    expect((await get(versions)).status).toBe(404);
    mountLater();
    const res = await get(versions);
    expect([res.status, res.body?.route]).toEqual([200, byId]);
  });
});
