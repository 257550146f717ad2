/**
 * The corpus every way in is sent, in this order: the fast path's
 * differential generators (test/support/fast-path-corpus.ts), sampled with a
 * fixed seed so that every way gets the same requests, then every error case
 * of the interface (error-cases.ts).
 */
import fc from 'fast-check';
import { auth, create, extra, method, path, query } from '../fast-path-corpus.js';
import { ERROR_CASES } from './error-cases.js';
import type { WireRequest } from './wire.js';

/** The seed of the sample: a fixed one, so a failure names a request that can be sent again. */
const SEED = 2025;

/** The target as a fetch client sends it (WHATWG URL: dot segments removed, escapes added). */
export const sent = (target: string): string => {
  const url = new URL(target, 'http://sandbox.test');
  return url.pathname + url.search;
};

const reads = fc
  .tuple(method, path, query, auth, extra)
  .map(([m, p, q, a, e]): WireRequest => ({ name: 'generated read', method: m, target: sent(`${p}${q}`), headers: { ...a, ...e } }));
const creates = fc.tuple(create, auth, extra).map(([c, a, e]): WireRequest => ({
  name: 'generated create',
  method: 'POST',
  target: '/v1/pets',
  headers: { ...a, ...e, ...c.headers },
  body: c.body.toString('base64'),
}));

/** The whole corpus: `reads` generated reads, `creates` generated creates, then the error cases. */
export function corpus(sizes = { reads: 300, creates: 200 }): WireRequest[] {
  return [
    ...fc.sample(reads, { seed: SEED, numRuns: sizes.reads }),
    ...fc.sample(creates, { seed: SEED + 1, numRuns: sizes.creates }),
    ...ERROR_CASES.map((c) => ({ ...c, target: sent(c.target) })),
  ];
}

/** The status an error case's name says it provokes (`listPets 400 limit=0`, `405 DELETE /v1/pets`), if it says one. */
export const claimedStatus = (name: string): number | undefined => {
  const status = /^(?:(?:listPets|createPet|getPet|control) )?([1-5]\d\d) /.exec(name)?.[1];
  return status === undefined ? undefined : Number(status);
};

/**
 * Header names a way in cannot send as given, so a case carrying one goes
 * only to the ways that can (and to a reference run of its own on the same
 * cases). Node's fetch (undici) refuses the connection's own headers
 * ("invalid transfer-encoding header"); a page's fetch drops the Fetch
 * standard's forbidden request headers, or sets its own (Origin).
 */
export const UNSENDABLE = {
  nodeFetch: new Set(['transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']),
  page: new Set(['origin', 'transfer-encoding', 'content-length', 'connection', 'host', 'keep-alive', 'accept-encoding', 'expect', 'upgrade']),
} as const;

/** The cases a way in can send with exactly their headers. */
export const sendable = (requests: readonly WireRequest[], refused: ReadonlySet<string> = new Set()): WireRequest[] =>
  requests.filter((request) => Object.keys(request.headers).every((name) => !refused.has(name.toLowerCase())));
