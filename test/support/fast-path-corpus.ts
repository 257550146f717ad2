/**
 * The fast path's differential corpus: generated reads (paths, queries,
 * keys, headers of every kind) and creates (bodies, media types, encodings,
 * bytes that are not UTF-8), sent to two ways of answering that must agree
 * byte for byte (fast-path-differential.test.ts: with and without the fast
 * path; library-fetch-differential.test.ts: the server and the library's fetch).
 */
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { KEY } from './harness.js';

export const AUTH = { authorization: `Bearer ${KEY}` };

const segment = fc.oneof(
  fc.integer({ min: -5, max: 40 }).map(String),
  fc.constantFrom(
    '0',
    '01',
    '1e1',
    '1.0',
    '%31',
    '%2F',
    '%2e%2e',
    '..',
    '.',
    'abc',
    '9007199254740993',
    '99999999999999999999',
    '%C3%A9',
    '%00',
    '%E0%A4%A',
    '1;x',
    "'1'",
    '%20',
    '-0',
  ),
);
export const path = fc.oneof(
  { weight: 4, arbitrary: fc.constant('/v1/pets') },
  { weight: 4, arbitrary: segment.map((s) => `/v1/pets/${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('/v1/pets/', '/v1/pets/1/', '/v1/pets//1', '/V1/pets', '/v1/PETS/1', '/v1//pets', '/v1/pets/1/x', '/v1', '/v1/') },
);
const pair = fc.tuple(
  fc.constantFrom('limit', 'status', 'x', 'limit[]', 'Limit', 'status[0]'),
  fc.constantFrom('1', '5', '20', '100', '101', '0', '-1', 'abc', '', 'sold', 'available', 'pending', 'SOLD', '%20', '1.5', '%ZZ', '%31', '1e2', '+5'),
);
export const query = fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
export const auth = fc.constantFrom<Record<string, string>>(
  AUTH,
  AUTH,
  { authorization: `bearer  ${KEY} ` },
  { authorization: 'Bearer wrong-key' },
  { authorization: `Basic ${KEY}` },
  { authorization: 'Bearer' },
  {},
);
export const extra = fc.constantFrom<Record<string, string>>(
  {},
  { origin: 'http://example.test' },
  { origin: 'http://allowed.test' },
  { accept: 'text/html' },
  { 'x-sandbox-key': 'other' },
);
export const method = fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD');

/** Bodies of creates: valid pets, wrong fields, broken JSON, other media types and charsets, encodings, bytes that are not UTF-8. */
const petJson = fc
  .record(
    { name: fc.string({ maxLength: 12 }), categoryId: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant(1.5), fc.constant('1')) },
    { requiredKeys: [] },
  )
  .map((p) => JSON.stringify(p));
const text = fc.oneof(
  { weight: 4, arbitrary: petJson },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      'null',
      '[]',
      '"x"',
      '{"name":"A","categoryId":1,"id":3}',
      '\ufeff{"name":"B","categoryId":1}',
      '{"name":"C","categoryId":1,"status":"lost"}',
    ),
  },
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'application/json;;',
  '',
);
export const create = fc.tuple(text, contentType, fc.constantFrom('plain', 'plain', 'plain', 'gzip', 'not-utf8', 'chunked')).map(([json, type, form]) => {
  const headers: Record<string, string> = type ? { 'content-type': type } : {};
  if (form === 'gzip') return { headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipSync(json) };
  if (form === 'not-utf8') return { headers, body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]) };
  if (form === 'chunked') return { headers: { ...headers, 'transfer-encoding': 'chunked' }, body: Buffer.from(json) };
  return { headers, body: Buffer.from(json) };
});
