/**
 * Bodies at and over the limits, and bodies sent slowly, as data. /v1 takes
 * 100 KB (`--body-limit`, once a Content-Encoding is undone), the control
 * plane 64 MiB: a body just over either gets its 413, journaled as on the
 * server, whether its length is declared (refused before it is read) or not
 * (refused once the reader passes the limit). A body sent slowly (in pieces
 * with pauses, within the limits, with no declared length) gets the answer
 * it gets sent at once: each case named `…, sent slowly` follows its twin
 * sent at once (twinsOf pairs them).
 */
import { gzipSync } from 'node:zlib';
import type { Bulk, Slow } from './bodies.js';
import { adminJson, b64, control, get, json, post, type Case } from './cases.js';
import { loadOf, SMALL_SET } from './control-cases.js';

const V1_LIMIT = 102_400;
const CONTROL_LIMIT = 64 * 1024 * 1024;

/** A create whose body is exactly `bytes` long: a name padded to fit. */
const createOf = (bytes: number): string => {
  const frame = '{"name":"","categoryId":1}';
  return `{"name":"${'n'.repeat(bytes - frame.length)}","categoryId":1}`;
};

/** A control-plane body of exactly `bytes`: a load of no pets with a description padded to fit (the description is not stored). */
function controlBodyOf(bytes: number): Bulk {
  const head = '{"pets":[],"description":"';
  const tail = '"}';
  const item = 'd'.repeat(1024 * 1024);
  const count = Math.floor((bytes - head.length - tail.length) / item.length);
  return { head: head + 'd'.repeat(bytes - head.length - tail.length - count * item.length), items: [item], count, separator: '', tail };
}

const SLOW: Slow = { pieces: 5, pauseMs: 25 };

/** `request` sent slowly, named after it. */
export const slowly = (request: Case, slow: Slow = SLOW): Case => ({ ...request, name: `${request.name}, sent slowly`, slow });

/** The pairs of a case sent at once and its twin sent slowly, as indexes in `cases`. */
export const twinsOf = (cases: readonly Case[]): [number, number][] =>
  cases.flatMap((request, i) => {
    const twin = request.slow ? cases.findIndex((other) => `${other.name}, sent slowly` === request.name) : -1;
    return twin === -1 ? [] : [[twin, i] as [number, number]];
  });

const gzipped = (name: string, text: string): Case => ({
  ...post(name, undefined),
  headers: { ...json, 'content-encoding': 'gzip' },
  body: b64(gzipSync(text)),
});
const valid = '{"name":"Zoë Ñandú 🐕 slow","categoryId":3,"status":"pending"}';

export const BODY_CASES: readonly Case[] = [
  // /v1's limit: at it, one byte past it (declared, or found while reading), past it once decoded.
  post('createPet 201 a body of exactly the limit', createOf(V1_LIMIT)),
  post('createPet 413 one byte over the limit', createOf(V1_LIMIT + 1)),
  // Sent slowly, with no declared length: refused once the reader passes the limit, halfway through the body.
  slowly(post('createPet 413 over the limit with no declared length', createOf(2 * V1_LIMIT)), { pieces: 10, pauseMs: 20 }),
  gzipped('createPet 413 over the limit once gzip is undone', createOf(V1_LIMIT + 1)),
  gzipped('createPet 201 the limit once gzip is undone', createOf(V1_LIMIT)),
  // The control plane's limit: one byte past 64 MiB, declared.
  { name: 'control 413 one byte over 64 MiB', method: 'POST', target: '/__sandbox/load', headers: adminJson, bulk: controlBodyOf(CONTROL_LIMIT + 1) },
  // Slow bodies: each answered as its twin sent at once (the pieces cut through UTF-8 characters too).
  post('createPet 400 bad JSON', '{"name":"Slow",'),
  slowly(post('createPet 400 bad JSON', '{"name":"Slow",')),
  post('createPet 400 extra field', '{"name":"Slow","categoryId":1,"colour":"red"}'),
  slowly(post('createPet 400 extra field', '{"name":"Slow","categoryId":1,"colour":"red"}')),
  slowly(post('createPet 201 characters cut between pieces', valid), { pieces: 17, pauseMs: 5 }),
  slowly(gzipped('createPet 201 gzip', valid)),
  loadOf('control 200 load the small set', SMALL_SET),
  slowly(loadOf('control 200 load the small set', SMALL_SET), { pieces: 8, pauseMs: 20 }),
  slowly(control('control 201 fault', 'POST', '/faults', { operationId: 'getPet', status: 503, count: 1 })),
  get('getPet 503 by the fault sent slowly', '/v1/pets/1'),
  post('createPet 201 after the slow bodies', '{"name":"Last","categoryId":1}'),
  control('control 200 export after the slow bodies', 'GET', '/export'),
];
