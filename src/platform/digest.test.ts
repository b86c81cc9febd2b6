/**
 * The digests on Node.js (digest.ts, node:crypto) and in the browser build (digest.browser.ts,
 * @noble/hashes) give the same answers, so a catalog in a browser tags, names and signs as the
 * server does.
 */
import etag from 'etag';
import { describe, expect, it } from 'vitest';
import * as browser from './digest.browser.ts';
import * as node from './digest.ts';
import { hex } from './encoding.ts';

const TEXTS = ['', 'a', 'catalog-kit type string', '{"id":"6f1c0e3e","name":"café ☕ 🚀"}', 'x'.repeat(10_000)];

describe('digests on Node.js and in the browser build', () => {
  it.each(TEXTS.map((text) => ({ text: text.length > 40 ? `${text.slice(0, 40)}… (${text.length})` : text, full: text })))('agree on "$text"', ({ full }) => {
    expect(hex(browser.sha1(full))).toBe(hex(node.sha1(full)));
    expect(hex(browser.md5(full))).toBe(hex(node.md5(full)));
    expect(hex(browser.hmacSha256('secret', full))).toBe(hex(node.hmacSha256('secret', full)));
    expect(browser.contentTag(full)).toBe(node.contentTag(full));
  });

  it.each(TEXTS)('tag a body as express does (the etag package)', (text) => {
    expect(node.contentTag(text)).toBe(etag(text, { weak: true }));
  });
});
