import type { FetchHandler } from '../adapters/fetch.js';
import type { EngineRequest, EngineResponse } from '../kernel/types.js';
import type { Workspace } from './workspace.js';

/** The origin relative URLs of the in-process `fetch` are resolved against; nothing listens there. */
export const IN_PROCESS_ORIGIN = 'http://sandbox.invalid';

/** A Pet Store sandbox in this process: the engine without a socket, a port when asked for one. */
export interface PetstoreSandbox {
  /** The origin it listens on (e.g. `http://127.0.0.1:39213`), once `listen()` has resolved (or `port` was given); else undefined. */
  readonly url: string | undefined;
  /** The accepted API keys; the first names the default workspace. */
  readonly apiKeys: readonly string[];
  /** The control plane's token. */
  readonly adminToken: string;
  /**
   * Sends a request to the sandbox in process, with no socket: `'/v1/pets'`
   * (relative to the sandbox), a URL (only its path and query are read) or a
   * Request. Answers exactly as the server does.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * The fetch handler itself, `(Request, info?) => Promise<Response>`, for a
   * runtime or a library that takes one. A server passing its connection's
   * info (Deno's, Bun's, `@hono/node-server`'s, or `{ remoteAddress }`) has
   * the exposure rule judge that peer (docs/configuration.md, "Sharing the
   * sandbox"); without it the request is taken as made in process.
   */
  readonly handler: FetchHandler;
  /**
   * The engine itself: a request as plain values in (a body as bytes, or a
   * reader the engine asks within each route's limit), the answer as plain
   * values out; a path it serves nothing at is answered 404, as everywhere.
   */
  handle(request: EngineRequest): EngineResponse | Promise<EngineResponse>;
  /** The workspace of an API key (default the first): its typed controls, in process. */
  workspace(key?: string): Workspace;
  /** Listens on `port` (default the `port` option, else any free one) at 127.0.0.1 (or `host`); resolves with the origin. */
  listen(port?: number): Promise<string>;
  /**
   * Releases everything (docs/library.md): live journal tails end, requests
   * still waiting (a fault's delay) and every later one are answered 503,
   * the listener stops, the store is flushed and closed. Calls after the
   * first resolve with it.
   */
  close(): Promise<void>;
}
