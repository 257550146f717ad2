import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config, Mode } from '../config.js';
import type { Interceptor, ModeHandler, PassThroughMode, Runtime } from '../operation.js';
import type { Responder } from './respond.js';
import type { Route } from './routes.js';

/** What the /v1 pipeline is built from. */
export interface PipelineDeps {
  config: Pick<Config, 'apiKeys' | 'openKeys' | 'bodyLimit' | 'upstreamKey'>;
  runtime: Runtime;
  /** A handler for each mode the sandbox can switch to; `stateful` is required. */
  modes: { stateful: ModeHandler } & Partial<Record<Mode, ModeHandler>>;
  /** Run in order after validation; the first reply wins over the mode. */
  interceptors?: readonly Interceptor[];
  /** Proxy mode, when an upstream is configured: in that mode it takes every /v1 request in place of the chain. */
  passThrough?: PassThroughMode;
  /** Brings shared state (mode, faults, the key's pets) up to date after auth, before the request is answered; absent when nothing is shared. */
  sync?: (key: string) => void | Promise<void>;
  respond: Responder;
}

/** The request a route serves: its path parameters (decoded) and query (parsed). */
export interface Target {
  route: Route;
  params: Record<string, string>;
  query: Record<string, unknown>;
}

/** The /v1 pipeline: the one `serve` chain, and proxy mode's branch beside it. */
export interface Pipeline {
  /** The API key of a request; throws the 401 the interface prescribes. */
  authenticate(req: IncomingMessage): string;
  /**
   * Serves one operation: pinned headers -> auth -> body -> validation ->
   * interceptors -> mode -> write, every failure to the one error exit.
   */
  serve(req: IncomingMessage, res: ServerResponse, target: Target): void;
  /** Whether requests are passed on (proxy mode): then even a request that matches no operation goes to `forward`. */
  forwarding(): boolean;
  /** Passes a request on as it came (proxy mode); `target` is undefined when no operation matches it. */
  forward(req: IncomingMessage, res: ServerResponse, target: Target | undefined): void;
}
