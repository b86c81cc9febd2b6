import { describe, expect, it } from 'vitest';
import type { AjvError } from './compiled.ts';
import type { RequestPart } from './validation-details.ts';
import { detailsMessage, detailsText, dottedDetailsMessage, requestDetails, responseDetails, schemaDetails } from './validation-details.ts';

const error = (keyword: string, instancePath: string, params: Record<string, unknown> = {}, message?: string): AjvError => ({
  keyword,
  instancePath,
  params,
  ...(message ? { message } : {}),
});

describe('requestDetails: a request problem names the value, as OpenMetadata does', () => {
  const cases: { given: AjvError; part?: RequestPart; want: { path: string; message: string } }[] = [
    { given: error('required', '', { missingProperty: 'name' }), part: 'body', want: { path: '/body/name', message: 'name must not be null' } },
    { given: error('type', '/columns/0/name', {}, 'must be string'), part: 'body', want: { path: '/body/columns/0/name', message: 'columns.0.name must be string' } },
    { given: error('unevaluatedProperties', '', { unevaluatedProperty: 'x' }), part: 'body', want: { path: '/body/x', message: 'Unrecognized field "x"' } },
    { given: error('type', '', {}, 'must be object'), part: 'body', want: { path: '/body', message: 'body must be object' } },
    { given: error('type', '/query/limit', {}, 'must be integer'), want: { path: '/query/limit', message: 'query param limit must be integer' } },
    { given: error('format', '/params/id', { format: 'uuid' }, 'must match format "uuid"'), want: { path: '/params/id', message: 'path param id must be a UUID' } },
    { given: error('required', '/headers', { missingProperty: 'if-match' }), want: { path: '/headers/if-match', message: 'header if-match must not be null' } },
  ];
  it.each(cases)('$given.keyword at "$given.instancePath" → $want.message', ({ given, part, want }) => {
    expect(requestDetails([given], part)).toEqual([want]);
  });

  const enumCases: { given: AjvError; part?: RequestPart; data: unknown; want: string }[] = [
    {
      given: error('enum', '/params/reactionType', { allowedValues: ['heart', 'rocket'] }, 'must be equal to one of the allowed values'),
      data: { params: { reactionType: 'bogus$' } },
      want: 'path param reactionType must be equal to one of the allowed values (heart, rocket), not "bogus$"',
    },
    {
      given: error('enum', '/query/include/0', { allowedValues: ['all', 'deleted'] }, 'must be equal to one of the allowed values'),
      data: { query: { include: ['x'] } },
      want: 'query param include.0 must be equal to one of the allowed values (all, deleted), not "x"',
    },
    {
      given: error('enum', '/entityStatus', { allowedValues: ['Draft'] }, 'must be equal to one of the allowed values'),
      part: 'body',
      data: { entityStatus: 'y'.repeat(150) },
      want: `entityStatus must be equal to one of the allowed values (Draft), not "${'y'.repeat(99)}…`,
    },
    {
      given: error('enum', '/params/x', { allowedValues: ['a'] }, 'must be equal to one of the allowed values'),
      data: undefined,
      want: 'path param x must be equal to one of the allowed values (a)',
    },
  ];
  it.each(enumCases)('a value outside an enum is named with the allowed values: $want', ({ given, part, data, want }) => {
    expect(requestDetails([given], part, data).map((d) => d.message)).toEqual([want]);
  });
});

describe('schemaDetails: a value checked against a component schema keeps its own paths', () => {
  const cases: { given: AjvError; want: { path: string; message: string } }[] = [
    { given: error('required', '/columns/0', { missingProperty: 'dataType' }), want: { path: '/columns/0/dataType', message: 'must not be null' } },
    { given: error('additionalProperties', '', { additionalProperty: 'x' }), want: { path: '/x', message: 'Unrecognized field "x"' } },
    { given: error('type', '/rowCount', {}, 'must be number'), want: { path: '/rowCount', message: 'must be number' } },
    { given: error('const', '/kind', {}), want: { path: '/kind', message: 'const' } },
  ];
  it.each(cases)('$given.keyword at "$given.instancePath" → $want.path $want.message', ({ given, want }) => {
    expect(schemaDetails([given])).toEqual([want]);
  });
  it('no errors, no details', () => expect(schemaDetails(null)).toEqual([]));
});

describe('responseDetails: a response problem is under /response, naming an unknown property', () => {
  it.each([
    {
      given: error('unevaluatedProperties', '/data/0', { unevaluatedProperty: 'secret' }, 'must NOT have unevaluated properties'),
      want: { path: '/response/data/0', message: 'must NOT have unevaluated properties (secret)' },
    },
    { given: error('type', '/version', {}, 'must be number'), want: { path: '/response/version', message: 'must be number' } },
  ])('$want.path', ({ given, want }) => expect(responseDetails([given])).toEqual([want]));
});

describe('the texts made of details', () => {
  const details = [
    { path: '/name', message: 'must not be null' },
    { path: '/columns/0/name', message: 'must be string' },
  ];
  it.each([
    { format: 'detailsMessage (a request 400)', given: () => detailsMessage(details), want: '[must not be null, must be string]' },
    { format: 'detailsText', given: () => detailsText(details), want: '/name must not be null, /columns/0/name must be string' },
    { format: 'detailsText with a separator', given: () => detailsText(details, '; '), want: '/name must not be null; /columns/0/name must be string' },
    { format: 'dottedDetailsMessage (a bulk item)', given: () => dottedDetailsMessage(details), want: '[name must not be null, columns.0.name must be string]' },
  ])('$format', ({ given, want }) => expect(given()).toBe(want));
});
