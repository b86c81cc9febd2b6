import { describe, expect, it } from 'vitest';
import type { RequestPath } from './request-path.ts';
import { isApiPath, parseRequestPath } from './request-path.ts';

describe('parseRequestPath: what a request URL addresses', () => {
  const cases: { given: string; want: RequestPath }[] = [
    { given: '/api/v1/tables', want: { path: '/api/v1/tables', api: true, collection: 'tables', rest: '' } },
    { given: '/api/v1/tables?limit=10&fields=owners', want: { path: '/api/v1/tables', api: true, collection: 'tables', rest: '' } },
    {
      given: '/api/v1/tables/name/svc.db.public.orders?fields=tags',
      want: { path: '/api/v1/tables/name/svc.db.public.orders', api: true, collection: 'tables', rest: '/name/svc.db.public.orders' },
    },
    {
      given: '/api/v1/services/databaseServices/4f5c33a6-7d3b-4c2e-9a51-0f1e2d3c4b5a/followers',
      want: {
        path: '/api/v1/services/databaseServices/4f5c33a6-7d3b-4c2e-9a51-0f1e2d3c4b5a/followers',
        api: true,
        collection: 'services/databaseServices',
        rest: '/4f5c33a6-7d3b-4c2e-9a51-0f1e2d3c4b5a/followers',
      },
    },
    {
      given: '/api/v1/dataQuality/testCases/testCaseResults/a.b.c',
      want: { path: '/api/v1/dataQuality/testCases/testCaseResults/a.b.c', api: true, collection: 'dataQuality/testCases', rest: '/testCaseResults/a.b.c' },
    },
    { given: '/api/v1/system/version', want: { path: '/api/v1/system/version', api: true, collection: 'system', rest: '/version' } },
    // express matches routes case-insensitively: so does the API test.
    { given: '/API/v1/tables', want: { path: '/API/v1/tables', api: true, collection: 'tables', rest: '' } },
    { given: '/api', want: { path: '/api', api: true, collection: undefined, rest: '' } },
    { given: '/api/v2/tables', want: { path: '/api/v2/tables', api: true, collection: undefined, rest: '' } },
    { given: '/apis/v1/tables', want: { path: '/apis/v1/tables', api: false, collection: undefined, rest: '' } },
    { given: '/__admin/journal?limit=5', want: { path: '/__admin/journal', api: false, collection: undefined, rest: '' } },
    { given: '/docs', want: { path: '/docs', api: false, collection: undefined, rest: '' } },
  ];
  it.each(cases)('$given', ({ given, want }) => {
    expect(parseRequestPath(given)).toEqual(want);
  });
});

describe('isApiPath: the requests the front door hands to the API, the rest going to the express app', () => {
  it.each([
    { given: '/api/v1/tables?limit=1', want: true },
    { given: '/api?x=1', want: true },
    { given: '/api', want: true },
    { given: '/API/v1/tables', want: true },
    { given: '/apis/v1/tables', want: false },
    { given: '/api.json', want: false },
    { given: '/docs', want: false },
    { given: '/__admin/journal', want: false },
  ])('$given: $want', ({ given, want }) => {
    expect(isApiPath(given)).toBe(want);
  });
});
