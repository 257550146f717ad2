/**
 * The server's listener sends a request straight to the engine's middleware
 * when `mayRouteOwn(PAGE_TARGETS, …)` says Express could not route it to the
 * pages: so it must hold for every target Express's router gives to
 * `PAGE_ROUTES`.
 */
import express from 'express';
import { describe, expect, it } from 'vitest';
import { mayRouteOwn } from '../../../src/adapters/node-middleware.js';
import { PAGE_ROUTES, PAGE_TARGETS } from '../../../src/server/pages.js';

const mayBePage = (url: string, method = 'GET') => mayRouteOwn(PAGE_TARGETS, method, url);

/** Whether Express's router, as the server mounts the pages, routes a GET of `url` to them. */
function routedToPages(url: string): Promise<boolean> {
  const app = express();
  let routed = false;
  app.get(PAGE_ROUTES, (_req, _res, next) => ((routed = true), next()));
  return new Promise((resolve) => {
    const req = { method: 'GET', url, headers: {} };
    (app.router as unknown as (req: unknown, res: unknown, done: () => void) => void)(req, {}, () => resolve(routed));
  });
}

const TARGETS = [
  '/',
  '/?x=1',
  '//',
  '///',
  '//docs',
  '/docs',
  '/DOCS/',
  '/docs/control',
  '/docs/control/',
  '/Docs/Control?tab=1',
  '/docs/openapi.json',
  '/docs/sandbox-control.json',
  '/docs/assets/app.js',
  '/docs/assets/a/b.css?v=2',
  '/docs/assets/',
  '/docsx',
  '/__sandbox/ui',
  '/__SANDBOX/UI/',
  '/__sandbox/ui/assets/console.js',
  '/__sandbox/ui/other',
  '/__sandbox/reset',
  '/v1/pets',
  '/v1/pets?limit=5',
  '/livez',
  '/metrics',
  '/nothing/here',
  '/%64ocs',
  'http://localhost:4010/docs',
  'http://localhost:4010/v1/pets',
  '*',
];

describe("the pages' targets", () => {
  it.each(TARGETS)('holds for %s when Express routes it to the pages', async (url) => {
    if (await routedToPages(url)) expect(mayBePage(url)).toBe(true);
  });

  it('sends /v1, the control plane, the probes and any but GET or HEAD past the router', () => {
    for (const url of ['/v1/pets', '/v1/pets/7?x=1', '/__sandbox/reset', '/livez', '/metrics']) expect(mayBePage(url)).toBe(false);
    expect(mayBePage('/docs', 'HEAD')).toBe(true);
    expect(mayBePage('/docs', 'POST')).toBe(false);
  });

  it('is checked against routes Express does give the pages', async () => {
    // Without this, a router that routed nothing would pass the first test.
    const routed = await Promise.all(TARGETS.map(routedToPages));
    expect(TARGETS.filter((_, i) => routed[i])).toEqual(
      expect.arrayContaining(['/', '/docs', '/DOCS/', '/docs/assets/app.js', '/__sandbox/ui', 'http://localhost:4010/docs']),
    );
  });
});
