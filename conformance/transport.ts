/**
 * What can go wrong between the suite and a target before there is an answer to check: refused,
 * closed, too slow, not HTTP, endless. Each is an exit 2 ("cannot test this target"), never a
 * rule failure, a stack trace or a hang (conformance/README.md lists the messages).
 *
 * The requests go through a small HTTP/1.1 client over node:net and node:tls sockets kept alive
 * between requests. Node's own client (ClientRequest, IncomingMessage and their streams) cost
 * about 300 µs of CPU per request more on the 2-core machine of docs/performance.md, which counts
 * against the suite's share of a run against a remote target (README.md "suite CPU"). The suite
 * sends one request at a time per connection and never pipelines, so the client only needs to
 * frame one response: a status line, headers, and a body delimited by Content-Length, chunked
 * coding, or the end of the connection.
 */
import net from 'node:net';
import tls from 'node:tls';

/** Why a request got no usable answer; probe.ts turns it into advice. */
export type TransportFailure = 'refused' | 'timeout' | 'closed' | 'not-http' | 'too-large' | 'other';

/** The target did not answer (refused, reset, timed out, not HTTP): not a rule failure. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly failure: TransportFailure = 'other',
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Per-request time limit when --timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Larger answers are not this API (a page of a list is kilobytes): stop reading, exit 2. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** A status line and headers larger than this are not this API (Node's own limit). */
const MAX_HEAD_BYTES = 16 * 1024;
/** An idle connection is not reused after this long, nor after the server's Keep-Alive hint less a second. */
const IDLE_MS = 4000;
/** What one read of a plain TCP connection takes at most: an answer of the API (a page of a list) in one read. */
const READ_BUFFER_BYTES = 64 * 1024;

/** A request failure in words: the error codes of the socket and of the response framing, with what they mean. */
function describeFailure(err: unknown, timeoutMs: number): { failure: TransportFailure; reason: string } {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return { failure: 'timeout', reason: `no answer within ${timeoutMs / 1000} s (--timeout)` };
  const code = e.code ?? e.cause?.code ?? '';
  const detail = [code, e.message ?? e.cause?.message].filter(Boolean).join(': ');
  if (code === 'ECONNREFUSED') return { failure: 'refused', reason: `connection refused (${detail})` };
  if (code.startsWith('HPE_')) return { failure: 'not-http', reason: `the answer is not HTTP (${detail})` };
  if (code === 'ECONNRESET' || code === 'EPIPE' || /other side closed|socket hang up/i.test(detail)) {
    return { failure: 'closed', reason: `the connection was closed without an answer (${detail})` };
  }
  return { failure: 'other', reason: detail || String(err) };
}

/** What came back: the status, the headers (names in lower case) and the body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** An error with a code, as Node's HTTP client names the same conditions (`HPE_*` from its parser, ECONNRESET). */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Headers of which Node's client keeps the first when a response repeats them; others are joined with ", ". */
const SINGLE_HEADERS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** What a header value may hold (Node's rule): no control characters but tab. */
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/** A header name: an HTTP token. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** Methods Node's client sends `Content-Length: 0` for when they carry no body. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** One exchange on a connection: the response being read and how to settle it. */
interface Pending {
  resolve: (res: RawResponse) => void;
  fail: (err: unknown) => void;
  /** The status line and headers have been read (a failure is then "reading the response failed"). */
  answered: boolean;
  /** Bytes not yet framed: the head until it is complete, then the chunked coding's framing. */
  buffer: Buffer | undefined;
  status: number;
  headers: Record<string, string>;
  /** How the body ends: a length, chunked coding, or the end of the connection. */
  framing: 'length' | 'chunked' | 'close';
  /** Body bytes still expected (`length`), or left in the current chunk (`chunked`: -1 before a size line, -2 before the CRLF that ends a chunk's data). */
  remaining: number;
  /** The chunked coding reached its last chunk and reads the trailers. */
  trailers: boolean;
  chunks: Buffer[];
  bytes: number;
  keepAlive: boolean;
  idleMs: number;
}

/** A socket to one origin, reused for one request after another. */
class Connection {
  pending: Pending | undefined;
  idleSince = 0;
  idleMs = IDLE_MS;
  dead = false;

  /**
   * @param sharedReads the socket reads into one buffer of its own (`onread`), which the next read
   * overwrites: bytes kept past onData are copied.
   */
  constructor(
    readonly socket: net.Socket,
    private readonly sharedReads: boolean,
    private readonly release: (conn: Connection) => void,
    private readonly forget: (conn: Connection) => void,
  ) {
    socket.setNoDelay(true);
    if (!sharedReads) socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    socket.on('error', (err) => this.close(err));
    socket.on('close', () => this.close(codedError('ECONNRESET', 'socket hang up')));
  }

  private close(err: unknown): void {
    if (!this.dead) {
      this.dead = true;
      this.forget(this);
      this.socket.destroy();
    }
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    p.fail(
      p.answered && err instanceof Error && (err as { code?: string }).code === 'ECONNRESET' && err.message === 'socket hang up'
        ? codedError('ECONNRESET', 'the connection was closed in the middle of the answer')
        : err,
    );
  }

  private onEnd(): void {
    const p = this.pending;
    // A body that lasts until the connection ends is complete now.
    if (p && p.answered && p.framing === 'close') return this.finish(p, false);
    this.close(codedError('ECONNRESET', 'socket hang up'));
  }

  /** Bytes to keep after onData returns. */
  private keep(bytes: Buffer): Buffer {
    return this.sharedReads ? Buffer.from(bytes) : bytes;
  }

  onData(chunk: Buffer): void {
    const p = this.pending;
    if (!p) return this.close(undefined); // bytes nobody asked for: the connection is out of step
    try {
      if (!p.answered) {
        const buffer = p.buffer ? Buffer.concat([p.buffer, chunk]) : chunk;
        const rest = this.readHead(p, buffer);
        if (rest === undefined) return;
        chunk = rest;
      }
      this.readBody(p, chunk);
    } catch (err) {
      this.close(err);
    }
  }

  /** Reads the status line and headers; returns the bytes after them, or undefined until they are complete. */
  private readHead(p: Pending, buffer: Buffer): Buffer | undefined {
    for (;;) {
      const prefix = Math.min(buffer.length, 5);
      if (buffer.toString('latin1', 0, prefix) !== 'HTTP/'.slice(0, prefix)) throw codedError('HPE_INVALID_CONSTANT', 'Expected HTTP/');
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffer.length > MAX_HEAD_BYTES) throw codedError('HPE_HEADER_OVERFLOW', 'Header overflow');
        p.buffer = this.keep(buffer);
        return undefined;
      }
      const lines = buffer.toString('latin1', 0, end).split('\r\n');
      const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]!);
      if (!statusLine) throw codedError('HPE_INVALID_STATUS', `Invalid status line ${JSON.stringify(lines[0]!.slice(0, 40))}`);
      const status = Number(statusLine[2]);
      const headers: Record<string, string> = {};
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        const colon = line.indexOf(':');
        if (colon <= 0) throw codedError('HPE_INVALID_HEADER_TOKEN', `Invalid header ${JSON.stringify(line.slice(0, 40))}`);
        const name = line.slice(0, colon).toLowerCase();
        const value = line.slice(colon + 1).trim();
        const prev = headers[name];
        if (prev === undefined) headers[name] = value;
        else if (!SINGLE_HEADERS.has(name)) headers[name] = `${prev}, ${value}`;
      }
      buffer = buffer.subarray(end + 4);
      // An interim answer (100 Continue...): the real one follows.
      if (status >= 100 && status < 200) {
        if (buffer.length === 0) {
          p.buffer = undefined;
          return undefined;
        }
        continue;
      }
      p.answered = true;
      p.buffer = undefined;
      p.status = status;
      p.headers = headers;
      const connection = headers.connection?.toLowerCase() ?? '';
      p.keepAlive = statusLine[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
      const hint = /\btimeout=(\d+)/.exec(headers['keep-alive'] ?? '')?.[1];
      if (hint !== undefined) {
        p.idleMs = Math.min(IDLE_MS, Number(hint) * 1000 - 1000);
        if (p.idleMs <= 0) p.keepAlive = false;
      }
      const te = headers['transfer-encoding'];
      if (status === 204 || status === 304) {
        p.framing = 'length';
        p.remaining = 0;
      } else if (te !== undefined && /(?:^|,)\s*chunked\s*$/i.test(te)) {
        p.framing = 'chunked';
        p.remaining = -1;
      } else if (te === undefined && headers['content-length'] !== undefined) {
        if (!/^\d+$/.test(headers['content-length'])) throw codedError('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
        p.framing = 'length';
        p.remaining = Number(headers['content-length']);
      } else {
        p.framing = 'close';
        p.keepAlive = false;
      }
      return buffer;
    }
  }

  private readBody(p: Pending, data: Buffer): void {
    if (p.framing === 'length') {
      // Bytes past the announced length mean the connection is out of step: it is not reused.
      const extra = data.length - p.remaining;
      // The whole body in one read, the usual case: decoded where it was read, not kept first.
      if (p.chunks.length === 0 && extra >= 0) return this.finish(p, p.keepAlive && extra === 0, data.toString('utf8', 0, p.remaining));
      if (data.length > 0 && p.remaining > 0) this.take(p, extra > 0 ? data.subarray(0, p.remaining) : data);
      if (p.remaining <= 0) this.finish(p, p.keepAlive && extra <= 0);
      return;
    }
    if (p.framing === 'close') {
      if (data.length > 0) this.take(p, data);
      return;
    }
    this.readChunked(p, data);
  }

  /** Keeps body bytes, within MAX_RESPONSE_BYTES. */
  private take(p: Pending, data: Buffer): void {
    p.bytes += data.length;
    if (p.framing === 'length') p.remaining -= data.length;
    if (p.bytes > MAX_RESPONSE_BYTES) throw new TransportError(`the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`, '', 'too-large');
    p.chunks.push(this.keep(data));
  }

  /** The chunked coding: `<hex size>[;ext]\r\n<data>\r\n`…, `0\r\n`, trailers, `\r\n`. */
  private readChunked(p: Pending, data: Buffer): void {
    let buffer = p.buffer ? Buffer.concat([p.buffer, data]) : data;
    p.buffer = undefined;
    for (;;) {
      if (p.remaining > 0) {
        if (buffer.length === 0) return;
        const n = Math.min(p.remaining, buffer.length);
        this.take(p, buffer.subarray(0, n));
        p.remaining -= n;
        buffer = buffer.subarray(n);
        if (p.remaining > 0) return;
        p.remaining = -2; // the CRLF after the data
      }
      const eol = buffer.indexOf('\r\n');
      if (eol < 0) {
        if (buffer.length > MAX_HEAD_BYTES) throw codedError('HPE_INVALID_CHUNK_SIZE', 'Invalid chunk size line');
        p.buffer = buffer.length > 0 ? this.keep(buffer) : undefined;
        return;
      }
      const line = buffer.toString('latin1', 0, eol);
      buffer = buffer.subarray(eol + 2);
      if (p.trailers) {
        if (line === '') return this.finish(p, p.keepAlive && buffer.length === 0);
        continue;
      }
      if (p.remaining === -2) {
        if (line !== '') throw codedError('HPE_STRICT', 'Expected CRLF after chunk');
        p.remaining = -1;
        continue;
      }
      const size = /^([0-9a-fA-F]+)\s*(?:;.*)?$/.exec(line)?.[1];
      if (size === undefined) throw codedError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
      p.remaining = parseInt(size, 16);
      if (p.remaining === 0) p.trailers = true;
      else if (p.bytes + p.remaining > MAX_RESPONSE_BYTES) throw new TransportError(`the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`, '', 'too-large');
    }
  }

  private finish(p: Pending, reusable: boolean, text?: string): void {
    this.pending = undefined;
    text ??= (p.chunks.length === 1 ? p.chunks[0]! : Buffer.concat(p.chunks)).toString('utf8');
    if (reusable && !this.dead) {
      this.idleMs = p.idleMs;
      this.release(this);
    } else {
      this.dead = true;
      this.forget(this);
      this.socket.destroy();
    }
    p.resolve({ status: p.status, headers: p.headers, text });
  }

  send(p: Pending, head: string, body: string | undefined): void {
    this.pending = p;
    // One write, one packet: as Node's client does, a string body goes out with the head as UTF-8.
    if (body === undefined) this.socket.write(head, 'latin1');
    else this.socket.write(head + body, 'utf8');
  }
}

/**
 * Kept-alive connections by origin. Idle ones do not keep the process alive (unref), are dropped
 * when the server closes them, and are not reused after IDLE_MS (or the server's Keep-Alive hint
 * less a second): a server about to close an idle connection would otherwise fail the next request.
 */
export class ConnectionPool {
  private readonly idle = new Map<string, Connection[]>();

  acquire(target: URL): Connection {
    const origin = `${target.protocol}//${target.host}`;
    const list = this.idle.get(origin);
    const now = Date.now();
    while (list && list.length > 0) {
      const conn = list.pop()!;
      if (conn.dead) continue;
      if (now - conn.idleSince >= conn.idleMs) {
        conn.dead = true;
        conn.socket.destroy();
        continue;
      }
      conn.socket.ref();
      return conn;
    }
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    const secure = target.protocol === 'https:';
    const port = Number(target.port) || (secure ? 443 : 80);
    // A plain connection reads into a buffer of its own, handed to onData as is: no stream of
    // chunks to push, buffer and emit for each answer (about 40 µs of CPU per request less).
    const onread = {
      buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      callback: (n: number, buffer: Uint8Array): boolean => {
        conn.onData(Buffer.from(buffer.buffer, buffer.byteOffset, n));
        return true; // false would pause the socket
      },
    };
    const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port, onread });
    const conn: Connection = new Connection(
      socket,
      !secure,
      (c) => {
        c.idleSince = Date.now();
        c.socket.unref();
        const l = this.idle.get(origin) ?? [];
        l.push(c);
        this.idle.set(origin, l);
      },
      (c) => {
        const l = this.idle.get(origin);
        const i = l?.indexOf(c) ?? -1;
        if (i >= 0) l!.splice(i, 1);
      },
    );
    return conn;
  }
}

/**
 * Sends one request on a kept-alive connection of `pool`. The whole exchange, body included, must
 * end within `timeoutMs`; the body may not exceed MAX_RESPONSE_BYTES. Failures are TransportErrors
 * whose message starts with `<METHOD> <url>`.
 */
export function sendRequest(url: string, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number, pool: ConnectionPool): Promise<RawResponse> {
  const target = new URL(url);
  let head = `${method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n`;
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name)) throw new TypeError(`Header name must be a valid HTTP token ["${name}"]`);
    if (INVALID_HEADER_CHAR.test(value)) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' });
    head += `${name}: ${value}\r\n`;
  }
  if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  else if (BODY_METHODS.has(method)) head += 'content-length: 0\r\n';
  head += '\r\n';
  return new Promise((resolve, reject) => {
    const conn = pool.acquire(target);
    let settled = false;
    const p: Pending = {
      resolve: (res) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(res);
      },
      fail: (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err instanceof TransportError) return reject(new TransportError(`${method} ${url}: ${err.message}`, url, err.failure));
        const { failure, reason } = describeFailure(err, timeoutMs);
        reject(new TransportError(p.answered ? `${method} ${url}: reading the response failed: ${reason}` : `${method} ${url} failed: ${reason}`, url, failure));
      },
      answered: false,
      buffer: undefined,
      status: 0,
      headers: {},
      framing: 'length',
      remaining: 0,
      trailers: false,
      chunks: [],
      bytes: 0,
      keepAlive: false,
      idleMs: IDLE_MS,
    };
    const timer = setTimeout(() => {
      conn.pending = undefined;
      p.fail(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' }));
      conn.socket.destroy();
    }, timeoutMs);
    conn.send(p, head, body);
  });
}
