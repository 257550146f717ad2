import { http, type HttpHandler } from 'msw';
import { ConfigError } from '../config/error.js';
import { servesPath } from '../engine/served-paths.js';

/** Where the MSW handlers answer. */
export interface MswHandlerOptions {
  /**
   * Only requests to this origin (e.g. `https://api.example.test`); default
   * every origin. With a path (`https://api.example.test/api`), only requests
   * under it, which reach the sandbox without it (`/api/v1/pets` as `/v1/pets`).
   */
  origin?: string;
  /** The base paths of the APIs the sandbox serves. Default `['/v1']`, the Pet Store's. */
  bases?: readonly string[];
}

/** A fetch handler; `undefined` leaves the request to the next MSW handler or the network. */
export type MswFetchHandler = (request: Request) => Promise<Response | undefined>;

/** Where the handlers answer: an origin, and the path the sandbox is mounted at ('' for the root). */
export interface MswTarget {
  origin: string;
  prefix: string;
}

/**
 * The `origin` option read, or a ConfigError naming it: an http(s) address,
 * with a path the sandbox is mounted at but no query, fragment or credentials.
 */
export function mswTargetOf(origin: string): MswTarget {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const plain = url !== undefined && !url.search && !url.hash && !url.username && !url.password;
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || !plain)
    throw new ConfigError(
      `origin must be an http(s) address such as https://api.example.test (a path, as in https://api.example.test/api, is where the sandbox answers), without query or credentials; got '${origin}'`,
    );
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/** The path and query the sandbox is asked for, or undefined for a request it leaves alone. */
function servedTarget(url: URL, target: MswTarget | undefined, bases?: readonly string[]): string | undefined {
  if (target !== undefined && url.origin !== target.origin) return undefined;
  const prefix = target?.prefix ?? '';
  if (prefix !== '' && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  const path = url.pathname.slice(prefix.length) + url.search;
  return servesPath(path, bases) ? path : undefined;
}

/**
 * The request as the sandbox sees it, its mount path taken off. Its body is
 * passed as bytes: a stream needs `duplex`, which not every browser takes,
 * and MSW holds the body in memory anyway (the page's worker sends it whole).
 */
async function rebased(request: Request, path: string): Promise<Request> {
  const bodiless = request.method === 'GET' || request.method === 'HEAD' || request.body === null;
  const body = bodiless ? undefined : await request.clone().arrayBuffer();
  return new Request(new URL(path, request.url), { method: request.method, headers: request.headers, body, signal: request.signal });
}

/**
 * The engine as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser): one `http.all` handler that gives the requests
 * it serves (`/v1`, `/__sandbox`, the probes, at `origin` and under its path
 * if given) to `handler`. The choice is made in the handler's predicate, not
 * its resolver, so that MSW sees every other request as unhandled: it goes to
 * the next handler, then to the network or to `onUnhandledFrame`, exactly as
 * if the sandbox were not there. Nothing here needs Node. Throws a
 * ConfigError for an `origin` that is no http(s) address.
 */
export function mswHandlers(handler: MswFetchHandler, options: MswHandlerOptions = {}): HttpHandler[] {
  // Read once: `https://API.example.test/` and `https://api.example.test` are one origin.
  const target = options.origin === undefined ? undefined : mswTargetOf(options.origin);
  const { bases } = options;
  const serves = ({ request }: { request: Request }): boolean => servedTarget(new URL(request.url), target, bases) !== undefined;
  // An `undefined` answer falls through: MSW tries the next handler, then lets the request go.
  return [
    http.all(serves, async ({ request }) => {
      const path = target?.prefix ? servedTarget(new URL(request.url), target, bases) : undefined;
      return (await handler(path === undefined ? request : await rebased(request, path))) ?? undefined;
    }),
  ];
}
