const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The TypeError fetch's Response rejects a second read with. */
const unusable = () => new TypeError('Body is unusable: Body has already been read');

/**
 * Response, seen by the compiler as a constructor only: the DOM types declare
 * its methods as properties, which a subclass may not with methods.
 */
const ResponseBase: new (body: null, init: ResponseInit) => { readonly headers: Headers } = Response;

/**
 * A Response whose body is already in memory: the in-process `fetch`'s
 * answers. A standard Response wraps every body in a ReadableStream, and
 * reading one back through it costs about twice the engine's whole answer
 * to a read; this one hands its text out directly. It is a Response
 * (status, headers, `instanceof`), read by the same methods, once, with the
 * same errors; `body` gives a stream of it on first ask, and `clone()` a copy.
 */
class BufferedResponse extends ResponseBase {
  readonly #content: string | Uint8Array;
  readonly #init: ResponseInit;
  #used = false;
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(content: string | Uint8Array, init: ResponseInit) {
    super(null, init);
    this.#content = content;
    this.#init = init;
  }

  /** The content, once: a second read rejects as fetch's does. */
  #take(): string | Uint8Array {
    if (this.#used) throw unusable();
    this.#used = true;
    return this.#content;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.#stream ??= new ReadableStream<Uint8Array>({
      pull: (controller) => {
        const content = this.#take();
        controller.enqueue(typeof content === 'string' ? encoder.encode(content) : content);
        controller.close();
      },
    });
    return this.#stream as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  async text(): Promise<string> {
    const content = this.#take();
    return typeof content === 'string' ? content : decoder.decode(content);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const content = this.#take();
    // A copy in an ArrayBuffer of its own: bytes may be a Node Buffer, whose slice() is a view and whose buffer is a shared pool.
    return (typeof content === 'string' ? encoder.encode(content) : new Uint8Array(content)) as Uint8Array<ArrayBuffer>;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    this.#take();
    throw new TypeError('Response body is not form data: the sandbox answers JSON.');
  }

  clone(): Response {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return bufferedResponse(this.#content, { ...this.#init, headers: this.headers });
  }
}

/** A Response of `content`, held in memory and handed out as it is read (see BufferedResponse). */
export const bufferedResponse = (content: string | Uint8Array, init: ResponseInit): Response => new BufferedResponse(content, init) as unknown as Response;
