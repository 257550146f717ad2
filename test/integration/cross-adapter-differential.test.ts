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
 * The way through MSW's service worker in Chromium is
 * test/browser/cross-adapter-differential.test.ts.
 *
 * The ways run one after another: while MSW's setupServer listens it
 * intercepts the process's fetch and node:http, so nothing else runs then.
 */
import { describe, expect, it } from 'vitest';
import { claimedStatus, corpus } from '../support/differential/corpus.js';
import { withoutRefusalWay } from '../support/differential/planted.js';
import { against, runWay, type RunOf } from '../support/differential/runs.js';
import { handlerWay, httpWay, middlewareWay, mswNodeWay, SANDBOX_OPTIONS, sandboxFetchWay } from '../support/differential/ways.js';
import type { WireRequest } from '../support/differential/wire.js';

const CORPUS = corpus();

/** Each case's status as its name claims it, and as `run` answered it. */
const claims = (cases: readonly WireRequest[], answered?: RunOf) =>
  cases.flatMap((request, i) => {
    const status = answered ? answered.run.answers[i]?.status : claimedStatus(request.name);
    return claimedStatus(request.name) === undefined ? [] : [`${request.name}: ${status}`];
  });

describe('every way in answers the corpus alike', { timeout: 180_000 }, () => {
  it('the server over HTTP, the reference, meets every case it is meant to', async () => {
    const reference = await runWay(httpWay, CORPUS);
    const statuses = new Set(reference.run.answers.map((a) => a.status));
    // Every status an error of the interface has when a request alone can provoke it (the corpus's note says which cannot).
    for (const status of [200, 201, 400, 401, 403, 404, 405, 409, 413, 415, 500, 501, 502, 503, 504, 507]) expect(statuses).toContain(status);
    expect(reference.run.answers.filter((a) => a.status === 201).length).toBeGreaterThan(20);
    // Each error case provokes the status its name says.
    expect(claims(CORPUS).length).toBeGreaterThan(60);
    expect(claims(CORPUS, reference)).toEqual(claims(CORPUS));
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
