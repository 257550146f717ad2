/**
 * `import { petstoreSandbox } from 'petstore-sandbox/middleware'`: the
 * sandbox as Connect middleware in a team's own Express, webpack or Vite dev
 * server (docs/library.md). Importing it starts nothing.
 */
import { createNodeMiddleware, type Middleware } from './adapters/node-middleware.js';
import { openSandbox, type PetstoreSandbox } from './library/create-sandbox.js';
import type { CreateSandboxOptions } from './library/options.js';

export type { CreateSandboxOptions } from './library/options.js';
export type { PetstoreSandbox } from './library/create-sandbox.js';

/** The middleware, with the sandbox behind it. */
export interface SandboxMiddleware extends Middleware {
  /** The sandbox it serves, once made: its workspaces' controls, its in-process `fetch`. */
  readonly sandbox: Promise<PetstoreSandbox>;
  /** Closes the sandbox: live tails end, waiting requests and every later one are answered 503, a data file is flushed (docs/library.md). */
  close(): Promise<void>;
}

/**
 * Middleware that answers `/v1`, `/__sandbox` and the probes (under the path
 * it is mounted at) and passes every other request on with `next()`. Mount
 * it before a body parser, or after one: a body already parsed is used as
 * sent. The sandbox is made at once (memory store by default); requests that
 * arrive before it is ready wait for it. If it cannot start (a bad option, a
 * data file another process holds), each of its requests goes to the host's
 * error handler with that error, through `next(error)`.
 */
export function petstoreSandbox(options: CreateSandboxOptions = {}): SandboxMiddleware {
  const opened = openSandbox(options);
  const engine = opened.then((made) => made.engine);
  const sandbox = opened.then((made) => made.sandbox);
  // Marked handled here: a failure to start reaches each request through next(error), and whoever awaits `sandbox`.
  for (const promise of [opened, engine, sandbox]) promise.catch(() => undefined);
  const middleware = createNodeMiddleware(engine);
  return Object.assign(middleware, {
    sandbox,
    close: async () => (await opened).sandbox.close(),
  });
}
