/**
 * One engine, proven (the browser's way in): the cross-adapter
 * differential's corpus (test/integration/cross-adapter-differential.test.ts
 * sends it to Node's ways in) sent with `fetch` from a page in real
 * Chromium, where MSW's service worker hands it to the browser build of
 * `sandboxHandlers` (src/msw-browser.ts, bundled by esbuild for the browser
 * platform), and to a fresh server over HTTP; every answer (status, the
 * documented headers, body), the journals and the export must be the same.
 * Then the second corpus's sections (large control-plane bodies,
 * checkpoints and faults; proxy mode; bodies over the limits and sent
 * slowly), each to a fresh page and a fresh server made with the same
 * options, a small deployment started here for proxy mode.
 *
 * What a page cannot send as given is not sent to either: a case carrying
 * a forbidden request header (Origin, Transfer-Encoding: the browser drops
 * it or sets its own), and, as for MSW in Node, a path the engine does not
 * serve (MSW leaves it to the network by design). Nor is `Prefer`, which
 * the browser build answers 501 by design (Prism needs Node), nor what is
 * sent in proxy mode: the browser build refuses the switch to proxy with a
 * 501 (a page cannot forward), which a test of its own holds it to. A slow
 * body leaves the page as a stream of its pieces; MSW's worker reads it
 * whole before it hands it to the sandbox in the page. The
 * worker sees one header the page did not set, an `Accept` of any type when
 * none is given (Origin, User-Agent and Sec-Fetch-* are added past it, on
 * the way to the network): the answers must agree all the same.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserWay } from '../support/differential/browser-way.js';
import { control } from '../support/differential/cases.js';
import { corpus } from '../support/differential/corpus.js';
import { otherwiseInBrowser, SWITCH_TO_PROXY } from '../support/differential/proxy-cases.js';
import { against } from '../support/differential/runs.js';
import { browserSectionOptions, SECTIONS, sectionOptions } from '../support/differential/sections.js';
import { startUpstream, type Upstream } from '../support/differential/upstream.js';
import { httpWay, SANDBOX_OPTIONS } from '../support/differential/ways.js';
import { comparable } from '../support/differential/wire.js';
import { launch } from './support/browser.js';

const CORPUS = corpus();

let browser: Browser;
let upstream: Upstream;
beforeAll(async () => {
  [browser, upstream] = await Promise.all([launch(), startUpstream()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await upstream?.close();
});

describe('MSW’s service worker in Chromium answers the corpus as the server does', { timeout: 300_000 }, () => {
  it('every case a page can send', async () => {
    const { sent, differences } = await against(() => browserWay(browser, SANDBOX_OPTIONS), CORPUS);
    expect(differences).toEqual([]);
    // Origin is a header the corpus often carries, and a page cannot send it: still most cases.
    expect(sent).toBeGreaterThan(CORPUS.length / 2);
  });

  it('and the comparison notices a difference planted in the browser build (the Sunset header dropped by the fetch adapter)', async () => {
    const deprecated = CORPUS.filter((request) => request.name.startsWith('getPet'));
    const planted = {
      file: 'src/adapters/fetch.ts',
      from: 'for (const name in headers) out[name]',
      to: "for (const name in headers) if (name.toLowerCase() !== 'sunset') out[name]",
    };
    const found = (await against(() => browserWay(browser, SANDBOX_OPTIONS, planted), deprecated)).differences;
    expect(found.length).toBeGreaterThan(5);
    expect(found.every((difference) => difference.includes('"sunset: Thu, 05 Dec 2030 00:00:00 GMT"'))).toBe(true);
  });
});

describe.each(SECTIONS)('MSW’s service worker in Chromium answers the second corpus as the server does: $name', { timeout: 600_000 }, ({ cases }) => {
  it('every case the browser build takes', async () => {
    const { sent, differences } = await against(
      () => browserWay(browser, browserSectionOptions()),
      cases,
      () => httpWay(sectionOptions(upstream.url)),
    );
    expect(differences).toEqual([]);
    // Nothing left out but what proxy mode answers, and the lists of the modes on offer.
    expect(sent).toBe(cases.filter((request) => !otherwiseInBrowser(request)).length);
  });
});

describe('the browser build and proxy mode', { timeout: 120_000 }, () => {
  it('refuses the switch to proxy with a 501 not_implemented, and answers on in stateful mode', async () => {
    const way = await browserWay(browser, browserSectionOptions());
    try {
      const refused = comparable(await way.send(SWITCH_TO_PROXY));
      expect(refused.status).toBe(501);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_implemented', status: 501 });
      const mode = comparable(await way.send(control('mode', 'GET', '/mode')));
      expect(JSON.parse(mode.body)).toMatchObject({ mode: 'stateful' });
    } finally {
      await way.close();
    }
  });
});
