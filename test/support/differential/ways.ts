/**
 * The ways in of the cross-adapter differential that run in Node, each on a
 * fresh sandbox of its own made with the same options: the server over HTTP
 * (a real listener, asked with node:http so that headers and body bytes go
 * out exactly as given), the in-process fetch handler
 * (`createSandbox().handler`), and MSW in Node (`setupServer`, asked with the
 * global fetch that MSW intercepts).
 */
import { request as httpRequest } from 'node:http';
import { setupServer } from 'msw/node';
import { servesPath } from '../../../src/core/served-paths.js';
import { sandboxHandlers } from '../../../src/msw.js';
import { createSandbox, type PetstoreSandbox } from '../../../src/index.js';
import { libraryStore, startTestSandbox } from '../harness.js';
import { UNSENDABLE } from './corpus.js';
import { bodyBytes, rawOf, type RawAnswer, type WireRequest } from './wire.js';

/** The options every way's sandbox is made with: the seed and count, a journal that keeps the whole corpus, a quota the corpus reaches. */
export const SANDBOX_OPTIONS = { seed: 1, count: 30, options: { 'journal-size': 1000, 'quota-pets': 150 } } as const;
/** The same, as the command line takes them. */
export const SANDBOX_ARGS = ['--seed', '1', '--count', '30', '--journal-size', '1000', '--quota-pets', '150'];

/** One way in: how a request of the corpus is sent, and a fetch over the same way for the control plane's typed client. */
export interface Way {
  readonly name: string;
  /** Header names it cannot send as given (UNSENDABLE in corpus.ts): the cases with one are not sent to it. */
  readonly refuses?: ReadonlySet<string>;
  /**
   * The cases it takes, if not all: MSW's handlers take only what the engine
   * serves (`servesPath`) and leave the rest to the network, by design.
   */
  readonly takes?: (request: WireRequest) => boolean;
  /** Where the way's fetch sends `/__sandbox` (nothing listens there for the in-process ways). */
  readonly origin: string;
  send(request: WireRequest): Promise<RawAnswer>;
  readonly fetch: typeof fetch;
  close(): Promise<void>;
}

const initOf = (request: WireRequest): RequestInit => {
  const body = bodyBytes(request);
  return { method: request.method, headers: request.headers, ...(body ? { body } : {}) };
};

/** The server over HTTP, on the run's store. */
export async function httpWay(): Promise<Way> {
  const server = await startTestSandbox(SANDBOX_ARGS);
  const { hostname, port } = new URL(server.origin);
  const send = (wire: WireRequest) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const req = httpRequest({ hostname, port, method: wire.method, path: wire.target, headers: wire.headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
        });
      });
      req.on('error', reject);
      req.end(bodyBytes(wire));
    });
  return { name: 'server over HTTP', origin: server.origin, send, fetch: globalThis.fetch, close: () => server.stop() };
}

/** A library sandbox on the run's store. */
const librarySandbox = async (): Promise<PetstoreSandbox> => createSandbox({ ...SANDBOX_OPTIONS, store: await libraryStore() });

/** The in-process fetch handler, given a Request. */
export async function handlerWay(sandbox?: PetstoreSandbox): Promise<Way> {
  const library = sandbox ?? (await librarySandbox());
  const origin = 'http://sandbox.test';
  const fetchOver = ((input: string | URL | Request, init?: RequestInit) => library.handler(new Request(input, init))) as typeof fetch;
  return {
    name: 'in-process fetch handler',
    origin,
    send: async (wire) => rawOf(await fetchOver(new URL(wire.target, origin), initOf(wire))),
    fetch: fetchOver,
    close: () => library.close(),
  };
}

/**
 * MSW in Node: `setupServer` with `sandboxHandlers` (petstore-sandbox/msw)
 * for one origin, asked with the global fetch. Listens until closed, and
 * lets every other request through to the network, so nothing else is
 * intercepted meanwhile.
 */
export async function mswNodeWay(): Promise<Way> {
  const origin = 'http://api.sandbox.test';
  const sandbox = sandboxHandlers({ ...SANDBOX_OPTIONS, store: await libraryStore(), origin });
  await sandbox.ready;
  const server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledFrame: 'bypass' });
  const fetchVia = ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init)) as typeof fetch;
  return {
    name: 'MSW in Node',
    refuses: UNSENDABLE.nodeFetch,
    takes: (request) => servesPath(request.target),
    origin,
    send: async (wire) => rawOf(await fetchVia(new URL(wire.target, origin), initOf(wire))),
    fetch: fetchVia,
    close: async () => {
      server.close();
      await sandbox.close();
    },
  };
}
