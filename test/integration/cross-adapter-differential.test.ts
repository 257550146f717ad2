/**
 * One engine, proven (Node's ways in): one corpus (the fast path's
 * differential generators, sampled with a fixed seed, then every error case
 * of the interface: test/support/differential/) goes to the server over
 * HTTP, to the in-process fetch handler and to MSW in Node, each a fresh
 * sandbox made with the same options, and every answer must be the same
 * byte for byte (status, the documented headers, body), and so must each
 * way's journals and export after the corpus. A way that cannot send some
 * cases as given (Node's fetch refuses Transfer-Encoding), or leaves some
 * to the network by design (MSW's handlers take only what the engine
 * serves), is compared with a server run on exactly the cases it takes. The way through MSW's
 * service worker in Chromium is test/browser/cross-adapter-differential.test.ts.
 *
 * The ways run one after another: while MSW's setupServer listens it
 * intercepts the process's fetch and node:http, so nothing else runs then.
 */
import { describe, expect, it } from 'vitest';
import { claimedStatus, corpus } from '../support/differential/corpus.js';
import { against, runWay } from '../support/differential/runs.js';
import { handlerWay, httpWay, mswNodeWay, SANDBOX_OPTIONS, type Way } from '../support/differential/ways.js';
import { libraryStore } from '../support/harness.js';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { createSandbox } from '../../src/index.js';

const CORPUS = corpus();

/**
 * A planted difference: a fetch adapter that reads the whole body itself and
 * answers one over /v1's limit alone, as a careless adapter would, before
 * the engine sees it: the same status and body, but never journaled.
 */
async function plantedWay(): Promise<Way> {
  const sandbox = await createSandbox({ ...SANDBOX_OPTIONS, store: await libraryStore() });
  const handler = createFetchHandler({ handle: (request) => sandbox.handle(request) });
  const careless = async (request: Request): Promise<Response> => {
    const bytes = request.body === null ? 0 : (await request.clone().arrayBuffer()).byteLength;
    if (bytes <= 102_400) return handler(request);
    const text = JSON.stringify({ code: 'payload_too_large', message: 'Request body is larger than the limit of 102400 bytes.', status: 413 });
    return new Response(text, { status: 413, headers: { 'Content-Type': 'application/json' } });
  };
  const way = await handlerWay({ ...sandbox, handler: careless, close: () => sandbox.close() });
  return { ...way, name: 'fetch handler that refuses a large body itself' };
}

describe('every way in answers the corpus alike', { timeout: 180_000 }, () => {
  it('the server over HTTP, the reference, meets every case it is meant to', async () => {
    const { run: reference } = await runWay(httpWay, CORPUS);
    const statuses = new Set(reference.answers.map((a) => a.status));
    // Every status an error of the interface has when a request alone can provoke it (the corpus's note says which cannot).
    for (const status of [200, 201, 400, 401, 403, 404, 405, 409, 413, 415, 500, 501, 502, 503, 504, 507]) expect(statuses).toContain(status);
    expect(reference.answers.filter((a) => a.status === 201).length).toBeGreaterThan(20);
    // Each error case provokes the status its name says.
    const claimed = CORPUS.flatMap((request, i) => (claimedStatus(request.name) === undefined ? [] : [`${request.name}: ${reference.answers[i]?.status}`]));
    expect(claimed.length).toBeGreaterThan(60);
    expect(claimed).toEqual(
      CORPUS.flatMap((request) => (claimedStatus(request.name) === undefined ? [] : [`${request.name}: ${claimedStatus(request.name)}`])),
    );
  });

  it('the in-process fetch handler, on every case', async () => {
    expect(await against(handlerWay, CORPUS)).toEqual({ sent: CORPUS.length, differences: [] });
  });

  it('MSW in Node (setupServer), on every case Node’s fetch can send to a path the engine serves', async () => {
    const { sent, differences } = await against(mswNodeWay, CORPUS);
    expect(differences).toEqual([]);
    expect(sent).toBeGreaterThan(CORPUS.length * 0.8);
  });

  it('and the comparison notices a planted difference in an adapter', async () => {
    const found = (await against(plantedWay, CORPUS)).differences;
    expect(found.filter((difference) => difference.startsWith('journal')).length, found.join('\n')).toBe(1);
  });
});
