/**
 * One engine, proven (Node's ways in): one corpus (the fast path's
 * differential generators, sampled with a fixed seed, then every error case
 * of the interface: test/support/differential/) goes to the server over
 * HTTP, to the in-process fetch handler, to the library's `sandbox.fetch`,
 * to MSW in Node and to the middleware in an Express app, each a fresh
 * sandbox made with the same options, and every answer must be the same
 * byte for byte (status, the documented headers, body), and so must each
 * way's journals and export after the corpus. A way that cannot send some
 * cases as given (Node's fetch refuses Transfer-Encoding), or leaves some
 * to the network by design (MSW's handlers and the middleware take only
 * what the engine serves), is compared with a server run on exactly the
 * cases it takes.
 *
 * A second corpus needs options of its own (no pet quota; a deployment for
 * proxy mode, started here): in sections, each sent to a fresh sandbox of
 * every way, against one run of the server per section: fixture sets of
 * 300 KB and 60 MB, checkpoints and faults; proxy mode; bodies over the
 * limits and bodies sent slowly. The way through MSW's service worker in
 * Chromium is test/browser/cross-adapter-differential.test.ts.
 *
 * A third corpus is sent to an API served by convention (the inventory of
 * test/specs/inventory-v2.yaml at /api/v2: spec-cases.ts), every way alike.
 *
 * The ways run one after another: while MSW's setupServer listens it
 * intercepts the process's fetch and node:http, so nothing else runs then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimedStatus, corpus, sent } from '../support/differential/corpus.js';
import { differences } from '../support/differential/compare.js';
import { twinsOf } from '../support/differential/body-cases.js';
import { v1LimitEverywhereWay, withoutRefusalWay, withoutViolationsWay } from '../support/differential/planted.js';
import { answeredInProxyMode } from '../support/differential/proxy-cases.js';
import { against, againstRun, runWay, type RunOf } from '../support/differential/runs.js';
import { CONTROL_SECTION, PROXY_SECTION, SECTIONS, sectionOptions } from '../support/differential/sections.js';
import { normaliseMade, specCases, SPEC_OPTIONS } from '../support/differential/spec-cases.js';
import { startUpstream, type Upstream } from '../support/differential/upstream.js';
import { handlerWay, httpWay, middlewareWay, mswNodeWay, SANDBOX_OPTIONS, sandboxFetchWay, type OpenWay } from '../support/differential/ways.js';
import type { WireRequest } from '../support/differential/wire.js';
import { createSandbox } from '../../src/index.js';
import { KEY, libraryStore } from '../support/harness.js';

const CORPUS = corpus();

/** Each case whose name claims a status (claimedStatus), with the status it claims. */
const claimed = (cases: readonly WireRequest[]): string[] =>
  cases.flatMap((request) => (claimedStatus(request.name) === undefined ? [] : [`${request.name}: ${claimedStatus(request.name)}`]));

/** The same cases, with the status `reference` answered them. */
const answered = (cases: readonly WireRequest[], reference: RunOf): string[] =>
  cases.flatMap((request, i) => (claimedStatus(request.name) === undefined ? [] : [`${request.name}: ${reference.run.answers[i]?.status}`]));

/** The deployment proxy mode's cases forward to (upstream.ts), for the second corpus. */
let upstream: Upstream;
beforeAll(async () => (upstream = await startUpstream()));
afterAll(() => upstream?.close());

describe('every way in answers the corpus alike', { timeout: 180_000 }, () => {
  it('the server over HTTP, the reference, meets every case it is meant to', async () => {
    const reference = await runWay(httpWay, CORPUS);
    const statuses = new Set(reference.run.answers.map((a) => a.status));
    // Every status an error of the interface has when a request alone can provoke it (the corpus's note says which cannot).
    for (const status of [200, 201, 400, 401, 403, 404, 405, 409, 413, 415, 500, 501, 502, 503, 504, 507]) expect(statuses).toContain(status);
    expect(reference.run.answers.filter((a) => a.status === 201).length).toBeGreaterThan(20);
    // Each error case provokes the status its name says.
    expect(claimed(CORPUS).length).toBeGreaterThan(60);
    expect(answered(CORPUS, reference)).toEqual(claimed(CORPUS));
  });

  it('the in-process fetch handler, on every case', async () => {
    expect(await against(handlerWay, CORPUS)).toEqual({ sent: CORPUS.length, differences: [] });
  });

  it('the library’s sandbox.fetch (a path and a RequestInit), on every case', async () => {
    expect(await against(sandboxFetchWay, CORPUS)).toEqual({ sent: CORPUS.length, differences: [] });
  });

  it('MSW in Node (setupServer), on every case Node’s fetch can send to a path the engine serves', async () => {
    const { sent, differences } = await against(mswNodeWay, CORPUS);
    expect(differences).toEqual([]);
    expect(sent).toBeGreaterThan(CORPUS.length * 0.8);
  });

  it('the middleware in an Express app, on every case to a path the engine serves', async () => {
    const { sent, differences } = await against(middlewareWay, CORPUS);
    expect(differences).toEqual([]);
    expect(sent).toBeGreaterThan(CORPUS.length * 0.8);
  });

  it('and the comparison notices a planted difference in an adapter', async () => {
    const found = (await against(() => withoutRefusalWay(SANDBOX_OPTIONS), CORPUS)).differences;
    expect(found.filter((difference) => difference.startsWith('journal')).length, found.join('\n')).toBe(1);
  });
});

const OTHER_WAYS: [string, OpenWay][] = [
  ['the in-process fetch handler', handlerWay],
  ['the library’s sandbox.fetch', sandboxFetchWay],
  ['MSW in Node', mswNodeWay],
  ['the middleware in an Express app', middlewareWay],
];

describe.each(SECTIONS)('every way in answers the second corpus alike: $name', { timeout: 300_000 }, ({ cases }) => {
  let reference: RunOf;
  beforeAll(async () => {
    reference = await runWay(() => httpWay(sectionOptions(upstream.url)), cases);
  }, 300_000);

  it('the server over HTTP, the reference, answers each case as its name says', () => {
    expect(answered(cases, reference)).toEqual(claimed(cases));
    // A body sent slowly is answered as its twin sent at once.
    for (const [once, slow] of twinsOf(cases)) expect(reference.run.answers[slow], cases[slow]?.name).toEqual(reference.run.answers[once]);
    // In proxy mode the deployment answers, and what broke the interface is reported: only then.
    cases.forEach((request, i) => {
      if (!answeredInProxyMode(request) || !request.target.startsWith('/v1')) return;
      const reported = reference.run.answers[i]?.headers.some((header) => header.startsWith('sandbox-violations: '));
      expect(reported, request.name).toBe(/reported|breaks the spec/.test(request.name));
    });
    if (cases.some(answeredInProxyMode)) expect(reference.run.journal).toContain('"violations"');
  });

  it.each(OTHER_WAYS)('%s', async (_way, open) => {
    expect(await againstRun(() => open(sectionOptions(upstream.url)), reference)).toEqual([]);
  });
});

/** The names of the cases whose answers differ, from the differences' lines. */
const differing = (found: readonly string[]): string[] => found.flatMap((difference) => /^#\d+ (.+?): [A-Z]+ \//.exec(difference)?.[1] ?? []);

/** Where a planted way, on the second corpus's options, differs from a server on `cases`. */
const plantedAgainst = async (open: OpenWay, cases: readonly WireRequest[]): Promise<string[]> => {
  const options = sectionOptions(upstream.url);
  return (
    await against(
      () => open(options),
      cases,
      () => httpWay(options),
    )
  ).differences;
};

describe('and the comparison notices a difference planted in the second corpus’s cases', { timeout: 300_000 }, () => {
  it('a way that holds the control plane’s bodies to /v1’s limit', async () => {
    // The small set's load and what reads it, with no 60 MB load: the first 300 KB body is refused already.
    const control = CONTROL_SECTION.cases.slice(0, 6);
    const found = await plantedAgainst(v1LimitEverywhereWay, control);
    expect(found[0], found.join('\n')).toMatch(/^#0 control 200 load a set of 3\d\d KB[^]*"status": 413/);
    // The reads after it find the seeded pets instead of the set (but for a pet past both), and so does the export.
    expect(differing(found)).toEqual(control.filter((request) => !request.name.startsWith('getPet 404')).map((request) => request.name));
    expect(found.filter((difference) => difference.startsWith('export'))).toHaveLength(1);
  });

  it('a way that loses what a proxied exchange broke of the spec (Sandbox-Violations)', async () => {
    const found = await plantedAgainst(withoutViolationsWay, PROXY_SECTION.cases);
    // Exactly the proxied requests whose exchange broke the spec; the journals, kept by the engine, agree.
    const reported = PROXY_SECTION.cases.filter(
      (request) => answeredInProxyMode(request) && request.target.startsWith('/v1') && /reported|breaks the spec/.test(request.name),
    );
    expect(reported.length).toBeGreaterThan(1);
    expect(differing(found), found.join('\n')).toEqual(reported.map((request) => request.name));
    expect(found.filter((difference) => /^(journal|unauthenticated|export):/.test(difference))).toEqual([]);
  });
});

describe('every way in answers an API served by convention alike: the inventory at /api/v2', { timeout: 180_000 }, () => {
  let reference: RunOf;
  beforeAll(async () => {
    // The seeded items' ids, the same in every sandbox made with the same seed and count.
    const probe = await createSandbox({ ...SPEC_OPTIONS, store: await libraryStore() });
    const seeded = (await (await probe.fetch('/api/v2/items?limit=2', { headers: { 'x-api-key': KEY } })).json()) as { id: string }[];
    await probe.close();
    const cases = specCases(seeded.map((item) => item.id)).map((request) => ({ ...request, target: sent(request.target) }));
    const { run, requests } = await runWay(() => httpWay(SPEC_OPTIONS), cases);
    reference = { run: normaliseMade(run), requests };
  }, 180_000);

  it('the server over HTTP, the reference, answers each case as its name says, errors in the spec’s {error, detail}', () => {
    const { run, requests } = reference;
    expect(run.answers.map((answer) => answer.status)).toEqual(requests.map((request) => Number(/\b[1-5]\d\d\b/.exec(request.name)?.[0])));
    for (const answer of run.answers.filter((a) => a.status >= 400)) expect(Object.keys(JSON.parse(answer.body) as object)).toEqual(['error', 'detail']);
    expect(run.journal).toContain('/api/v2/items');
  });

  it.each(OTHER_WAYS)('%s, on every case', async (_way, open) => {
    const { run, requests } = await runWay(() => open(SPEC_OPTIONS), reference.requests, true);
    expect(requests).toHaveLength(reference.requests.length);
    expect(differences(reference.run, normaliseMade(run), requests)).toEqual([]);
  });
});
