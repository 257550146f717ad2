/**
 * The control plane's cases with large bodies and the flows around them,
 * as data: a fixture set of about 300 KB loaded (`POST /__sandbox/load`
 * `{"pets":[...]}`, spec/sandbox-control.yaml's LoadRequest) and read back
 * (a page, a status, one pet, the export); a checkpoint saved and listed;
 * a set of about 60 MB loaded and read back, then the checkpoint restored
 * and deleted; faults added, listed, met by a request, cleared. The loads'
 * bodies are over /v1's 100 KB and under the control plane's 64 MiB.
 *
 * The 60 MB set has long names (about 1 KB each, some 49,000 pets): the
 * same bytes in short names are some 880,000 pets, which PostgreSQL took
 * 19 s to load and 13 s to export per way (6 s and 2 s with names of 1 KB;
 * the file store 3.7 s and 1.5 s, the memory store 3.7 s and 1.6 s),
 * measured through the server on a 2-core machine: too long to send to
 * every way in on every store.
 */
import { bulkSize, type Bulk } from './bodies.js';
import { adminJson, control, get, post, type Case } from './cases.js';

/** The set's recipe with the smallest count of items that makes it at least `bytes` long. */
function setOf(items: readonly string[], bytes: number): Bulk {
  const set: Bulk = { head: '{"pets":[', items, count: 0, separator: ',', tail: ']}' };
  let size = bulkSize(set);
  while (size < bytes) size += (items[set.count % items.length] ?? '').replaceAll('{i}', String(++set.count)).length + (set.count > 1 ? 1 : 0);
  return set;
}

/** About 300 KB of pets as a team writes them: short names, every status and none, an escaped character. */
export const SMALL_SET = setOf(
  [
    '{"id":{i},"name":"Pet {i}","categoryId":1,"status":"available"}',
    '{"id":{i},"name":"Chlo\\u00e9 {i}","categoryId":2,"status":"pending"}',
    '{"id":{i},"name":"Rex {i}","categoryId":3,"status":"sold"}',
    '{"id":{i},"name":"Bruno {i}","categoryId":4}',
  ],
  300_000,
);

/** A name of about `length` characters: words, the pet's number first. */
const longName = (length: number) => `Pet {i} ${'the good boy of the house '.repeat(Math.ceil(length / 26))}`.slice(0, length).trimEnd();

/** About 60 MB of pets (about 1 KB each): loaded in one request. */
export const LARGE_SET = setOf(
  ['available', 'pending', 'sold', undefined, 'available', 'sold'].map(
    (status, n) => `{"id":{i},"name":"${longName(300 + n * 350)}","categoryId":${n + 1}${status ? `,"status":"${status}"` : ''}}`,
  ),
  60_000_000,
);

/** A load of `set`. */
export const loadOf = (name: string, set: Bulk): Case => ({ name, method: 'POST', target: '/__sandbox/load', headers: adminJson, bulk: set });

/** The set's size as its case is named. */
const sizeOf = (set: Bulk) => {
  const bytes = bulkSize(set);
  return `${bytes < 1e6 ? `${Math.round(bytes / 1000)} KB` : `${(bytes / 1e6).toFixed(1)} MB`}, ${set.count} pets`;
};
const create = '{"name":"After","categoryId":2}';

export const CONTROL_CASES: readonly Case[] = [
  loadOf(`control 200 load a set of ${sizeOf(SMALL_SET)}`, SMALL_SET),
  get('listPets 200 a page of the small set', '/v1/pets?limit=100'),
  get('listPets 200 the sold of the small set', '/v1/pets?status=sold&limit=7'),
  get('getPet 200 the small set’s last', `/v1/pets/${SMALL_SET.count}`),
  get('getPet 404 past the small set', `/v1/pets/${SMALL_SET.count + 1}`),
  control('control 200 export of the small set', 'GET', '/export'),
  control('control 201 checkpoint of the small set', 'POST', '/checkpoints', { name: 'small' }),
  control('control 200 checkpoints listed', 'GET', '/checkpoints'),
  post('createPet 201 after the small set', create),
  loadOf(`control 200 load a set of ${sizeOf(LARGE_SET)}`, LARGE_SET),
  get('listPets 200 a page of the large set', '/v1/pets?limit=100'),
  get('listPets 200 the pending of the large set', '/v1/pets?status=pending&limit=3'),
  get('getPet 200 the large set’s last', `/v1/pets/${LARGE_SET.count}`),
  control('control 200 export of the large set', 'GET', '/export'),
  post('createPet 201 after the large set', create),
  control('control 200 checkpoint restored', 'POST', '/checkpoints/small/restore'),
  get('listPets 200 the small set again', '/v1/pets?limit=100&status=pending'),
  control('control 200 checkpoint deleted', 'DELETE', '/checkpoints/small'),
  control('control 200 no checkpoint left', 'GET', '/checkpoints'),
  control('control 404 the deleted checkpoint', 'POST', '/checkpoints/small/restore'),
  // Faults: added, listed, met, cleared.
  control('control 201 fault on listPets', 'POST', '/faults', { operationId: 'listPets', status: 503, count: 1 }),
  control('control 201 fault with a delay on getPet', 'POST', '/faults', { operationId: 'getPet', latencyMs: 20, count: 1 }),
  control('control 201 fault on createPet until cleared', 'POST', '/faults', { operationId: 'createPet', status: 500 }),
  control('control 200 faults listed', 'GET', '/faults'),
  get('listPets 503 by the fault', '/v1/pets?limit=2'),
  get('listPets 200 the fault used up', '/v1/pets?limit=2'),
  get('getPet 200 after the fault’s delay', '/v1/pets/2'),
  post('createPet 500 by the fault', create),
  post('createPet 500 by the fault again', create),
  control('control 200 faults cleared', 'DELETE', '/faults'),
  control('control 200 no fault left', 'GET', '/faults'),
  post('createPet 201 no fault left', create),
];
