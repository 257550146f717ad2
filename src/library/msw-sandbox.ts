import type { HttpHandler } from 'msw';
import { mswHandlers, mswTargetOf } from '../adapters/msw.js';
import { createControlClient } from '../control/client.js';
import type { CreateSandboxOptions } from './options.js';
import { workspaceOf, type Workspace } from './workspace.js';

/** What the MSW handlers need of a sandbox in process: the Node one (`createSandbox`) and the browser's both have it. */
export interface InProcessSandbox {
  readonly handler: (request: Request) => Promise<Response>;
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** A sandbox behind MSW handlers (`petstore-sandbox/msw`). */
export interface MswSandbox {
  /** For `setupServer(...handlers)` or `setupWorker(...handlers)`: `/v1`, `/__sandbox` and the probes; every other request falls through. */
  readonly handlers: HttpHandler[];
  /** Resolves once the sandbox is made (requests wait for it anyway); rejects with the error that kept it from starting. */
  readonly ready: Promise<void>;
  /** The workspace of an API key (default the first): its typed controls, in process. */
  workspace(key?: string): Workspace;
  /** Sends a request to the sandbox in process, without MSW: a path (`'/v1/pets'`), a URL or a Request. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes the sandbox: live tails end, waiting requests and every later one are answered 503 (docs/library.md). */
  close(): Promise<void>;
}

/** What `mswSandbox` is made of: the sandbox being made, and what is known of it at once. */
export interface MswSandboxParts {
  sandbox: Promise<InProcessSandbox>;
  /** The accepted API keys (the first names the default workspace) and the control plane's token, from the checked options. */
  apiKeys: readonly string[];
  adminToken: string;
  /** Only requests to this origin are answered; default every origin. */
  origin?: string;
  /** The base paths of the APIs the sandbox serves; default the Pet Store's `/v1`. */
  bases?: readonly string[];
}

/**
 * The handlers and controls of a sandbox that is still being made: the
 * entries for Node (`src/msw.ts`) and the browser give it their sandbox, so
 * both behave alike. Everything is available at once; each request and
 * control waits for the sandbox. Nothing here needs Node.
 */
function mswSandbox(parts: MswSandboxParts): MswSandbox {
  const { sandbox, apiKeys, adminToken } = parts;
  const ready = sandbox.then(() => undefined);
  // Handled here: a failure to start reaches each request, control and whoever awaits `ready`.
  for (const promise of [sandbox, ready]) promise.catch(() => undefined);
  const fetchIn = async (input: string | URL | Request, init?: RequestInit) => (await sandbox).fetch(input, init);
  // The in-process fetch reads only a URL's path and query: this origin names nothing.
  const client = createControlClient({ origin: 'http://sandbox.invalid', adminToken, fetch: fetchIn as typeof fetch });
  return {
    handlers: mswHandlers(async (request) => (await sandbox).handler(request), { origin: parts.origin, bases: parts.bases }),
    ready,
    workspace: (key = apiKeys[0] as string) => workspaceOf(client, key),
    fetch: fetchIn,
    close: async () => (await sandbox.catch(() => undefined))?.close(),
  };
}

/** A sandbox's options, and where its handlers answer. */
export interface MswSandboxOptions extends CreateSandboxOptions {
  /**
   * Only requests to this origin (e.g. `https://api.example.test`) are
   * answered; default every origin. With a path (`https://api.example.test/api`),
   * only requests under it, which the sandbox answers without it
   * (`/api/v1/pets` as `/v1/pets`).
   */
  origin?: string;
}

/** How a platform makes its sandbox: the options checked at once (a ConfigError thrown), and the sandbox itself. */
export interface SandboxMaker<O extends CreateSandboxOptions = CreateSandboxOptions> {
  check(options: O): { apiKeys: readonly string[]; adminToken: string };
  /** The base paths the sandbox will serve its APIs under, known before it is made. */
  bases(options: O): readonly string[];
  make(options: O): Promise<InProcessSandbox>;
}

/** `sandboxHandlers(options)` of an entry (Node's or the browser's), over that platform's sandbox. */
export function sandboxHandlersOf<O extends CreateSandboxOptions>(options: O & { origin?: string }, maker: SandboxMaker<O>): MswSandbox {
  const { origin, ...rest } = options;
  const sandboxOptions = rest as unknown as O;
  // Checked before the sandbox is made: a refused origin leaves nothing running.
  if (origin !== undefined) mswTargetOf(origin);
  const { apiKeys, adminToken } = maker.check(sandboxOptions);
  return mswSandbox({ sandbox: maker.make(sandboxOptions), apiKeys, adminToken, origin, bases: maker.bases(sandboxOptions) });
}
