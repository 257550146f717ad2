/**
 * Every error case of the interface, as data: for each documented 4xx/5xx
 * of each operation (spec/openapi.yaml, docs/interface.md "Errors",
 * docs/modes.md "Prefer"), a request that provokes it, and the control
 * plane's calls that set up a forced answer (faults, a quota). Sent in
 * order after the generated requests: a case may rely on the one before.
 *
 * Not here: 408 and 431, which only a socket can provoke (a head or body
 * that did not arrive in time; a head over 16 KiB, refused by Node's
 * parser); 502 `upstream_unavailable` (an upstream that does not answer;
 * proxy mode's cases are in proxy-cases.ts); 503/507 from a failing disk
 * (robustness suite); and the 503 of every open workspace busy (it needs
 * requests in flight at once; the corpus is sent one at a time, so that
 * every way sees one order). Faults force 500, 502, 503 and 504 on every operation instead.
 */
import { brotliCompressSync } from 'node:zlib';
import { KEY } from '../harness.js';
import { b64, control, get, json, key, post, type Case } from './cases.js';

/** The credentials of a 401: missing, unknown, another scheme, no token, a token with more after it. */
const CREDENTIALS: Record<string, string>[] = [
  {},
  { authorization: 'Bearer wrong-key' },
  { authorization: `Basic ${KEY}` },
  { authorization: 'Bearer' },
  { authorization: `Bearer ${KEY} extra` },
];
const unauthorized = (op: string, method: string, target: string): Case[] =>
  CREDENTIALS.map((credential) =>
    method === 'POST' ?
      post(`${op} 401 ${credential.authorization ?? 'no key'}`, '{"name":"A","categoryId":1}', { ...credential, 'content-type': 'application/json' }, target)
    : get(`${op} 401 ${credential.authorization ?? 'no key'}`, target, credential),
  );

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

export const ERROR_CASES: readonly Case[] = [
  // listPets 400: an invalid query (the sandbox's documented decision).
  ...['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=5&limit=6', 'status=lost', 'status=', 'limit=-1', 'limit=1e2'].map((q) =>
    get(`listPets 400 ${q}`, `/v1/pets?${q}`),
  ),
  // 401 on every operation: missing, unknown, malformed.
  ...unauthorized('listPets', 'GET', '/v1/pets'),
  ...unauthorized('createPet', 'POST', '/v1/pets'),
  ...unauthorized('getPet', 'GET', '/v1/pets/1'),
  // getPet: the deprecated operation's headers on 200, 401 and 404; ids that cannot exist.
  get('getPet 200 deprecated', '/v1/pets/1'),
  ...['999999', '0', '-1', 'abc', '1.5', '9007199254740993', '99999999999999999999'].map((id) => get(`getPet 404 ${id}`, `/v1/pets/${id}`)),
  // createPet 400: body missing, fields missing or invalid, JSON broken or too deep, a byte order mark.
  post('createPet 400 no body', undefined),
  post('createPet 400 empty body', ''),
  post('createPet 400 bad JSON', '{"name":'),
  post('createPet 400 no name', '{"categoryId":1}'),
  post('createPet 400 no categoryId', '{"name":"A"}'),
  post('createPet 400 categoryId string', '{"name":"A","categoryId":"1"}'),
  post('createPet 400 status unknown', '{"name":"A","categoryId":1,"status":"lost"}'),
  post('createPet 400 id given', '{"id":5,"name":"A","categoryId":1}'),
  post('createPet 400 extra field', '{"name":"A","categoryId":1,"colour":"red"}'),
  post('createPet 400 array', '[]'),
  post('createPet 400 null', 'null'),
  post('createPet 400 too deep', nested(40)),
  post('createPet 400 byte order mark', '\ufeff{"name":"A","categoryId":1}'),
  post('createPet 400 gzip not decodable', 'not gzip', { ...json, 'content-encoding': 'gzip' }),
  // 413 and 415: too large, another media type or charset, bytes not UTF-8, an unknown encoding.
  post('createPet 413 too large', JSON.stringify({ name: 'x'.repeat(120_000), categoryId: 1 })),
  post('createPet 401 too large without key (the key is checked first)', JSON.stringify({ name: 'x'.repeat(120_000), categoryId: 1 }), {
    'content-type': 'application/json',
  }),
  post('createPet 415 text/plain', '{"name":"A","categoryId":1}', { ...key, 'content-type': 'text/plain' }),
  post('createPet 415 no media type', '{"name":"A","categoryId":1}', key),
  post('createPet 415 latin1', '{"name":"A","categoryId":1}', { ...json, 'content-type': 'application/json; charset=latin1' }),
  post('createPet 415 not UTF-8', new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), json),
  post('createPet 415 unknown encoding', '{"name":"A","categoryId":1}', { ...json, 'content-encoding': 'compress' }),
  // Brotli, which Node decodes (a browser has no decoder: the browser build refuses it 415, by design).
  post('createPet 201 in Brotli', brotliCompressSync('{"name":"Brotli","categoryId":2}'), { ...json, 'content-encoding': 'br' }),
  post('createPet 400 Brotli not decodable', 'not brotli', { ...json, 'content-encoding': 'br' }),
  // 404, 405 and 501 of no operation: an unknown route, a method a path has not, the store area.
  get('404 unknown route', '/v1/nothing'),
  get('404 outside /v1', '/nothing'),
  { name: '405 DELETE /v1/pets', method: 'DELETE', target: '/v1/pets', headers: key },
  { name: '405 PUT /v1/pets/1', method: 'PUT', target: '/v1/pets/1', headers: json, body: b64('{}') },
  { name: '405 PATCH /v1/pets', method: 'PATCH', target: '/v1/pets', headers: key },
  get('501 store area', '/v1/store/orders'),
  // Prefer: a documented status or example of each operation, and refusals of what is not documented.
  ...[
    'code=400',
    'code=401',
    'code=200',
    'example=sold',
    'example=empty',
    'code=200, example=mixed',
    'dynamic=true, seed=7',
    'code=418',
    'example=nope',
    'code=abc',
  ].map((prefer) => get(`listPets Prefer ${prefer}`, '/v1/pets', { ...key, prefer })),
  ...['code=404', 'code=401', 'code=200, example=noStatus', 'code=500'].map((prefer) => get(`getPet Prefer ${prefer}`, '/v1/pets/2', { ...key, prefer })),
  ...['code=201', 'code=400', 'code=401', 'code=201, example=noStatus', 'code=404'].map((prefer) =>
    post(`createPet Prefer ${prefer}`, '{"name":"A","categoryId":1}', { ...json, prefer }),
  ),
  // Injected faults: a forced 5xx on each operation, used up after one request; a refused fault.
  ...(
    [
      ['listPets', 503, get('listPets 503 by fault', '/v1/pets')],
      ['listPets', 500, get('listPets 500 by fault', '/v1/pets?limit=3')],
      ['getPet', 502, get('getPet 502 by fault', '/v1/pets/3')],
      ['getPet', 404, get('getPet 404 by fault', '/v1/pets/1')],
      ['createPet', 504, post('createPet 504 by fault', '{"name":"A","categoryId":1}')],
      ['createPet', 401, post('createPet 401 by fault', '{"name":"A","categoryId":1}')],
    ] as const
  ).flatMap(([operationId, status, request]) => [control(`fault ${operationId} ${status}`, 'POST', '/faults', { operationId, status, count: 1 }), request]),
  control('fault refused: undocumented status', 'POST', '/faults', { operationId: 'listPets', status: 418 }),
  control('fault refused: unknown operation', 'POST', '/faults', { operationId: 'deletePet', status: 500 }),
  control('faults listed', 'GET', '/faults'),
  // 507 quota_exceeded: the workspace full (--quota-pets 150), then back to its seeded pets.
  control('reset to the quota', 'POST', '/reset', { count: 150 }),
  post('createPet 507 quota', '{"name":"A","categoryId":1}'),
  control('reset to the seed', 'POST', '/reset'),
  // The control plane's own refusals.
  { ...control('control 401 no token', 'GET', '/faults'), headers: { 'x-sandbox-key': KEY } },
  { ...control('control 403 API key', 'GET', '/faults'), headers: { ...key, 'x-sandbox-key': KEY } },
  control('control 404 no fixture set', 'POST', '/load', { fixture: 'nope' }),
  control('control 400 bad set', 'POST', '/load', { pets: [{ id: 1, name: 'A' }] }),
  control('control 404 no checkpoint', 'POST', '/checkpoints/nope/restore'),
  control('checkpoint saved', 'POST', '/checkpoints', { name: 'one' }),
  control('control 409 checkpoint taken', 'POST', '/checkpoints', { name: 'one' }),
  control('control 404 no route', 'GET', '/nothing'),
  get('getPet after the corpus', '/v1/pets/31'),
  get('listPets after the corpus', '/v1/pets?limit=100'),
];
