/**
 * Every status the server can send has its own errorType: error injection (src/app/admin/injection.ts)
 * accepts any 4xx/5xx status, so a 503 must not say INTERNAL_ERROR, and the Error schema's enum
 * (openapi/components/common.yaml) must list every type the server renders.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { startApp } from '../../test/kit.ts';
import { ApiError, ERROR_TYPES, errorTypeOf } from './errors.ts';

const here = dirname(fileURLToPath(import.meta.url));

describe('errorType by status', () => {
  it.each([
    [408, 'REQUEST_TIMEOUT'],
    [410, 'GONE'],
    [422, 'UNPROCESSABLE_ENTITY'],
    [429, 'TOO_MANY_REQUESTS'],
    [500, 'INTERNAL_ERROR'],
    [501, 'NOT_IMPLEMENTED'],
    [502, 'BAD_GATEWAY'],
    [503, 'SERVICE_UNAVAILABLE'],
    [504, 'GATEWAY_TIMEOUT'],
    [409, 'ENTITY_ALREADY_EXISTS'],
    [418, 'CLIENT_ERROR'],
    [499, 'CLIENT_ERROR'],
    [599, 'SERVER_ERROR'],
  ])('%i is %s', (status, type) => {
    expect(errorTypeOf(status)).toBe(type);
    expect(new ApiError(status, 'x').errorType).toBe(type);
  });

  it('no two statuses share a type, and every 4xx/5xx status has one', () => {
    expect(new Set(ERROR_TYPES).size).toBe(ERROR_TYPES.length);
    for (let status = 400; status <= 599; status++) expect(ERROR_TYPES).toContain(errorTypeOf(status));
  });

  it('the Error schema enumerates exactly these types', () => {
    const common = parse(readFileSync(join(here, '../../openapi/components/common.yaml'), 'utf8')) as { Error: { properties: { errorType: { enum: string[] } } } };
    expect(common.Error.properties.errorType.enum).toEqual([...ERROR_TYPES]);
  });
});

describe('injected errors carry their own errorType', () => {
  let catalog: TestApp;
  beforeAll(async () => {
    catalog = await startApp();
  });

  it.each([
    [503, 'SERVICE_UNAVAILABLE'],
    [429, 'TOO_MANY_REQUESTS'],
    [504, 'GATEWAY_TIMEOUT'],
    [502, 'BAD_GATEWAY'],
    [418, 'CLIENT_ERROR'],
  ])('an Admin API error rule with status %i answers errorType %s', async (status, errorType) => {
    await catalog.put('/__admin/errors', { rules: [{ status, route: '/api/v1/tables' }] }).expect(200);
    const res = await catalog.get('/api/v1/tables');
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, errorType });
    await catalog.delete('/__admin/errors');
  });
});
