/**
 * Every answer is checked against the document, whole, every time it is sent (nothing is
 * remembered between answers), and a failure names the place in the answer as sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { SLOW_START, startApp } from '../../test/kit.ts';
import { render } from '../core/projection.ts';
import type { Entity } from '../core/entity.ts';
import type { CompiledFunction, CompiledValidators } from '../openapi/compiled.ts';
import { compiledValidators, operationsOf } from '../openapi/compiled.ts';
import { bindOperation, ResponseValidationError } from './operation-validation.ts';

const BASE = 'http://127.0.0.1:8585/api';
let app: TestApp;
let answers: Entity[];

beforeAll(async () => {
  app = await startApp();
  await app.create('services/storageServices', { name: 'checked', serviceType: 'S3', connection: { config: { type: 'S3' } } });
  const def = app.ctx.kinds.of('container');
  answers = [];
  for (const name of ['a', 'b', 'c']) {
    const created = await app.create('containers', { name, service: 'checked' });
    answers.push(render(app.ctx, def, app.ctx.store.get(String(created.id))!, 'all', BASE));
  }
}, SLOW_START);

/** The operation bound with its 200's validator replaced by one that records what it is given. */
function spied(operationId: string) {
  const compiled = compiledValidators();
  const entry = operationsOf(compiled.tables.api, 'contract').find((e) => e.operationId === operationId)!;
  const name = entry.responses['200']!['application/json']!;
  const real = compiled.responses[name]!;
  const given: unknown[] = [];
  const spy: CompiledFunction = (data) => {
    given.push(data);
    const ok = real(data);
    spy.errors = real.errors ?? null;
    return ok;
  };
  const withSpy: CompiledValidators = { ...compiled, responses: { ...compiled.responses, [name]: spy } };
  return { bound: bindOperation(entry, withSpy), given };
}

const itemsGiven = (given: unknown[]) => given.map((body) => (body as { data: unknown[] }).data.length);

describe('checking answers', () => {
  it('the same answer sent twice is checked twice', () => {
    const { bound, given } = spied('getContainerById');
    bound.validateResponse(200, answers[0]);
    bound.validateResponse(200, answers[0]);
    expect(given).toEqual([answers[0], answers[0]]);
  });

  it('a page is checked whole, every item, every time', () => {
    const { bound, given } = spied('listContainers');
    const body = { data: [answers[0], answers[1]], paging: { total: 2 } };
    bound.validateResponse(200, body);
    bound.validateResponse(200, body);
    expect(itemsGiven(given)).toEqual([2, 2]);
    expect(() => bound.validateResponse(200, { data: [answers[0]], paging: { total: 'one' } })).toThrow(ResponseValidationError);
  });

  it('an invalid item fails, named by its place in the page as sent', () => {
    const { bound } = spied('listContainers');
    const invalid = { ...answers[1]!, name: 42 };
    let error: unknown;
    try {
      bound.validateResponse(200, { data: [answers[0], invalid], paging: { total: 2 } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).details.map((d) => d.path)).toEqual(['/response/data/1/name']);
  });
});
