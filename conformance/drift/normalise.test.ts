/**
 * What drift compares of two answers (conformance/drift/normalise.ts): values each server makes
 * up are mapped by position or kind, the rest must be equal.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http.ts';
import { compareExchanges, Normaliser } from './normalise.ts';

const T = { baseUrl: 'http://127.0.0.1:1111/api', runPrefix: 'ck_aaaa1111', userName: 'admin' };
const R = { baseUrl: 'http://127.0.0.1:2222/api', runPrefix: 'ck_bbbb2222', userName: 'conformance-admin' };
const FREE = new Set(['message']);
const ID = (n: number, side: 'a' | 'b') => `${side.repeat(8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;

function ex(base: string, json: unknown, over: Partial<Exchange> = {}): Exchange {
  return {
    seq: 1,
    method: 'GET',
    url: `${base}/v1/containers`,
    authLabel: 'admin',
    status: 200,
    responseContentType: 'application/json',
    responseHeaders: {},
    responseText: JSON.stringify(json),
    json,
    ...over,
  };
}

/** Compares sequences of answers, each side through its own normaliser, as a drift run does. */
function compare(pairs: [unknown, unknown][], over: [Partial<Exchange>, Partial<Exchange>] = [{}, {}]) {
  const [nt, nr] = [new Normaliser(T, FREE), new Normaliser(R, FREE)];
  return pairs.map(([t, r]) => {
    const [et, er] = [ex(T.baseUrl, t, over[0]), ex(R.baseUrl, r, over[1])];
    return compareExchanges(et, nt.exchange(et), er, nr.exchange(er)).map((d) => d.where);
  });
}

describe('drift compares two answers', () => {
  it('maps ids, hrefs, run prefixes and the token user by position; compares the rest', () => {
    const entity = (side: 'a' | 'b', base: string, prefix: string, user: string, n = 1) => ({
      id: ID(n, side),
      name: `${prefix}_c1`,
      href: `${base}/v1/containers/${ID(n, side)}`,
      updatedBy: user,
      service: { id: ID(9, side), name: `${prefix}_ss1` },
    });
    const t = entity('a', T.baseUrl, T.runPrefix, T.userName);
    const r = entity('b', R.baseUrl, R.runPrefix, R.userName);
    expect(compare([[t, r]])).toEqual([[]]);
    // given: the same ids in another order on one side; want: the second answer differs
    expect(
      compare([
        [t, r],
        [{ ...t, id: ID(9, 'a') }, { ...r }],
      ]),
    ).toEqual([[], ['body.id']]);
  });

  it('versions are mapped by position: the same steps agree, a step that differs shows', () => {
    // given: versions over three answers; want: the differing answers
    const cases: { t: number[]; r: number[]; want: string[][] }[] = [
      { t: [0.1, 0.2, 0.2], r: [0.1, 0.2, 0.2], want: [[], [], []] },
      { t: [0.1, 0.1, 0.2], r: [0.1, 0.2, 0.3], want: [[], ['body.version'], ['body.version']] },
      { t: [0.1, 1.1], r: [0.1, 1.1], want: [[], []] },
    ];
    for (const { t, r, want } of cases) expect(compare(t.map((v, i) => [{ version: v }, { version: r[i] }])), JSON.stringify({ t, r })).toEqual(want);
  });

  it('timestamps only have to be timestamps; free fields only have to be there', () => {
    expect(
      compare([
        [
          { updatedAt: 1795842806275, message: 'a' },
          { updatedAt: 1795842806999, message: 'b, worded otherwise' },
        ],
      ]),
    ).toEqual([[]]);
    expect(compare([[{ updatedAt: 1795842806275, message: 'a' }, { updatedAt: 1795842806999 }]])).toEqual([['body.message']]);
    expect(compare([[{ updatedAt: 1795842806275 }, { updatedAt: '2026-11-28' }]])).toEqual([['body.updatedAt']]);
  });

  it('JSON inside a string is compared as JSON; arrays by length and item', () => {
    const version = (id: string, at: number, v: number) => JSON.stringify({ id, updatedAt: at, version: v });
    expect(compare([[{ versions: [version(ID(1, 'a'), 1795842806275, 0.1)] }, { versions: [version(ID(1, 'b'), 1795842809999, 0.1)] }]])).toEqual([[]]);
    expect(compare([[{ data: [1, 2] }, { data: [1] }]])).toEqual([['body.data.length']]);
  });

  it('the status, the content type, the ETag and Location headers and the request itself count', () => {
    expect(compare([[{}, {}]], [{ status: 201 }, { status: 200 }])).toEqual([['status']]);
    expect(compare([[{}, {}]], [{ responseContentType: 'text/plain' }, {}])).toEqual([['content type']]);
    expect(compare([[{}, {}]], [{ responseHeaders: { etag: 'W/"1"' } }, {}])).toEqual([['ETag']]);
    expect(compare([[{}, {}]], [{ responseHeaders: { etag: 'W/"1"' } }, { responseHeaders: { etag: 'W/"x"' } }])).toEqual([[]]);
    expect(compare([[{}, {}]], [{ method: 'PUT' }, {}])).toEqual([['request']]);
  });
});
