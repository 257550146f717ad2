/**
 * MSW handlers over a library sandbox, for the MSW-in-Node way in: one
 * `http.all` handler that gives the requests of `origin` to the sandbox's
 * fetch handler and lets every other one through (its resolver answers
 * nothing). Stands in for `sandboxHandlers` of src/msw.ts until that lands.
 */
import { http, type HttpHandler } from 'msw';
import type { PetstoreSandbox } from '../../../src/index.js';

export function mswGlue(sandbox: PetstoreSandbox, origin: string): Promise<{ handlers: HttpHandler[]; close: () => Promise<void> }> {
  const handlers = [http.all('*', ({ request }) => (new URL(request.url).origin === origin ? sandbox.handler(request) : undefined))];
  return Promise.resolve({ handlers, close: () => sandbox.close() });
}
