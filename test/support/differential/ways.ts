/**
 * The ways in of the cross-adapter differential that run in Node, each on a
 * fresh sandbox of its own made with the same options: the server over HTTP
 * (a real listener, asked with node:http so that headers and body bytes go
 * out exactly as given), the in-process fetch handler
 * (`createSandbox().handler`, given a Request), the library's `sandbox.fetch`
 * (given a path and a RequestInit: a text or bytes body reaches the engine
 * without a WHATWG Request), MSW in Node (`setupServer`, asked with the
 * global fetch that MSW intercepts), and the Connect middleware mounted in an
 * Express app (`petstoreSandbox()`, asked with node:http as the server is).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { setupServer } from 'msw/node';
import { servesPath } from '../../../src/engine/served-paths.js';
import { specSources } from '../../../src/library/option-values.js';
import { basesOf } from '../../../src/server/served-specs.js';
import { petstoreSandbox } from '../../../src/middleware.js';
import { sandboxHandlers } from '../../../src/msw.js';
import { createSandbox, type PetstoreSandbox } from '../../../src/index.js';
import { libraryStore, startTestSandbox } from '../harness.js';
import { UNSENDABLE } from './corpus.js';
import { initOf, sendOverHttp } from './send.js';
import { rawOf, type RawAnswer, type WireRequest } from './wire.js';

/** What every way's sandbox is made with: `createSandbox`'s seed and count, and other flags by name. */
export interface SandboxOptions {
  readonly seed: number;
  readonly count: number;
  readonly options: Readonly<Record<string, string | number>>;
  /** Specs served by convention instead of the Pet Store (`--spec`, `createSandbox({ spec })`). */
  readonly spec?: readonly string[];
}

/** The first corpus's options: the seed and count, a journal that keeps the whole corpus, a quota the corpus reaches. */
export const SANDBOX_OPTIONS: SandboxOptions = { seed: 1, count: 30, options: { 'journal-size': 1000, 'quota-pets': 150 } };

/** The same options, as the command line takes them. */
export const argsOf = (options: SandboxOptions): string[] => [
  ...['--seed', String(options.seed), '--count', String(options.count)],
  ...Object.entries(options.options).flatMap(([name, value]) => [`--${name}`, String(value)]),
  ...(options.spec ?? []).flatMap((file) => ['--spec', file]),
];

/** Whether the engine made with `options` serves a target: under its specs' base paths (else /v1), or the control plane. */
const servedBy = (options: SandboxOptions) => {
  const bases = options.spec ? basesOf(specSources([...options.spec])) : undefined;
  return (request: WireRequest) => servesPath(request.target, bases);
};

/** One way in: how a request of the corpus is sent, and a fetch over the same way for the control plane's typed client. */
export interface Way {
  readonly name: string;
  /** Header names it cannot send as given (UNSENDABLE in corpus.ts): the cases with one are not sent to it. */
  readonly refuses?: ReadonlySet<string>;
  /**
   * The cases it takes, if not all: MSW's handlers and the middleware take
   * only what the engine serves (`servesPath`) and leave the rest to the
   * network or the app, by design.
   */
  readonly takes?: (request: WireRequest) => boolean;
  /** Where the way's fetch sends `/__sandbox` (nothing listens there for the in-process ways). */
  readonly origin: string;
  send(request: WireRequest): Promise<RawAnswer>;
  readonly fetch: typeof fetch;
  close(): Promise<void>;
}

/** Opens a way on a fresh sandbox made with `options`. */
export type OpenWay = (options: SandboxOptions) => Promise<Way>;

/** The server over HTTP, on the run's store. */
export async function httpWay(options: SandboxOptions = SANDBOX_OPTIONS): Promise<Way> {
  const server = await startTestSandbox(argsOf(options));
  return {
    name: 'server over HTTP',
    origin: server.origin,
    send: (wire) => sendOverHttp(server.origin, wire),
    fetch: globalThis.fetch,
    close: () => server.stop(),
  };
}

/** A library sandbox on the run's store. */
const librarySandbox = async (options: SandboxOptions): Promise<PetstoreSandbox> => createSandbox({ ...options, store: await libraryStore() });

/** Where the in-process ways' URLs point: only their path and query are read. */
const IN_PROCESS = 'http://sandbox.test';

/** The in-process fetch handler, given a Request; on `sandbox` if given (a planted difference brings its own). */
export async function handlerWay(options: SandboxOptions = SANDBOX_OPTIONS, sandbox?: PetstoreSandbox): Promise<Way> {
  const library = sandbox ?? (await librarySandbox(options));
  const fetchOver = ((input: string | URL | Request, init?: RequestInit) => library.handler(new Request(input, init))) as typeof fetch;
  return {
    name: 'in-process fetch handler',
    origin: IN_PROCESS,
    send: async (wire) => rawOf(await fetchOver(new URL(wire.target, IN_PROCESS), initOf(wire))),
    fetch: fetchOver,
    close: () => library.close(),
  };
}

/** The library's `sandbox.fetch`, given the target as a path and a RequestInit, as a test suite calls it. */
export async function sandboxFetchWay(options: SandboxOptions = SANDBOX_OPTIONS): Promise<Way> {
  const library = await librarySandbox(options);
  return {
    name: 'library sandbox.fetch',
    origin: IN_PROCESS,
    send: async (wire) => rawOf(await library.fetch(wire.target, initOf(wire))),
    fetch: library.fetch as typeof fetch,
    close: () => library.close(),
  };
}

/**
 * MSW in Node: `setupServer` with `sandboxHandlers` (petstore-sandbox/msw)
 * for one origin, asked with the global fetch. Listens until closed, and
 * lets every other request through to the network, so nothing else is
 * intercepted meanwhile.
 */
export async function mswNodeWay(options: SandboxOptions = SANDBOX_OPTIONS): Promise<Way> {
  const origin = 'http://api.sandbox.test';
  const sandbox = sandboxHandlers({ ...options, store: await libraryStore(), origin });
  await sandbox.ready;
  const server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledFrame: 'bypass' });
  const fetchVia = ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init)) as typeof fetch;
  return {
    name: 'MSW in Node',
    refuses: UNSENDABLE.nodeFetch,
    takes: servedBy(options),
    origin,
    send: async (wire) => rawOf(await fetchVia(new URL(wire.target, origin), initOf(wire))),
    fetch: fetchVia,
    close: async () => {
      server.close();
      await sandbox.close();
    },
  };
}

/** Where the middleware is mounted in the app, as docs/library.md shows it: the corpus's targets are sent under it. */
const MOUNT = '/api';

/**
 * The Connect middleware (`petstoreSandbox()`, petstore-sandbox/middleware)
 * mounted under MOUNT in an Express app of its own, listening on 127.0.0.1,
 * asked with node:http. Every other request goes on to the app (Express's
 * own 404), by design: it takes only what the engine serves.
 */
export async function middlewareWay(options: SandboxOptions = SANDBOX_OPTIONS): Promise<Way> {
  const middleware = petstoreSandbox({ ...options, store: await libraryStore() });
  const app = express();
  app.use(MOUNT, middleware);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    name: 'middleware in Express',
    takes: servedBy(options),
    origin: origin + MOUNT,
    send: (wire) => sendOverHttp(origin, wire, MOUNT),
    fetch: globalThis.fetch,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await middleware.close();
    },
  };
}

/** Every way in that runs in Node, the reference first. */
export const NODE_WAYS: readonly OpenWay[] = [httpWay, handlerWay, sandboxFetchWay, mswNodeWay, middlewareWay];
