/**
 * The in-process fetch's answer behaves as a `Response` made of the same text: each way of reading
 * it gives the same result, a second read is refused alike, its stream (made only when asked for)
 * carries the same bytes, and a clone reads on its own.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogBody } from './catalog-response.ts';
import { CatalogResponse } from './catalog-response.ts';

const VALUE = { name: 'café ☕', n: [1, 2, 3] };
const TEXT = JSON.stringify(VALUE);
const INIT = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', etag: 'W/"x"' } };
/** The answer as the in-process fetch gives it: from its text, or from the value of a JSON answer. */
const BODIES: Record<string, () => CatalogBody> = { text: () => TEXT, value: () => ({ json: structuredClone(VALUE) }) };

/** What a way of reading gives, or the kind of error it throws. */
async function outcome(read: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await read();
    if (value instanceof ArrayBuffer || value instanceof Uint8Array) return [...new Uint8Array(value)];
    if (value instanceof Blob) return { type: value.type, text: await value.text() };
    return value;
  } catch (error) {
    return error instanceof Error ? error.constructor.name : 'thrown';
  }
}

const READS: Record<string, (r: Response) => Promise<unknown>> = {
  text: (r) => r.text(),
  json: (r) => r.json(),
  arrayBuffer: (r) => r.arrayBuffer(),
  blob: (r) => r.blob(),
  stream: async (r) => new Response(r.body).text(),
};

describe.each(Object.keys(BODIES))('CatalogResponse made from its %s reads as a Response of the same text', (from) => {
  const both = () => ({ ours: new CatalogResponse(BODIES[from]!(), INIT), theirs: new Response(TEXT, INIT) });

  it.each(Object.keys(READS))('%s, then a second read', async (name) => {
    const { ours, theirs } = both();
    expect(ours).toBeInstanceOf(Response);
    expect([ours.status, ours.ok, ours.headers.get('etag'), ours.bodyUsed]).toEqual([theirs.status, theirs.ok, theirs.headers.get('etag'), theirs.bodyUsed]);
    expect(await outcome(() => READS[name]!(ours))).toEqual(await outcome(() => READS[name]!(theirs)));
    expect(ours.bodyUsed).toBe(theirs.bodyUsed);
    expect(await outcome(() => ours.text())).toEqual(await outcome(() => theirs.text()));
  });

  it.each([
    { given: 'a clone read first', steps: async (r: Response) => [await r.clone().json(), await r.text()] },
    {
      given: 'a clone after the stream is taken',
      steps: async (r: Response) => [
        await outcome(async () => {
          const taken = r.body;
          const copy = r.clone();
          return [await copy.text(), await new Response(taken).text()];
        }),
      ],
    },
    {
      given: 'the stream after a clone',
      steps: async (r: Response) => {
        const copy = r.clone();
        return [await new Response(r.body).text(), await copy.text()];
      },
    },
    { given: 'a clone after a read', steps: async (r: Response) => [await r.text(), await outcome(async () => r.clone())] },
    {
      given: "a change to a clone's JSON",
      steps: async (r: Response) => {
        const copy = (await r.clone().json()) as typeof VALUE;
        copy.n.push(4);
        return [copy, await r.json()];
      },
    },
  ])('$given: as a Response does', async ({ steps }) => {
    const { ours, theirs } = both();
    expect(await steps(ours)).toEqual(await steps(theirs));
  });
});

describe('CatalogResponse without a body', () => {
  it('no body (a 204, a HEAD): null body, empty text', async () => {
    const ours = new CatalogResponse(null, { status: 204 });
    const theirs = new Response(null, { status: 204 });
    expect([ours.body, await ours.text()]).toEqual([theirs.body, await theirs.text()]);
  });
});
