/**
 * A way in's run of the corpus, and its comparison with a server's run on
 * exactly the cases that way takes.
 */
import { sendable } from './corpus.js';
import { differences, keptVia, runCorpus, type Run } from './compare.js';
import { httpWay, type Way } from './ways.js';
import type { WireRequest } from './wire.js';

/** The cases of `corpus` a way takes: those it can send as given, and answers. */
export const casesFor = (way: Way, corpus: readonly WireRequest[]): WireRequest[] =>
  sendable(corpus, way.refuses).filter((request) => way.takes?.(request) ?? true);

/** A run and the cases it was sent. */
export interface RunOf {
  run: Run;
  requests: readonly WireRequest[];
}

/** Opens a way, sends it `requests` (those it takes, if `fromCorpus`) and reads what it kept, then closes it. */
export async function runWay(open: () => Promise<Way>, requests: readonly WireRequest[], fromCorpus = false): Promise<RunOf> {
  const way = await open();
  try {
    const cases = fromCorpus ? casesFor(way, requests) : requests;
    return {
      run: await runCorpus(
        way.name,
        cases,
        (request) => way.send(request),
        () => keptVia(way.origin, way.fetch),
      ),
      requests: cases,
    };
  } finally {
    await way.close();
  }
}

/**
 * The way's run of the cases of `corpus` it takes, and a fresh server's
 * (`reference`, the server over HTTP by default) on the same cases: how many
 * were sent, and where they differ (none when they agree).
 */
export async function against(
  open: () => Promise<Way>,
  corpus: readonly WireRequest[],
  reference: () => Promise<Way> = httpWay,
): Promise<{ sent: number; differences: string[] }> {
  const { run: theirs, requests } = await runWay(open, corpus, true);
  const { run: ours } = await runWay(reference, requests);
  return { sent: requests.length, differences: differences(ours, theirs, requests) };
}

/**
 * The way's run compared with a reference run already made (a server's, on
 * the same options): for a way that takes every case, so that one reference
 * run serves every way (a 60 MB load is sent once per way, not twice).
 */
export async function againstRun(open: () => Promise<Way>, reference: RunOf): Promise<string[]> {
  const { run, requests } = await runWay(open, reference.requests, true);
  if (requests.length !== reference.requests.length) throw new Error(`${run.way} takes ${requests.length} of the ${reference.requests.length} cases`);
  return differences(reference.run, run, requests);
}
