/**
 * Fuzz generators for everything but the POST body: query strings of
 * listPets, path parameters of getPet, Authorization and other headers,
 * methods and paths no operation has.
 */
import fc from 'fast-check';
import { AUTH, createPetCases, text, type FuzzCase } from './fuzz-cases.js';

/** Percent-encodes every byte but the unreserved ones (lone surrogates become U+FFFD, as on the wire). */
const enc = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

const limitValue = fc.oneof(
  fc.integer({ min: -5, max: 130 }).map(String),
  fc.constantFrom(
    '',
    '0',
    '1',
    '100',
    '101',
    '1.5',
    '1e2',
    ' 1',
    '1 ',
    '+1',
    '0x10',
    '010',
    'NaN',
    'Infinity',
    '-0',
    '9'.repeat(40),
    '%00',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '１',
    '٣',
  ),
  text.map(enc),
);
const statusValue = fc.oneof(
  fc.constantFrom('available', 'pending', 'sold', 'SOLD', 'sold ', '', 'sold%00', 'sold%2Cpending', '__proto__', 'constructor', '%E0%A4%A'),
  text.map(enc),
);

const queryPart = fc.oneof(
  limitValue.map((v) => `limit=${v}`),
  statusValue.map((v) => `status=${v}`),
  fc.constantFrom(
    'limit',
    'status',
    'limit[]=1',
    'limit[a]=1',
    'status[]=sold',
    '__proto__=1',
    'constructor[prototype][x]=1',
    '=',
    '&',
    'a=b',
    ';',
    '#frag',
    '%',
    'limit=1;status=sold',
  ),
  fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([k, v]) => `${enc(k)}=${enc(v)}`),
);

const listPets = fc.array(queryPart, { maxLength: 6 }).map((parts): FuzzCase => ({
  family: 'query',
  op: 'listPets',
  method: 'GET',
  target: parts.length ? `/v1/pets?${parts.join('&')}` : '/v1/pets',
  headers: [AUTH],
}));

/** One path segment after /v1/pets/: getPet is reached when it holds no `/` and no `?`. */
const petIdSegment = fc.oneof(
  fc.integer({ min: -3, max: 12 }).map(String),
  fc.constantFrom(
    '1.0',
    '1e0',
    '+1',
    '01',
    '0x1',
    '%201',
    '1%20',
    '1%00',
    '1;x',
    '1,2',
    'null',
    'undefined',
    'NaN',
    '%2e%2e',
    '..',
    '.',
    '%252e%252e',
    '..%2F..%2Fetc%2Fpasswd',
    '1%2F2',
    '%E0%A4%A',
    '%',
    '%C0%AF',
    '１',
    '٣',
    '9007199254740993',
    '9223372036854775808',
    '9'.repeat(400),
    'a'.repeat(4000),
    '{petId}',
    ':petId',
    '1#x',
  ),
  text.map(enc),
);
const getPet = petIdSegment.map((id): FuzzCase => ({ family: 'path', op: 'getPet', method: 'GET', target: `/v1/pets/${id}`, headers: [AUTH] }));

/** Paths that are not an operation (traversal that stays raw, double slashes, other prefixes); `/` is not one: it points at the docs. */
const otherPath = fc.constantFrom(
  '/v1/pets/1/2',
  '/v1/pets/../../etc/passwd',
  '/v1/../v1/pets',
  '//v1/pets',
  '/V1/pets',
  '/v1/Pets',
  '/v1',
  '/index.html',
  '/v2/pets',
  '/v1/store/orders',
  '/v1/pets/1/',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/v1/%70ets',
  '/__sandbox/../v1/pets',
  '*',
  'http://evil.example/v1/pets',
  '/v1/pets\u0000',
  '/v1/pets?x=\u00e9',
);
const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PURGE', 'SEARCH', 'get', 'G\u00c9T', 'CONNECT');
const strange = fc
  .tuple(methods, fc.oneof(otherPath, fc.constantFrom('/v1/pets', '/v1/pets/1')))
  .map(([method, target]): FuzzCase => ({ family: 'method/path', method, target, headers: [AUTH] }));

const authorization = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'bearer sandbox-key',
    'BEARER   sandbox-key',
    'Bearer sandbox-key extra',
    'Bearer sandbox-key\t',
    'Bearer sandbox-key=',
    'Bearer sandbox-admin',
    'Basic c2FuZGJveC1rZXk6',
    'Token sandbox-key',
    'Bearer "sandbox-key"',
    'Bearer sandbox-keÿ',
    'Bearer sandbox-key\u0001',
    'Bearer ' + 'k'.repeat(8000),
    'Bearer ' + 'k'.repeat(20_000),
  ),
  text.map((t) => `Bearer ${t.replace(/[\r\n]/g, '')}`),
);
const oddHeader = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['Accept', 'text/html'],
    ['Accept', 'application/xml'],
    ['Accept-Encoding', 'br;q=2, *'],
    ['Prefer', 'code=500'],
    ['Prefer', 'code=201'],
    ['Prefer', 'example=nope'],
    ['Prefer', ';;;=='],
    ['Prefer', 'code=200, dynamic=true'],
    ['X-Sandbox-Key', '../../etc'],
    ['Origin', 'null'],
    ['Expect', 'teapot'],
    ['Expect', '100-continue'],
    ['Transfer-Encoding', 'identity'],
    ['X-Forwarded-For', '1.1.1.1, ::1'],
    ['Cookie', 'a=b'.repeat(100)],
    ['X-Big', 'x'.repeat(20_000)],
    ['X-Nul', 'a\u0000b'],
  ),
  fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/), text).map(([n, v]): [string, string] => [n, v.replace(/[\r\n]/g, '')]),
);
const headers = fc
  .tuple(
    fc.option(fc.array(authorization, { minLength: 1, maxLength: 2 })),
    fc.array(oddHeader, { maxLength: 3 }),
    fc.integer({ min: 0, max: 3000 }),
    fc.constantFrom<'listPets' | 'getPet' | 'createPet'>('listPets', 'getPet', 'createPet'),
  )
  .map(([auth, extra, many, op]): FuzzCase => {
    const list: [string, string][] = [...(auth ?? []).map((a): [string, string] => ['Authorization', a]), ...extra];
    // Up to 2,000 extra headers: some heads stay under the 16 KiB limit, some go over.
    for (let i = 1000; i < many; i++) list.push([`X-H${i}`, '1']);
    const base: FuzzCase = {
      family: 'headers',
      op,
      method: op === 'createPet' ? 'POST' : 'GET',
      target: op === 'getPet' ? '/v1/pets/1' : '/v1/pets',
      headers: list,
    };
    if (op !== 'createPet') return base;
    const json = JSON.stringify({ name: 'Hdr', categoryId: 3 });
    return { ...base, headers: [...list, ['Content-Type', 'application/json']], body: Buffer.from(json), json };
  });

/** Every family, weighted so that POST bodies, queries and paths get most runs. */
export const fuzzCases: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 6, arbitrary: createPetCases },
  { weight: 3, arbitrary: listPets },
  { weight: 3, arbitrary: getPet },
  { weight: 2, arbitrary: strange },
  { weight: 3, arbitrary: headers },
);
