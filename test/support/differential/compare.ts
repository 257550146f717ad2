/**
 * Runs the corpus on a way in and reads what it left behind, and lists
 * where two runs differ: per request (status, documented headers, body) and
 * after the corpus (the key's journal, the journal of requests without a
 * valid key, the workspace's export).
 */
import { stringifyJson } from '../../../src/kernel/json.js';
import { createControlClient } from '../../../src/control/client.js';
import { workspaceOf } from '../../../src/library/workspace.js';
import { KEY } from '../harness.js';
import { bulkSize } from './bodies.js';
import { comparable, type Answer, type RawAnswer, type WireRequest } from './wire.js';

/** What one way answered and kept. */
export interface Run {
  way: string;
  answers: Answer[];
  /** The journals and the export, as JSON text, normalised (normaliseJournal). */
  journal: string;
  unauthenticated: string;
  export: string;
}

/** What a way keeps after the corpus, as its control plane gives it (journals as parsed JSON, the export as `workspace.export()` gives it). */
export interface Kept {
  journal: unknown;
  unauthenticated: unknown;
  export: unknown;
}

/**
 * A journal with what legitimately differs between two sandboxes replaced:
 * - `workspace`: the id is an HMAC of the key under each sandbox's own
 *   secret, and a library sandbox (createSandbox, MSW's handlers) draws its
 *   secret at random and takes none as an option;
 * - each entry's `time` and `durationMs`: when the request came and how long
 *   the machine took.
 * Entries carry no request id. Everything else (order, methods, paths,
 * queries, statuses, bodies, spec issues, masked credentials, the memory
 * the journal counts) must agree.
 */
export function normaliseJournal(journal: unknown): string {
  const j = journal as { workspace?: string; entries: { time?: string; durationMs?: number }[] };
  return JSON.stringify(
    {
      ...j,
      ...(j.workspace === undefined ? {} : { workspace: '<id>' }),
      entries: j.entries.map((e) => ({ ...e, time: '<time>', durationMs: '<ms>' })),
    },
    null,
    1,
  );
}

/** The journals and export of the key's workspace, through a way's own fetch and the control plane's typed client. */
export async function keptVia(origin: string, fetch: typeof globalThis.fetch): Promise<Kept> {
  const client = createControlClient({ origin, adminToken: 'sandbox-admin', fetch });
  const workspace = workspaceOf(client, KEY);
  return {
    journal: await workspace.journal.read(),
    unauthenticated: await client.call('readUnauthenticatedJournal', {}),
    export: await workspace.export(),
  };
}

/**
 * What legitimately differs in the control plane's answers: a workspace id
 * (see normaliseJournal) becomes `<workspace n>`, numbered in order of first
 * appearance, so that one key must keep one id and two keys two ids; the
 * time a checkpoint was saved becomes `<time>`.
 */
function controlNormaliser(): (body: string) => string {
  const ids = new Map<string, string>();
  return (body) =>
    body
      .replace(/"workspace":"([0-9a-f]{16})"/g, (_, id: string) => {
        if (!ids.has(id)) ids.set(id, `<workspace ${ids.size + 1}>`);
        return `"workspace":"${ids.get(id) ?? ''}"`;
      })
      .replace(/"savedAt":"[^"]*"/g, '"savedAt":"<time>"');
}

/**
 * How long a way may leave one case unanswered before that silence is its
 * answer (status 0): a way that never answers must show as a difference,
 * not stop the run. Generous: 30 s, and 2 s more per MB of a bulk body (a
 * 60 MB load took 6 s on PostgreSQL on a quiet 2-core machine).
 */
const patience = (request: WireRequest): number => 30_000 + (request.bulk ? Math.ceil(bulkSize(request.bulk) / 500_000) * 1000 : 0);

/** The way's answer to `request`, or, past its patience, a status 0 that says none came. */
async function answerOf(send: (r: WireRequest) => Promise<RawAnswer>, request: WireRequest): Promise<RawAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const ms = patience(request);
  const silence = new Promise<RawAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ status: 0, headers: [], body: Buffer.from(`no answer within ${ms / 1000} s`).toString('base64') }), ms);
  });
  try {
    return await Promise.race([send(request), silence]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends the corpus, one request after another, then reads what the way kept. */
export async function runCorpus(
  way: string,
  corpus: readonly WireRequest[],
  send: (r: WireRequest) => Promise<RawAnswer>,
  kept: () => Promise<Kept>,
): Promise<Run> {
  const normalise = controlNormaliser();
  const answers: Answer[] = [];
  for (const request of corpus) {
    const answer = comparable(await answerOf(send, request));
    answers.push(request.target.startsWith('/__sandbox') ? { ...answer, body: normalise(answer.body) } : answer);
  }
  const state = await kept();
  return {
    way,
    answers,
    journal: normaliseJournal(state.journal),
    unauthenticated: normaliseJournal(state.unauthenticated),
    export: stringifyJson(state.export),
  };
}

/** Past this many characters, two answers are shown where they part. */
const LONG = 4000;

/** Every difference between a run and the reference run, one readable line (or block) each; none when they agree. */
export function differences(reference: Run, run: Run, corpus: readonly WireRequest[]): string[] {
  const found: string[] = [];
  corpus.forEach((request, i) => {
    const [a, b] = [JSON.stringify(reference.answers[i], null, 1), JSON.stringify(run.answers[i], null, 1)];
    if (a === b) return;
    // Long answers (a page of large pets, a journal) are shown where they part, not whole.
    const statuses = `statuses ${reference.answers[i]?.status} and ${run.answers[i]?.status}, `;
    const shown = a.length + b.length > LONG ? statuses + firstDifference(a, b, reference.way, run.way) : `${reference.way}: ${a}\n${run.way}: ${b}`;
    found.push(`#${i} ${request.name}: ${request.method} ${request.target} ${JSON.stringify(request.headers)}\n${shown}`);
  });
  for (const part of ['journal', 'unauthenticated', 'export'] as const)
    if (reference[part] !== run[part]) found.push(`${part}: ${firstDifference(reference[part], run[part], reference.way, run.way)}`);
  return found;
}

/** Where two texts part, with some context: a journal of hundreds of entries is not shown whole. */
function firstDifference(a: string, b: string, wayA: string, wayB: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  const from = Math.max(0, i - 300);
  return `from character ${i}\n${wayA}: …${a.slice(from, i + 300)}\n${wayB}: …${b.slice(from, i + 300)}`;
}
