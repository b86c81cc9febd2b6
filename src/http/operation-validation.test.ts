/**
 * Every answer is checked against the document, and a kept answer (src/domain/kept-answers.ts:
 * frozen, the same every time it is sent) is checked once: alone, or as an item of a page whose
 * schema checks each item on its own. What was not found valid before is always checked, and a
 * failure names the place in the answer as sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit.ts';
import { SLOW_START, startApp } from '../../test/kit.ts';
import { plainAnswer } from '../domain/kept-answers.ts';
import type { Entity } from '../domain/entity.ts';
import type { CompiledFunction, CompiledValidators, OperationEntry } from '../openapi/compiled.ts';
import { compiledValidators, operationsOf } from '../openapi/compiled.ts';
import { bindOperation, ResponseValidationError } from './operation-validation.ts';

const BASE = 'http://127.0.0.1:8585/api';
let app: TestApp;
let kept: Entity[];

beforeAll(async () => {
  app = await startApp();
  await app.create('services/storageServices', { name: 'checked', serviceType: 'S3', connection: { config: { type: 'S3' } } });
  const def = app.ctx.kinds.of('container');
  kept = [];
  for (const name of ['a', 'b', 'c']) {
    const created = await app.create('containers', { name, service: 'checked' });
    kept.push(plainAnswer(app.ctx, def, app.ctx.store.get(String(created.id))!, BASE));
  }
}, SLOW_START);

/** The operation bound with its 200's validator replaced by one that records what it is given. */
function spied(operationId: string, entryChange: Partial<OperationEntry> = {}) {
  const compiled = compiledValidators();
  const entry = { ...operationsOf(compiled.tables.api, 'contract').find((e) => e.operationId === operationId)!, ...entryChange };
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
  return { bound: bindOperation(entry, withSpy), given, entry };
}

const itemsGiven = (given: unknown[]) => given.map((body) => (body as { data: unknown[] }).data.length);

describe('checking answers', () => {
  it('a kept answer is checked the first time it is sent, not again', () => {
    const { bound, given } = spied('getContainerById');
    const answer = plainAnswer(app.ctx, app.ctx.kinds.of('container'), app.ctx.store.get(String(kept[0]!.id))!, 'http://other.example/api');
    bound.validateResponse(200, answer);
    bound.validateResponse(200, answer);
    expect(given).toEqual([answer]);
  });

  it('an answer that is not kept is checked every time', () => {
    const { bound, given } = spied('getContainerById');
    const copy = { ...kept[0]! };
    bound.validateResponse(200, copy);
    bound.validateResponse(200, copy);
    expect(given).toHaveLength(2);
  });

  it("a page's kept items are checked once; the page's own fields and its other items every time", () => {
    const { bound, given, entry } = spied('listContainers');
    expect(entry.pages).toEqual(['200']);
    const page = (data: unknown[]) => ({ data, paging: { total: data.length } });
    bound.validateResponse(200, page([kept[0], kept[1]]));
    bound.validateResponse(200, page([kept[0], kept[1]]));
    bound.validateResponse(200, page([kept[1], { ...kept[2]! }, kept[2]]));
    // The second page: no item left to check, only the page; the third: the copy and kept[2].
    expect(itemsGiven(given)).toEqual([2, 0, 2]);
    expect(() => bound.validateResponse(200, { data: [kept[0]], paging: { total: 'one' } })).toThrow(ResponseValidationError);
  });

  it('an invalid item among kept ones fails, named by its place in the page as sent', () => {
    const { bound } = spied('listContainers');
    bound.validateResponse(200, { data: [kept[0]], paging: { total: 1 } });
    const invalid = { ...kept[1]!, name: 42 };
    let error: unknown;
    try {
      bound.validateResponse(200, { data: [kept[0], invalid], paging: { total: 2 } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).details.map((d) => d.path)).toEqual(['/response/data/1/name']);
  });

  it('a page whose schema is not checked item by item is checked whole every time', () => {
    const { bound, given } = spied('listContainers', { pages: [] });
    const body = { data: [kept[0], kept[1]], paging: { total: 2 } };
    bound.validateResponse(200, body);
    bound.validateResponse(200, body);
    expect(itemsGiven(given)).toEqual([2, 2]);
  });
});
