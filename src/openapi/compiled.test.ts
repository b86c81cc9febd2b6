/**
 * The operation table the generator writes (src/openapi/compiled.ts): statuses with the same
 * content share one key, and every reader sees one key per status, a profile's override winning.
 */
import { describe, expect, it } from 'vitest';
import type { OperationTable } from './compiled.ts';
import { compiledValidators, operationsOf, responsesOf } from './compiled.ts';

const error = { 'application/json': 'r1' };

describe('responses in the operation table', () => {
  type Responses = OperationTable['operations'][number]['responses'];
  it.each<{ given: Responses; want: Responses }>([
    { given: { '200': { 'application/json': 'r2' } }, want: { '200': { 'application/json': 'r2' } } },
    { given: { '200': {}, '400,401,403': error }, want: { '200': {}, '400': error, '401': error, '403': error } },
    { given: {}, want: {} },
  ])('$given → one key per status', ({ given, want }) => {
    expect(responsesOf({ responses: given })).toEqual(want);
  });

  it("a profile's override of one status of a group wins, the others keep the base's", () => {
    const table: OperationTable = {
      operations: [{ method: 'GET', path: '/v1/x', operationId: 'getX', pathParams: [], responses: { '200': { 'application/json': 'r2' }, '400,404': error } }],
      overrides: { openmetadata: { '0': { responses: { '404': { 'application/json': 'r9' } } } } },
      components: {},
    };
    expect(operationsOf(table, 'openmetadata')[0]!.responses).toEqual({ '200': { 'application/json': 'r2' }, '400': error, '404': { 'application/json': 'r9' } });
    expect(responsesOf(operationsOf(table, 'contract')[0]!)).toEqual({ '200': { 'application/json': 'r2' }, '400': error, '404': error });
  });

  it('the generated table groups the error statuses an operation shares', () => {
    const grouped = compiledValidators().tables.api.operations.filter((entry) => Object.keys(entry.responses).some((key) => key.includes(',')));
    expect(grouped.length).toBeGreaterThan(500);
  });
});
