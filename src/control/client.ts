/**
 * The typed client of a sandbox's control plane (`/__sandbox`), used by the
 * QA commands, the contract tools (provider states, Dredd hooks) and the
 * tests. Its URLs come from the same route table as the server's router
 * (WireMock's HttpAdminClient and AdminRoutes are the model), and its
 * types are generated from spec/sandbox-control.yaml, so a call the server
 * does not serve does not compile.
 *
 * It depends on nothing but `fetch` and `exact-json.ts` (lossless-json), so
 * the Dredd hooks can carry it. Bodies are read and written with
 * `parseJson`/`stringifyJson`: an int64 past 2^53 keeps its digits.
 */
import { parseJson, stringifyJson } from '../kernel/json.js';
import {
  CONTROL_BASE,
  CONTROL_ROUTES,
  routeBase,
  routePath,
  type ControlErrorBody,
  type ControlInput,
  type ControlOperationId,
  type ControlResult,
  type InputRequired,
} from './routes.js';
import { createEventParser, type ServerSentEvent } from './sse.js';

export interface ControlClientOptions {
  /** Where `/__sandbox` is served (and any path prefix before it), e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Sent as `Authorization: Bearer` to every operation that needs it. */
  adminToken?: string;
  /** The API key whose workspace operations act on (`X-Sandbox-Key`); default the sandbox's first key. */
  key?: string;
  /** Gives up on a call after this many milliseconds; default never. */
  timeoutMs?: number;
  /** How requests are sent: the global `fetch` by default; an in-process sandbox's `fetch` opens no socket. */
  fetch?: typeof fetch;
}

/** Per call: another workspace than the client's. */
export interface CallOptions {
  key?: string;
  /** The API key of the workspace a copy goes to (`X-Sandbox-Target-Key`). */
  targetKey?: string;
}

/** Any answer, whatever its status. */
export interface ControlResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON value of `text`, or `text` itself when it is not JSON (undefined when empty). */
  body: unknown;
}

/** A request no operation need describe: for tests of what the control plane refuses. */
export interface SendInit {
  /** The admin token to send; default the client's; `null` sends no Authorization header. */
  token?: string | null;
  key?: string;
  /** A body sent as JSON. */
  json?: unknown;
  /** A body sent as is (with its own Content-Type in `headers`). */
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

/** A call that failed: no answer (`status` undefined), or an answer other than the operation's success, with its Error body. */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly operationId: string | undefined,
    readonly status: number | undefined,
    /** The Error the sandbox sent, if it sent one. */
    readonly body: ControlErrorBody | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ControlError';
  }
}

/** Operations that answer a stream of events rather than JSON. */
export type StreamOperationId = 'streamJournal' | 'streamUnauthenticatedJournal';
/** Operations that answer JSON: every other one. */
export type JsonOperationId = Exclude<ControlOperationId, StreamOperationId>;

/** Per stream: another workspace, and a signal that closes it. */
export interface StreamOptions extends CallOptions {
  signal?: AbortSignal;
}

type StreamArgs<K extends StreamOperationId> = [input?: ControlInput<K>, options?: StreamOptions];

type CallArgs<K extends ControlOperationId> =
  InputRequired<K> extends true ? [input: ControlInput<K>, options?: CallOptions] : [input?: ControlInput<K>, options?: CallOptions];

export interface ControlClient {
  readonly origin: string;
  /** Calls an operation; resolves with its success body, or throws a ControlError. */
  call<K extends JsonOperationId>(operationId: K, ...args: CallArgs<K>): Promise<ControlResult<K>>;
  /** Like `call`, but resolves with the body's JSON text as sent (an export to write to a file as is). */
  text<K extends JsonOperationId>(operationId: K, ...args: CallArgs<K>): Promise<string>;
  /**
   * Follows an operation that answers Server-Sent Events (the live journal) with `fetch()`, which, unlike
   * `EventSource`, sends the admin token as a header; its events until the stream ends or `signal` aborts.
   */
  events<K extends StreamOperationId>(operationId: K, ...args: StreamArgs<K>): AsyncIterable<ServerSentEvent>;
  /** Sends any request under `/__sandbox` and resolves with the answer, whatever its status; throws only when none comes. */
  send(method: string, path: string, init?: SendInit): Promise<ControlResponse>;
}

const parse = (text: string): unknown => {
  if (text === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    return text;
  }
};

const isErrorBody = (v: unknown): v is ControlErrorBody =>
  typeof v === 'object' && v !== null && typeof (v as ControlErrorBody).code === 'string' && typeof (v as ControlErrorBody).message === 'string';

/** One request to the control plane at `origin`, to its answer; a ControlError when nothing answers. */
async function exchange(
  { origin, timeoutMs, fetch = globalThis.fetch }: Pick<ControlClientOptions, 'origin' | 'timeoutMs' | 'fetch'>,
  request: { method: string; path: string; headers: Headers; body: SendInit['body']; base?: string },
  operationId?: string,
): Promise<ControlResponse> {
  const { method, path, headers, body, base = CONTROL_BASE } = request;
  const url = `${origin}${base}${path}`;
  let res: Response;
  try {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    // A streamed body needs `duplex: 'half'` (Node's fetch), which RequestInit does not declare.
    res = await fetch(url, { method, headers, body, signal, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
  } catch (error) {
    const reason = (error as Error).cause ?? (error as Error).message;
    throw new ControlError(`Cannot reach the sandbox's control plane at ${origin}: ${String(reason)}`, operationId, undefined, undefined, { cause: error });
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: parse(text) };
}

/** The ControlError of an answer other than the operation's success. */
function failure(operationId: ControlOperationId, path: string, res: { status: number; text: string; body: unknown }, base = CONTROL_BASE): ControlError {
  const error = isErrorBody(res.body) ? res.body : undefined;
  const why = error?.message ?? res.text.slice(0, 300);
  const { method } = CONTROL_ROUTES[operationId];
  return new ControlError(`${operationId} (${method} ${base}${path}) answered ${res.status}: ${why}`, operationId, res.status, error);
}

/** The events of a stream operation at `url`, read as they arrive until it ends or `signal` aborts. */
async function* readEvents(
  send: typeof fetch,
  operationId: StreamOperationId,
  url: string,
  path: string,
  headers: Headers,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const res = await send(url, { headers, signal: signal ?? null });
  if (res.status !== CONTROL_ROUTES[operationId].status || !res.body) {
    const text = await res.text();
    throw failure(operationId, path, { status: res.status, text, body: parse(text) });
  }
  const queue: ServerSentEvent[] = [];
  const feed = createEventParser((event) => queue.push(event));
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      feed(decoder.decode(chunk.value, { stream: true }));
      yield* queue.splice(0);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Creates a client of the control plane at `options.origin`. */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const origin = options.origin.replace(/\/+$/, '');

  /** The request of one call: `given` is a ControlInput of the operation, and every one has this shape. */
  function prepare(operationId: ControlOperationId, given: unknown, callOptions: CallOptions = {}) {
    const input = (given ?? {}) as { query?: Record<string, unknown>; path?: Record<string, unknown>; body?: unknown };
    const route = CONTROL_ROUTES[operationId];
    const headers = new Headers();
    if (route.admin && options.adminToken !== undefined) headers.set('authorization', `Bearer ${options.adminToken}`);
    const key = callOptions.key ?? options.key;
    if (route.workspace && key !== undefined) headers.set('x-sandbox-key', key);
    if (callOptions.targetKey !== undefined) headers.set('x-sandbox-target-key', callOptions.targetKey);
    const query = Object.entries(input.query ?? {}).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]));
    const path = routePath(route, input.path) + (query.length > 0 ? `?${new URLSearchParams(query).toString()}` : '');
    if (input.body !== undefined) headers.set('content-type', 'application/json');
    const body = input.body === undefined ? undefined : stringifyJson(input.body);
    return { route, method: route.method, path, headers, body, base: routeBase(route) };
  }

  async function request(operationId: ControlOperationId, given: unknown, callOptions: CallOptions = {}): Promise<ControlResponse> {
    const { route, ...prepared } = prepare(operationId, given, callOptions);
    const res = await exchange({ ...options, origin }, prepared, operationId);
    if (res.status !== route.status) throw failure(operationId, prepared.path, res, prepared.base);
    return res;
  }

  return {
    origin,
    async call(operationId, ...[input, callOptions]) {
      const res = await request(operationId, input, callOptions);
      if (typeof res.body === 'string' || res.body === undefined)
        throw new ControlError(
          `${operationId} answered ${res.status} with a body that is not JSON: ${res.text.slice(0, 300)}`,
          operationId,
          res.status,
          undefined,
        );
      // The server answers what the spec says, the spec these types are generated from.
      return res.body as ControlResult<typeof operationId>;
    },
    async text(operationId, ...[input, callOptions]) {
      return (await request(operationId, input, callOptions)).text;
    },
    events(operationId, ...[input, callOptions]) {
      const { path, headers } = prepare(operationId, input, callOptions);
      return readEvents(options.fetch ?? globalThis.fetch, operationId, `${origin}${CONTROL_BASE}${path}`, path, headers, callOptions?.signal);
    },
    send(method, path, init = {}) {
      const headers = new Headers(init.headers);
      const token = init.token === undefined ? options.adminToken : init.token;
      if (token !== null && token !== undefined && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      const key = init.key ?? options.key;
      if (key !== undefined) headers.set('x-sandbox-key', key);
      let body = init.body;
      if (init.json !== undefined) {
        body = stringifyJson(init.json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      return exchange({ ...options, origin }, { method, path, headers, body });
    },
  };
}
