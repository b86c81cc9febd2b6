/**
 * Which requests a latency or error rule applies to (src/app/admin/injection.ts, openapi/admin.yaml
 * `RouteMatch`): `route` is a path glob where `*` matches any characters, `/` included; no route
 * is every `/api` call; `method` narrows the rule; the first matching rule wins.
 */
import { describe, expect, it } from 'vitest';
import { FaultSettings } from './injection.ts';

describe('injection: a rule route is a path glob, `*` matching any characters', () => {
  it.each([
    // given: the rule's route and method, the request; want: does the rule apply?
    { route: '/api/v1/tables*', method: undefined, request: 'GET /api/v1/tables', want: true },
    { route: '/api/v1/tables*', method: undefined, request: 'GET /api/v1/tables/0a1b/versions/0.2', want: true },
    { route: '/api/v1/tables*', method: undefined, request: 'GET /api/v1/tables/name/svc.db.public.orders', want: true },
    { route: '/api/v1/tables*', method: undefined, request: 'GET /api/v1/topics', want: false },
    { route: '/api/*/versions', method: undefined, request: 'GET /api/v1/tables/0a1b/versions', want: true },
    { route: '/api/v1/tables/*', method: undefined, request: 'GET /api/v1/tables/.hidden', want: true },
    { route: '*', method: undefined, request: 'DELETE /api/v1/charts/x', want: true },
    { route: '/api/v1/tables', method: undefined, request: 'GET /api/v1/tables/x', want: false },
    { route: '/api/v1/{tables,topics}*', method: undefined, request: 'GET /api/v1/topics/x', want: true },
    { route: undefined, method: undefined, request: 'PATCH /api/v1/charts/x', want: true },
    { route: '', method: undefined, request: 'PATCH /api/v1/charts/x', want: true },
    { route: '/api/v1/tables*', method: 'get', request: 'GET /api/v1/tables', want: true },
    { route: '/api/v1/tables*', method: 'GET', request: 'POST /api/v1/tables', want: false },
    { route: undefined, method: 'DELETE', request: 'DELETE /api/v1/tables/x', want: true },
  ])('$route $method applies to $request: $want', ({ route, method, request, want }) => {
    const settings = new FaultSettings(() => 0);
    settings.errors = [{ ...(route !== undefined ? { route } : {}), ...(method ? { method } : {}), status: 503 }];
    settings.latency = [{ ...(route !== undefined ? { route } : {}), ...(method ? { method } : {}), ms: 10 }];
    const [verb, path] = request.split(' ') as [string, string];
    expect(settings.errorFor(verb, path)?.status).toBe(want ? 503 : undefined);
    expect(settings.delayFor(verb, path)).toBe(want ? 10 : 0);
  });

  it('the first matching rule wins', () => {
    const settings = new FaultSettings(() => 0);
    settings.latency = [{ route: '/api/v1/charts', ms: 5 }, { route: '/api/v1/tables*', ms: 200 }, { ms: 1 }];
    expect(settings.delayFor('GET', '/api/v1/tables/x')).toBe(200);
    expect(settings.delayFor('GET', '/api/v1/charts')).toBe(5);
    expect(settings.delayFor('GET', '/api/v1/topics')).toBe(1);
  });
});
