/**
 * The answer of the in-process `fetch`: a WHATWG `Response` whose body stream is made only when it
 * is asked for (`response.body`, as MSW and `pipeTo` ask). Read as text, JSON or bytes — what
 * clients do — it gives the answer's text straight away, as the same answer would; making the
 * stream for every answer was most of an in-process call (bench: in-process GET by id). A JSON
 * answer may come as its value (src/http/dispatcher.ts `jsonValues`), a copy no one else holds:
 * `json()` gives it as it is, the other readers its JSON text.
 */
const utf8 = new TextEncoder();

/** The body: its text, or the value of a JSON answer. */
export type CatalogBody = string | { json: unknown } | null;

export class CatalogResponse extends Response {
  #body: CatalogBody;
  #used = false;
  /** The body's stream, once asked for: from then on the readers read it. */
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | null | undefined;

  constructor(body: CatalogBody, init: ResponseInit) {
    super(null, init);
    this.#body = body;
  }

  /** The body's text, written from the value the first time it is needed. */
  get #text(): string | null {
    if (this.#body !== null && typeof this.#body === 'object') this.#body = JSON.stringify(this.#body.json);
    return this.#body;
  }

  /** A stream of the answer's bytes, made on first use. */
  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#stream === undefined) this.#stream = this.#text === null || this.#used ? null : new Response(this.#text).body;
    return this.#stream;
  }

  override get bodyUsed(): boolean {
    return this.#used || (this.#stream !== undefined && this.#stream !== null && this.#stream.locked);
  }

  /** The answer's body, once: a second read is refused as `Response` refuses it. */
  #takeBody(): CatalogBody {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#body;
  }

  /** The answer's text, once. */
  #take(): string {
    const body = this.#takeBody();
    return (body !== null && typeof body === 'object' ? JSON.stringify(body.json) : body) ?? '';
  }

  /** A Response holding what is left of the body, when its stream was asked for. */
  #fromStream(): Response | undefined {
    return this.#stream === undefined ? undefined : new Response(this.#stream, { headers: this.headers });
  }

  override async text(): Promise<string> {
    return (await this.#fromStream()?.text()) ?? this.#take();
  }

  override async json(): Promise<unknown> {
    const fromStream = this.#fromStream();
    if (fromStream) return fromStream.json();
    const body = this.#takeBody();
    return body !== null && typeof body === 'object' ? body.json : JSON.parse(body ?? '');
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.#fromStream()?.arrayBuffer()) ?? (utf8.encode(this.#take()).buffer as ArrayBuffer);
  }

  override async blob(): Promise<Blob> {
    return (this.#fromStream() ?? new Response(this.#take(), { headers: this.headers })).blob();
  }

  override async formData(): Promise<FormData> {
    return (this.#fromStream() ?? new Response(this.#take(), { headers: this.headers })).formData();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    if (this.#stream !== undefined) {
      // Its stream is out: split it, as Response.clone does.
      const [mine, theirs] = this.#stream === null ? [null, null] : this.#stream.tee();
      this.#stream = mine;
      return new Response(theirs, { status: this.status, statusText: this.statusText, headers: this.headers });
    }
    return new CatalogResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

// `bytes()` where the platform has it (Node.js 22, current browsers).
Object.defineProperty(CatalogResponse.prototype, 'bytes', {
  async value(this: CatalogResponse) {
    return new Uint8Array(await this.arrayBuffer());
  },
});
