/**
 * The page's API calls sent to the sandbox: `page.route` catches each call
 * to the app's API, sends it to the sandbox's /v1 with the worker's key in
 * place of the app's own, and answers the page with what the sandbox
 * answered. The app under test keeps its configuration; only the
 * Authorization header and the origin change on the way.
 */
import type { BrowserContext, Page, Route } from '@playwright/test';

/** Which of the page's requests are API calls. */
export interface RouteOptions {
  /**
   * The app's API base URL, whose paths are /v1's (`'https://app.example/api/v1'`:
   * `…/api/v1/pets?limit=2` goes to the sandbox's `/v1/pets?limit=2`); or a
   * glob or RegExp of the calls, each sent to the sandbox from the first `/v1`
   * segment of its path on. Default `'**\/v1/**'`.
   */
  api?: string | RegExp;
}

/** Where the calls go: the sandbox's origin, and the key they carry. */
export interface RouteTarget {
  url: string;
  key: string;
}

const DEFAULT_API = '**/v1/**';
/** A base URL, as opposed to a glob: an absolute URL without glob characters. */
const isBaseUrl = (api: string | RegExp): api is string => typeof api === 'string' && /^https?:\/\//.test(api) && !/[*?{}[\]]/.test(api);
/** The first `/v1` segment of a path: /v1's root, or anything under it. */
const V1_SEGMENT = /\/v1(?=\/|$)/;

/** The request under `base` (a base URL without its trailing slash): its path and query after it, or undefined. */
function underBase(requestUrl: string, base: string): string | undefined {
  if (!requestUrl.startsWith(base)) return undefined;
  const rest = requestUrl.slice(base.length);
  return rest === '' || /^[/?]/.test(rest) ? rest : undefined;
}

/** The sandbox's target of a caught call (`/v1/…` with its query), or undefined when it is not an API call. */
export function sandboxTarget(requestUrl: string, api: string | RegExp): string | undefined {
  if (isBaseUrl(api)) {
    const rest = underBase(requestUrl, api.replace(/\/+$/, ''));
    return rest === undefined ? undefined : `/v1${rest}`;
  }
  const url = new URL(requestUrl);
  const segment = V1_SEGMENT.exec(url.pathname);
  return segment === null ? undefined : url.pathname.slice(segment.index) + url.search;
}

/** Answers one caught call from the sandbox, with `target.key` as its credential. */
async function forward(route: Route, path: string, target: RouteTarget): Promise<void> {
  const headers: Record<string, string> = { ...route.request().headers(), authorization: `Bearer ${target.key}` };
  delete headers.host;
  const response = await route.fetch({ url: `${target.url}${path}`, headers, maxRedirects: 0 });
  await route.fulfill({ response });
}

/**
 * Routes the API calls of `page` (or of every page of a browser context) to
 * the sandbox at `target.url`, each with `target.key`. Playwright answers
 * the browser's CORS preflight of a routed call itself; the sandbox's
 * answer carries its CORS headers (any origin by default).
 */
export async function routeToSandbox(page: Page | BrowserContext, target: RouteTarget, options: RouteOptions = {}): Promise<void> {
  const api = options.api ?? DEFAULT_API;
  const base = isBaseUrl(api) ? api.replace(/\/+$/, '') : undefined;
  const matches = base === undefined ? api : (url: URL) => underBase(url.href, base) !== undefined;
  await page.route(matches, async (route) => {
    const path = sandboxTarget(route.request().url(), api);
    if (path === undefined) return route.fallback();
    return forward(route, path, target);
  });
}
