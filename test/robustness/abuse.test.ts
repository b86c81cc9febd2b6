/**
 * Bounded under abuse: a slow client dribbling its headers and a thousand idle connections do not
 * stop others from being served, and are closed by the server's timeouts (src/app/server.ts,
 * SERVER_LIMIT_DEFAULTS); the admin journal and the token cache stay within their sizes. The
 * server runs with timeouts of a fraction of a second so the file finishes in a few seconds; the
 * defaults are asserted separately. Nothing here asserts how long anything took (on a loaded
 * machine anything may take long): what is checked is what happened, and in which order; how fast
 * the server answers under load is the bench's (npm run bench).
 */
import { spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/app/admin/journal.ts';
import { createVerifier } from '../../src/auth/tokens.ts';
import { SERVER_LIMIT_DEFAULTS, startServer } from '../../src/app/server.ts';
import type { TestApp } from '../kit.ts';
import { startApp, tokenFor } from '../kit.ts';

const LIMITS = { headersTimeout: 500, requestTimeout: 1_000, keepAliveTimeout: 2_000, connectionsCheckingInterval: 100 };
/** How long the tests wait for the server to close a connection before they say it did not. */
const CLOSE_DEADLINE_MS = 15_000;
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

/** Resolves true when the server closes the socket (or it errors), false if it is still open after the deadline. */
function closedBy(socket: Socket, deadline = CLOSE_DEADLINE_MS): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), deadline);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The status of one GET on a new connection (a new client). */
async function getStatus(baseUrl = server.baseUrl): Promise<number> {
  const res = await fetch(`${baseUrl}/v1/system/version`, { headers: { authorization: auth, connection: 'close' } });
  await res.arrayBuffer();
  return res.status;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('server limits', () => {
  it('default to the values docs/limits.md documents, and reject an inconsistent pair', async () => {
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
  it('does not stop other clients, and is answered 408 and closed long before its headers end', async () => {
    const slow = await open();
    let received = '';
    slow.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    slow.on('error', () => {}); // a write racing the server's close
    const closed = closedBy(slow);
    // About seven seconds of headers: far longer than the headers timeout.
    const headers = `GET /api/v1/system/version HTTP/1.1\r\nHost: ${host}\r\nX-Slow: ${'a'.repeat(20)}\r\n\r\n`;
    let sent = 0;
    const dribble = setInterval(() => {
      if (slow.destroyed || sent >= headers.length) return clearInterval(dribble);
      slow.write(headers[sent++]!);
    }, 100);
    try {
      // Meanwhile other clients are served.
      const statuses: number[] = [];
      while (!slow.destroyed) {
        statuses.push(await getStatus());
        await sleep(50);
      }
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(await closed).toBe(true);
      // Closed by the headers timeout, not by the end of the headers.
      expect(sent).toBeLessThan(headers.length);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(dribble);
    }
  });
});

describe('connections that stall or pause', () => {
  it('a connection that sends one byte and stops is closed by the headers timeout', async () => {
    const socket = await open();
    socket.on('error', () => {});
    const closed = closedBy(socket);
    socket.write('G');
    expect(await closed).toBe(true);
  });

  it('a keep-alive connection pausing less than keepAliveTimeout between requests is served for longer than the headers timeout', async () => {
    const socket = await open();
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const count = () => text.split('HTTP/1.1 200 ').length - 1;
    // Six pauses of a twentieth of keepAliveTimeout: longer than the headers timeout in all.
    const pause = LIMITS.keepAliveTimeout / 20;
    expect(6 * pause).toBeGreaterThan(LIMITS.headersTimeout);
    for (let i = 1; i <= 6; i++) {
      socket.write(`GET /api/v1/system/version HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth}\r\n\r\n`);
      while (count() < i && !socket.destroyed) await sleep(10);
      expect(count()).toBe(i);
      await sleep(pause);
    }
    expect(socket.destroyed).toBe(false);
  });
});

describe(`${IDLE} idle connections`, () => {
  /**
   * Opens `count` connections to `ownPort`: every other one connects and sends nothing, the rest
   * complete one keep-alive request and then stay idle; resolves with the sockets and the answers
   * the keep-alive ones got.
   */
  async function idleConnections(ownPort: number, count: number): Promise<{ sockets: Socket[]; answers: string[] }> {
    const sockets: Socket[] = [];
    const request = `GET /api/v1/system/version HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth}\r\n\r\n`;
    const connectOnly = async (): Promise<undefined> => {
      const socket = await open(ownPort);
      socket.on('error', () => {});
      sockets.push(socket);
      return undefined;
    };
    const oneRequest = async (): Promise<string> => {
      const socket = await open(ownPort);
      socket.on('error', () => {});
      sockets.push(socket);
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
    for (let i = 0; i < count; i += 100) {
      const batch = await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => ((i + j) % 2 ? oneRequest() : connectOnly())));
      answers.push(...batch.filter((answer) => answer !== undefined));
    }
    return { sockets, answers };
  }

  it('all open at once do not stop a normal client from being served', async () => {
    // Timeouts far longer than opening them all can take: every one is open at once.
    const own = await startApp({ limits: { headersTimeout: 60_000, requestTimeout: 61_000, keepAliveTimeout: 60_000 } });
    try {
      const { sockets, answers } = await idleConnections(Number(new URL(own.baseUrl).port), IDLE);
      expect(sockets.length).toBe(IDLE);
      expect(answers.filter((a) => !a.startsWith('HTTP/1.1 200 ')).map((a) => a.slice(0, 80))).toEqual([]);
      expect(sockets.filter((s) => s.destroyed).length).toBe(0);
      for (let i = 0; i < 3; i++) expect(await getStatus(own.baseUrl)).toBe(200);
      expect(sockets.filter((s) => s.destroyed).length).toBe(0);
    } finally {
      for (const socket of opened) socket.destroy();
      await own.close();
    }
  });

  it('are all closed by the timeouts, the kept-alive ones and the silent ones, and the server serves on', async () => {
    const own = await startApp({ limits: { headersTimeout: 500, requestTimeout: 1_000, keepAliveTimeout: 500, connectionsCheckingInterval: 100 } });
    try {
      const { sockets } = await idleConnections(Number(new URL(own.baseUrl).port), 200);
      const closed = await Promise.all(sockets.map((socket) => closedBy(socket)));
      expect(closed.filter((c) => !c).length, 'idle connections still open').toBe(0);
      expect(await getStatus(own.baseUrl)).toBe(200);
    } finally {
      for (const socket of opened) socket.destroy();
      await own.close();
    }
  });
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
