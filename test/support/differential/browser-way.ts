/**
 * The way in through MSW's service worker in real Chromium: a small static
 * server on 127.0.0.1 serves a page, MSW's own `mockServiceWorker.js` and a
 * bundle (esbuild, platform browser) of `setupWorker` with the browser
 * build's `sandboxHandlers` (src/msw-browser.ts); each request of the
 * corpus is sent with `fetch` in the page, which the worker hands to the
 * sandbox in the page. Anything else the static server is asked answers
 * 599, so a request the worker let through shows as a difference.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { browserSwaps } from '../../../scripts/browser-bundle.mjs';
import type { Browser, Page } from 'playwright-core';
import { servesPath } from '../../../src/engine/served-paths.js';
import { patching, type SourcePatch } from '../bundle.js';
import { ROOT } from '../spawn.js';
import { UNSENDABLE } from './corpus.js';
import { otherwiseInBrowser } from './proxy-cases.js';
import type { Way } from './ways.js';
import type { RawAnswer, WireRequest } from './wire.js';

/**
 * The page's script: the sandbox's handlers in MSW's worker, started before
 * the page says it is ready; and the corpus's body builders (bodies.ts), for
 * a bulk body made in the page and a slow body sent from it.
 */
const ENTRY = (options: object) => `
import { setupWorker } from 'msw/browser';
import { sandboxHandlers } from './src/msw-browser.ts';
import { expandBulk, slowStream } from './test/support/differential/bodies.ts';
globalThis.differentialBodies = { expandBulk, slowStream };
const sandbox = sandboxHandlers(${JSON.stringify(options)});
await sandbox.ready;
await setupWorker(...sandbox.handlers).start({ quiet: true, onUnhandledFrame: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
document.title = 'ready';
`;

const PAGE = '<!doctype html><html lang="en"><head><title>starting</title><script type="module" src="/page.js"></script></head><body></body></html>';

/**
 * The page bundle: esbuild for the browser platform with the browser
 * build's own swaps (scripts/browser-bundle.mjs: the specs and fixture sets
 * embedded), MSW included; a source file changed on the way if `patch` is given.
 */
export async function bundle(options: object, patch?: SourcePatch): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRY(options), resolveDir: ROOT, sourcefile: 'differential-page.ts', loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [...(patch ? [patching(patch)] : []), browserSwaps(ROOT)],
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Serves the page, its script and MSW's worker script on 127.0.0.1, any port. */
export async function staticServer(script: string): Promise<Server> {
  const worker = readFileSync(`${ROOT}node_modules/msw/lib/mockServiceWorker.js`, 'utf8');
  const files: Record<string, [string, string]> = {
    '/': ['text/html', PAGE],
    '/page.js': ['text/javascript', script],
    '/mockServiceWorker.js': ['text/javascript', worker],
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    res.writeHead(file ? 200 : 599, { 'content-type': file?.[0] ?? 'text/plain' }).end(file?.[1] ?? 'not intercepted');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** What the page's script exposes of bodies.ts. */
interface PageBodies {
  expandBulk(bulk: NonNullable<WireRequest['bulk']>): string;
  slowStream(bytes: Uint8Array, slow: NonNullable<WireRequest['slow']>): ReadableStream<Uint8Array>;
}

/**
 * Sends one request with the page's fetch (run in the page: no DOM types
 * needed): a bulk body made there, a slow one as a stream of its pieces.
 */
async function sendInPage(wire: WireRequest): Promise<RawAnswer> {
  const bodies = (globalThis as unknown as { differentialBodies: PageBodies }).differentialBodies;
  const bytes =
    wire.bulk ? new TextEncoder().encode(bodies.expandBulk(wire.bulk))
    : wire.body === undefined ? undefined
    : Uint8Array.from(atob(wire.body), (c) => c.charCodeAt(0));
  const body =
    bytes && wire.slow ? { body: bodies.slowStream(bytes, wire.slow), duplex: 'half' }
    : bytes ? { body: bytes }
    : {};
  const response = await fetch(wire.target, { method: wire.method, headers: wire.headers, ...body } as RequestInit);
  const answer = new Uint8Array(await response.arrayBuffer());
  let binary = '';
  for (let at = 0; at < answer.length; at += 0x8000) binary += String.fromCharCode(...answer.subarray(at, at + 0x8000));
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  return { status: response.status, headers, body: btoa(binary) };
}

/**
 * What the browser build answers as the server does, by design: a path the
 * engine serves (as MSW in Node), without `Prefer` (answered 501: Prism,
 * which answers it elsewhere, needs Node), not in Brotli (refused 415: a
 * browser has no Brotli decoder), and not proxy mode's: the switch to proxy
 * is refused 501 (a page cannot forward), so what is sent after it is
 * answered from the store (the browser test holds the 501 to itself), and
 * it offers only the modes it can answer in (its lists of them differ).
 * docs/test-runners.md says so.
 */
const browserBuildTakes = (request: WireRequest): boolean =>
  servesPath(request.target) && !('prefer' in request.headers) && request.headers['content-encoding'] !== 'br' && !otherwiseInBrowser(request);

/** Opens the page in a fresh context of `browser` and waits until MSW's worker controls it. */
export async function openPage(browser: Browser, origin: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/`);
  // A string, run in the page: these tests are type-checked without the DOM's types.
  await page.waitForFunction("document.title === 'ready' && navigator.serviceWorker.controller !== null", undefined, { timeout: 60_000 });
  return page;
}

/** The way in through MSW's service worker, on a sandbox made in the page with `options` (and its source changed by `patch`, to plant a difference). */
export async function browserWay(browser: Browser, options: object, patch?: SourcePatch): Promise<Way> {
  const server = await staticServer(await bundle(options, patch));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const page = await openPage(browser, origin);
  // Every answer must come from MSW's worker, not from MSW patching the page's fetch (its fallback) nor the network.
  const past: string[] = [];
  page.on('response', (response) => {
    if (!response.fromServiceWorker()) past.push(response.url());
  });
  const send = async (wire: WireRequest) => {
    const answer = await page.evaluate(sendInPage, wire);
    if (past.length > 0) throw new Error(`answered past MSW's service worker: ${past.join(', ')}`);
    return answer;
  };
  // The control plane's typed client, its requests sent through the page too.
  const fetchVia = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()).toString('base64') : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const raw = await send({ name: 'control', method: request.method, target: url.pathname + url.search, headers, ...(body ? { body } : {}) });
    return new Response(raw.status === 204 ? null : Buffer.from(raw.body, 'base64'), { status: raw.status, headers: raw.headers });
  }) as typeof fetch;
  return {
    name: 'MSW service worker in Chromium',
    refuses: UNSENDABLE.page,
    takes: browserBuildTakes,
    origin,
    send,
    fetch: fetchVia,
    close: async () => {
      await page.context().close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
