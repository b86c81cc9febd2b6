/**
 * Bounded under abuse: a slow client dribbling its headers and a thousand idle connections do not
 * stop others from being served, and are closed by the server's timeouts (src/server.ts,
 * SERVER_LIMIT_DEFAULTS); the admin journal and the token cache stay within their sizes. The
 * server runs with timeouts of a fraction of a second so the file finishes in a few seconds; the
 * defaults are asserted separately.
 */
import { spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../admin/journal.ts';
import { createVerifier } from '../auth/tokens.ts';
import { SERVER_LIMIT_DEFAULTS, startServer } from '../server.ts';
import type { TestApp } from '../../test/kit.ts';
import { startApp, tokenFor } from '../../test/kit.ts';

const LIMITS = { headersTimeout: 500, requestTimeout: 1_000, keepAliveTimeout: 300, connectionsCheckingInterval: 100 };
/** A normal request must be answered within this while the abuse goes on. */
const PROMPT_MS = 500;
/**
 * The idle connections: 1,000 of them, and as many client sockets in this same process, need about
 * 2,000 file descriptors; under a lower `ulimit -n` (1,024 is common) the test opens fewer rather
 * than failing with EMFILE, leaving 200 for everything else.
 */
const IDLE = Math.min(1_000, Math.floor((openFileLimit() - 200) / 2));

function openFileLimit(): number {
  const out = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout?.trim();
  const n = Number(out);
  return out === 'unlimited' || !Number.isFinite(n) || n <= 0 ? Infinity : n;
}

let server: TestApp;
let host: string;
let port: number;
let auth: string;
const opened = new Set<Socket>();

beforeAll(async () => {
  server = await startApp({ limits: LIMITS });
  const url = new URL(server.baseUrl);
  host = url.hostname;
  port = Number(url.port);
  auth = `Bearer ${server.tokens.admin}`;
});

afterEach(() => {
  for (const socket of opened) socket.destroy();
  opened.clear();
});

/** A raw TCP connection to the server, tracked so that every test closes what it opened. */
function open(to = port): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: to });
    opened.add(socket);
    // Flowing, so that the server's close is read and seen ('end', then 'close') even when the
    // test reads nothing.
    socket.resume();
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when the server closes the socket (or it errors), with the time since `from`. */
function closedAfter(socket: Socket, from: number): Promise<number> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(Date.now() - from);
    socket.once('close', () => resolve(Date.now() - from));
  });
}

/** One GET on a new connection (a new client), with its latency. */
async function timedGet(baseUrl = server.baseUrl): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/system/version`, { headers: { authorization: auth, connection: 'close' } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('server limits', () => {
  it('default to the values README "Limits" documents, and reject an inconsistent pair', async () => {
    expect(SERVER_LIMIT_DEFAULTS).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000, maxHeaderSize: 16_384 });
    // The test server took the short values.
    expect(server.server.headersTimeout).toBe(LIMITS.headersTimeout);
    expect(server.server.requestTimeout).toBe(LIMITS.requestTimeout);
    expect(server.server.keepAliveTimeout).toBe(LIMITS.keepAliveTimeout);
    await expect(startServer({ port: 0, host: '127.0.0.1', log: () => {}, limits: { headersTimeout: 2_000, requestTimeout: 1_000 } })).rejects.toThrow(/headersTimeout/);
    await expect(startServer({ port: 0, host: '127.0.0.1', log: () => {}, limits: { keepAliveTimeout: 0 } })).rejects.toThrow(/keepAliveTimeout/);
  });
});

describe('a slow client (headers dribbled one byte every 100 ms)', () => {
  it('does not delay other clients, and is answered 408 and closed after the headers timeout', async () => {
    const slow = await open();
    let received = '';
    slow.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    slow.on('error', () => {}); // a write racing the server's close
    const started = Date.now();
    const closed = closedAfter(slow, started);
    // About seven seconds of headers: far longer than the headers timeout.
    const headers = `GET /api/v1/system/version HTTP/1.1\r\nHost: ${host}\r\nX-Slow: ${'a'.repeat(20)}\r\n\r\n`;
    let sent = 0;
    const dribble = setInterval(() => {
      if (slow.destroyed || sent >= headers.length) return clearInterval(dribble);
      slow.write(headers[sent++]!);
    }, 100);
    try {
      // Meanwhile other clients are served promptly.
      const latencies: number[] = [];
      while (!slow.destroyed && Date.now() - started < LIMITS.headersTimeout) {
        const r = await timedGet();
        expect(r.status).toBe(200);
        latencies.push(r.ms);
        await sleep(50);
      }
      expect(latencies.length).toBeGreaterThan(2);
      expect(Math.max(...latencies)).toBeLessThan(PROMPT_MS);
      // Closed within the timeout plus a check interval and some slack, long before the headers end.
      const ms = await Promise.race([closed, sleep(LIMITS.headersTimeout * 4).then(() => Infinity)]);
      expect(ms).toBeGreaterThanOrEqual(LIMITS.headersTimeout - 50);
      expect(ms).toBeLessThan(LIMITS.headersTimeout * 4);
      expect(sent).toBeLessThan(headers.length);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(dribble);
    }
  });
});

describe('connections that stall or pause', () => {
  it('a connection that sends one byte and stops is closed after the headers timeout', async () => {
    const socket = await open();
    socket.on('error', () => {});
    const started = Date.now();
    const closed = closedAfter(socket, started);
    socket.write('G');
    const ms = await Promise.race([closed, sleep(LIMITS.headersTimeout * 4).then(() => Infinity)]);
    expect(ms).toBeGreaterThanOrEqual(LIMITS.headersTimeout - 50);
    expect(ms).toBeLessThan(LIMITS.headersTimeout * 4);
  });

  it('a keep-alive connection pausing less than keepAliveTimeout between requests is served for longer than the headers timeout', async () => {
    const socket = await open();
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const count = () => text.split('HTTP/1.1 200 ').length - 1;
    const started = Date.now();
    for (let i = 1; i <= 6; i++) {
      socket.write(`GET /api/v1/system/version HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth}\r\n\r\n`);
      while (count() < i && !socket.destroyed) await sleep(10);
      expect(count()).toBe(i);
      await sleep(LIMITS.keepAliveTimeout / 2);
    }
    expect(Date.now() - started).toBeGreaterThan(LIMITS.headersTimeout);
    expect(socket.destroyed).toBe(false);
  });
});

describe(`${IDLE} idle connections`, () => {
  it('do not stop a normal client from being served, and are all closed by the timeouts', async () => {
    // A server of its own with timeouts long enough for all of them to be open at once.
    const idleLimits = { headersTimeout: 1_500, requestTimeout: 2_000, keepAliveTimeout: 1_500, connectionsCheckingInterval: 100 };
    const own = await startApp({ limits: idleLimits });
    try {
      const ownPort = Number(new URL(own.baseUrl).port);
      const started = Date.now();
      const closes: Promise<number>[] = [];
      const silent: Socket[] = [];
      const kept: Socket[] = [];
      const request = `GET /api/v1/system/version HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth}\r\n\r\n`;
      // Half connect and send nothing.
      const connectOnly = async () => {
        const socket = await open(ownPort);
        socket.on('error', () => {});
        closes.push(closedAfter(socket, started));
        silent.push(socket);
      };
      // Half complete one keep-alive request and then stay idle.
      const oneRequest = async (): Promise<string> => {
        const socket = await open(ownPort);
        socket.on('error', () => {});
        closes.push(closedAfter(socket, started));
        kept.push(socket);
        return new Promise((resolve) => {
          let text = '';
          socket.on('data', (chunk: Buffer) => {
            text += chunk.toString('latin1');
            if (/\r\n\r\n[\s\S]*\}/.test(text)) resolve(text);
          });
          socket.once('close', () => resolve(text));
          socket.write(request);
        });
      };
      const answers: string[] = [];
      for (let i = 0; i < IDLE; i += 100) {
        const batch = Array.from({ length: Math.min(100, IDLE - i) }, (_, j) => ((i + j) % 2 ? oneRequest() : connectOnly().then(() => '')));
        answers.push(...(await Promise.all(batch)));
      }
      const openedIn = Date.now() - started;
      expect(silent.length + kept.length).toBe(IDLE);
      expect(answers.filter((a, i) => i % 2 === 1 && !a.startsWith('HTTP/1.1 200 ')).map((a) => a.slice(0, 80))).toEqual([]);
      // All of them are connected at once, and a normal client is served promptly meanwhile.
      expect(openedIn).toBeLessThan(idleLimits.headersTimeout);
      expect([...silent, ...kept].filter((s) => s.destroyed).length).toBe(0);
      for (let i = 0; i < 3; i++) {
        const r = await timedGet(own.baseUrl);
        expect(r.status).toBe(200);
        expect(r.ms).toBeLessThan(PROMPT_MS);
      }
      // Then the server closes every one: the kept-alive ones after keepAliveTimeout, the silent
      // ones after headersTimeout (counted from the connection), each within a check interval
      // and some slack.
      const deadline = Math.max(idleLimits.headersTimeout, idleLimits.keepAliveTimeout) + openedIn + 1_500;
      const times = await Promise.race([Promise.all(closes), sleep(deadline).then(() => undefined)]);
      const stillOpen = [...silent, ...kept].filter((s) => !s.destroyed);
      expect(stillOpen.length, `${stillOpen.length} idle connections still open after ${deadline} ms`).toBe(0);
      expect(Math.min(...times!)).toBeGreaterThanOrEqual(Math.min(idleLimits.headersTimeout, idleLimits.keepAliveTimeout) - 50);
      expect((await timedGet(own.baseUrl)).status).toBe(200);
    } finally {
      for (const socket of opened) socket.destroy();
      await own.close();
    }
  }, 15_000);
});

describe('bounded memory per request and per token', () => {
  it(`the admin journal keeps at most its capacity (500) after more requests than that`, async () => {
    expect(server.dev.journal.capacity).toBe(500);
    const total = 600;
    for (let i = 0; i < total; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${server.baseUrl}/v1/system/version`, { headers: { authorization: auth } }).then((r) => r.arrayBuffer())));
    }
    const res = await fetch(`${new URL(server.baseUrl).origin}/__admin/journal?limit=500`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: unknown[] };
    expect(data.length).toBe(500);
    expect(server.dev.journal.recent().length).toBe(500);
  });

  it('the journal ring overwrites the oldest entry, newest first', () => {
    const journal = new Journal(3);
    for (let i = 0; i < 10; i++) journal.add({ time: i, method: 'GET', path: `/${i}`, status: 200, durationMs: 0 });
    expect(journal.recent().map((e) => e.path)).toEqual(['/9', '/8', '/7']);
  });

  it('the token cache holds at most maxEntries tokens, dropping the oldest', async () => {
    const verifier = createVerifier({}, { maxEntries: 5 });
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => tokenFor('DataConsumer', `u${i}`)));
    for (const [i, token] of tokens.entries()) expect((await verifier.verify(token)).user).toBe(`u${i}`);
    const remembered = tokens.map((t) => verifier.cached!(t) !== undefined);
    expect(remembered.filter(Boolean).length).toBe(5);
    expect(remembered.slice(-5)).toEqual([true, true, true, true, true]);
  });
});
