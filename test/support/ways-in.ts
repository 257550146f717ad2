/**
 * Every way into a library sandbox, opened the same way for a test: the
 * library's `fetch` and its workspace controls, `createSandbox` listening,
 * its fetch handler, MSW's `setupServer` over `sandboxHandlers`, and the
 * Connect middleware in an Express app of its own on 127.0.0.1. Each gives
 * a live journal tail and a /v1 request through itself, and its `close()`.
 * No Vitest here: a child process uses it too.
 */
import express from 'express';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { createSandbox, type CreateSandboxOptions, type PetstoreSandbox } from '../../src/index.js';
import { petstoreSandbox } from '../../src/middleware.js';
import { sandboxHandlers } from '../../src/msw.js';
import type { Workspace } from '../../src/library/workspace.js';
import type { ServerSentEvent } from '../../src/control/sse.js';

export const KEY = 'sandbox-key';
const ADMIN = { authorization: 'Bearer sandbox-admin' };
const AUTH = { authorization: `Bearer ${KEY}` };
export const STREAM = '/__sandbox/journal/stream';
/** Where the MSW handlers answer. */
const MSW_ORIGIN = 'https://api.close.test';

/** An answer whose head has come: its status, and its body once the stream or text has ended. */
export interface Opened {
  status: number;
  ended: Promise<string>;
  /** Leaves before the end: the connection dropped, or the body cancelled. */
  leave?: () => void;
}

/** One way in, open: a live tail and a /v1 request through it, the workspace's controls, and its close. */
export interface OpenWay {
  workspace: Workspace;
  /** `GET /__sandbox/journal/stream` (or the workspace's `follow()`) through this way in, once its head has come. */
  stream(): Promise<Opened>;
  /** `GET path` with the API key through this way in. */
  send(path: string): Promise<Opened>;
  /** The way in's close, and then whatever the test itself opened for it (the host's server, MSW's interception). */
  close(): Promise<void>;
}

export type WayName = 'createSandbox' | 'createSandbox listening' | 'sandbox.fetch' | 'handler' | 'msw' | 'middleware';
export const WAY_NAMES: readonly WayName[] = ['createSandbox', 'createSandbox listening', 'sandbox.fetch', 'handler', 'msw', 'middleware'];

/** A fetch Response as an opened answer. */
const opened = async (res: Promise<Response>): Promise<Opened> => {
  const answer = await res;
  return { status: answer.status, ended: answer.text() };
};

/** `follow()`'s events as an opened answer: open once its first event came, ended once the iteration ends. */
async function followed(events: AsyncIterable<ServerSentEvent>): Promise<Opened> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  const ended = (async () => {
    let count = 0;
    while (!(await iterator.next()).done) count += 1;
    return `${count} more events`;
  })();
  return { status: first.done ? 0 : 200, ended };
}

/** A GET over its own connection (no agent: nothing is kept alive), open once its head has come. */
export function httpGet(url: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const ended = new Promise<string>((done, fail) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(text));
        res.on('error', fail);
      });
      ended.catch(() => undefined);
      resolve({ status: res.statusCode ?? 0, ended, leave: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A library sandbox reached in process: its tail through `follow()`, its `fetch` or its fetch handler. */
function inProcess(sandbox: PetstoreSandbox, via: 'follow' | 'fetch' | 'handler'): OpenWay {
  const fetchIn = (path: string, headers: Record<string, string>) =>
    via === 'handler' ? sandbox.handler(new Request(`http://app.test${path}`, { headers })) : sandbox.fetch(path, { headers });
  const workspace = sandbox.workspace();
  return {
    workspace,
    stream: () => (via === 'follow' ? followed(workspace.journal.follow()) : opened(fetchIn(STREAM, ADMIN))),
    send: (path) => opened(fetchIn(path, AUTH)),
    close: () => sandbox.close(),
  };
}

/** An Express app of the test's own on 127.0.0.1, its origin. */
async function host(app: express.Express): Promise<{ server: Server; origin: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Opens `name` on a sandbox made with `options`. */
export async function openWay(name: WayName, options: CreateSandboxOptions = {}): Promise<OpenWay> {
  if (name === 'createSandbox') return inProcess(await createSandbox(options), 'follow');
  if (name === 'sandbox.fetch') return inProcess(await createSandbox(options), 'fetch');
  if (name === 'handler') return inProcess(await createSandbox(options), 'handler');
  if (name === 'createSandbox listening') {
    const sandbox = await createSandbox({ ...options, port: 0 });
    const origin = sandbox.url as string;
    return { ...inProcess(sandbox, 'fetch'), stream: () => httpGet(`${origin}${STREAM}`, ADMIN), send: (path) => httpGet(`${origin}${path}`, AUTH) };
  }
  if (name === 'msw') {
    const msw = sandboxHandlers({ ...options, origin: MSW_ORIGIN });
    const server = setupServer(...msw.handlers);
    server.listen({ onUnhandledFrame: 'bypass' });
    await msw.ready;
    return {
      workspace: msw.workspace(),
      stream: () => opened(fetch(`${MSW_ORIGIN}${STREAM}`, { headers: ADMIN })),
      send: (path) => opened(fetch(`${MSW_ORIGIN}${path}`, { headers: AUTH })),
      close: async () => {
        await msw.close();
        server.close();
      },
    };
  }
  const middleware = petstoreSandbox(options);
  const app = express();
  app.use(middleware);
  const { server, origin } = await host(app);
  return {
    workspace: (await middleware.sandbox).workspace(),
    stream: () => httpGet(`${origin}${STREAM}`, ADMIN),
    send: (path) => httpGet(`${origin}${path}`, AUTH),
    close: async () => {
      await middleware.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Resolves with `promise`'s value, or rejects naming `what` once `ms` has passed (its timer cleared either way). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until the workspace's first fault has been applied once: its request is then held in the fault's delay. */
export async function heldInDelay(workspace: Workspace, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const [fault] = (await workspace.faults.list()).faults;
    if ((fault?.applied ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error('the delayed request never reached its fault');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
