import { http, type HttpHandler } from 'msw';
import { servesPath } from '../engine/served-paths.js';

/** Where the MSW handlers answer. */
export interface MswHandlerOptions {
  /** Only requests to this origin (e.g. `https://api.example.test`); default every origin. */
  origin?: string;
}

/** A fetch handler; `undefined` leaves the request to the next MSW handler or the network. */
export type MswFetchHandler = (request: Request) => Promise<Response | undefined>;

/**
 * The engine as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser): one `http.all` handler that gives the requests
 * it serves (`/v1`, `/__sandbox`, the probes, at `origin` if given) to
 * `handler`. The choice is made in the handler's predicate, not its
 * resolver, so that MSW sees every other request as unhandled: it goes to
 * the next handler, then to the network or to `onUnhandledFrame`, exactly as
 * if the sandbox were not there. Nothing here needs Node.
 */
export function mswHandlers(handler: MswFetchHandler, options: MswHandlerOptions = {}): HttpHandler[] {
  // Normalised once: `https://API.example.test/` and `https://api.example.test` are one origin.
  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  const serves = ({ request }: { request: Request }): boolean => {
    const url = new URL(request.url);
    return (origin === undefined || url.origin === origin) && servesPath(url.pathname + url.search);
  };
  // An `undefined` answer falls through: MSW tries the next handler, then lets the request go.
  return [http.all(serves, async ({ request }) => (await handler(request)) ?? undefined)];
}
