/**
 * Generators of bad (and some good) requests for the fuzz test, as raw
 * HTTP/1.1 bytes: broken JSON, wrong types, huge and deep bodies, odd
 * Content-Type/Content-Length/Content-Encoding, path and query tricks,
 * extreme and odd headers, strange methods.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

export type OperationId = 'listPets' | 'createPet' | 'getPet';

export interface FuzzCase {
  family: string;
  /** The operation the request reaches, when certain; else only the Error shape applies. */
  op?: OperationId;
  method: string;
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** The JSON text the server parses, when the body is plain or gzip of it: a 201 must hold its fields. */
  json?: string;
  /** Content-Length header(s): default the body's length; `null` sends none. */
  contentLength?: string[] | null;
  /** Half-close after sending (a body shorter than its Content-Length is then final). */
  end?: boolean;
}

export const AUTH: [string, string] = ['Authorization', 'Bearer sandbox-key'];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

/** The bytes on the wire. */
export function serialize(c: FuzzCase): Buffer {
  const lines = [`${c.method} ${c.target} HTTP/1.1`, 'Host: 127.0.0.1', ...c.headers.map(([n, v]) => `${n}: ${v}`)];
  const lengths =
    c.contentLength === undefined ?
      c.body ?
        [String(c.body.length)]
      : []
    : (c.contentLength ?? []);
  for (const l of lengths) lines.push(`Content-Length: ${l}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'utf8'), c.body ?? Buffer.alloc(0)]);
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0007\b\t\n\r',
    '\u202e\u200b\ufeff',
    '😀🐕‍🦺',
    '\ud800',
    'Ĳ ǅ ﬀ',
    '<script>',
    "'; DROP TABLE pets; --",
    '../../etc/passwd',
    '%00',
    'a'.repeat(5000),
  ),
);

/** Number literals as raw JSON text, many outside what a pet can hold. */
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : '1e999')),
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '1.5',
    '1e3',
    '1E400',
    '-1e-400',
    '9007199254740991',
    '9007199254740992',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
    '1' + '0'.repeat(400),
  ),
);

const valueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: text.map((s) => JSON.stringify(s)) },
  { weight: 3, arbitrary: numberText },
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', 'false', '[]', '{}', '["Rex"]', '{"name":"Rex"}', '"available"', '"SOLD"', '"sold "') },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
);

/** A NewPet-like object as JSON text: right and wrong field values, extra and duplicate keys. */
const petText = fc
  .record(
    {
      name: fc.oneof(
        text.map((s) => JSON.stringify(s)),
        valueText,
      ),
      categoryId: fc.oneof(numberText, valueText),
      status: fc.oneof(fc.constantFrom('"available"', '"pending"', '"sold"'), valueText),
      extra: fc.constantFrom(
        '"id":7',
        '"__proto__":{"admin":true}',
        '"constructor":{"prototype":{}}',
        '"name":"Dup"',
        '"categoryId":"1"',
        '"status":null',
        '"x":1',
      ),
    },
    { requiredKeys: [] },
  )
  .map(
    (r) =>
      `{${Object.entries(r)
        .map(([k, v]) => (k === 'extra' ? v : `"${k}":${v}`))
        .join(',')}}`,
  );

const validPet = fc
  .record({
    name: fc.string({ minLength: 1, maxLength: 20 }),
    categoryId: fc.integer({ min: 1, max: 9 }),
    status: fc.constantFrom('available', 'pending', 'sold'),
  })
  .map((p) => JSON.stringify(p));

const nested = fc.tuple(fc.constantFrom('[', '{"a":', '{"name":['), fc.integer({ min: 1, max: 60_000 }), fc.boolean()).map(([open, depth, closed]) => {
  const close =
    open === '[' ? ']'
    : open === '{"a":' ? '}'
    : ']}';
  return `${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}`;
});

const bodyText = fc.oneof(
  { weight: 4, arbitrary: petText },
  { weight: 2, arbitrary: validPet },
  { weight: 2, arbitrary: fc.tuple(fc.oneof(petText, validPet), fc.nat()).map(([t, cut]) => t.slice(0, cut % Math.max(1, t.length))) },
  { weight: 1, arbitrary: valueText },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: fc.integer({ min: 90_000, max: 200_000 }).map((n) => JSON.stringify({ name: 'x'.repeat(n), categoryId: 1 })) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

const post = (family: string, headers: [string, string][], body: string | Buffer, extra: Partial<FuzzCase> = {}): FuzzCase => ({
  family,
  op: 'createPet',
  method: 'POST',
  target: '/v1/pets',
  headers,
  body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  ...(typeof body === 'string' ? { json: body } : {}),
  ...extra,
});

const bodies = bodyText.map((b) => post('body', [AUTH, JSON_TYPE], b));

const contentTypes = fc
  .tuple(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json;;',
      'application/json, text/plain',
      'application/vnd.api+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      '',
      ';;;',
      '*/*',
      'application/json; charset="utf-8"',
      'application/jsonx',
      'application/json\u00ff',
    ),
    fc.boolean(),
    validPet,
  )
  .map(([type, present, body]) => post('content-type', present ? [AUTH, ['Content-Type', type]] : [AUTH], body));

const lengths = fc
  .tuple(validPet, fc.constantFrom('short', 'long', 'nan', 'negative', 'dup-same', 'dup-diff', 'chunked+length', 'none', 'huge'))
  .map(([body, kind]) => {
    const n = Buffer.byteLength(body);
    const map: Record<string, Partial<FuzzCase>> = {
      short: { contentLength: [String(n - 3)], json: undefined },
      long: { contentLength: [String(n + 10)], end: true },
      nan: { contentLength: ['abc'] },
      negative: { contentLength: ['-5'] },
      'dup-same': { contentLength: [String(n), String(n)] },
      'dup-diff': { contentLength: [String(n), String(n + 1)] },
      'chunked+length': { headers: [AUTH, JSON_TYPE, ['Transfer-Encoding', 'chunked']] },
      none: { contentLength: null, end: true },
      huge: { contentLength: ['99999999999999999999'], end: true },
    };
    return post(`content-length ${kind}`, [AUTH, JSON_TYPE], body, map[kind]);
  });

const encodings = fc
  .tuple(validPet, fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', 'x-unknown'), fc.boolean())
  .map(([body, encoding, real]) => {
    const zipped = encoding === 'gzip' && real;
    return post(
      'content-encoding',
      [AUTH, JSON_TYPE, ['Content-Encoding', encoding]],
      zipped ? gzipSync(body) : Buffer.from(real ? body : 'not compressed at all'),
      zipped ? { json: body } : {},
    );
  });

const chunked = fc.tuple(fc.oneof(validPet, bodyText), fc.constantFrom('ok', 'bad-size', 'no-end', 'ext')).map(([body, kind]) => {
  const n = Buffer.byteLength(body).toString(16);
  const wire = {
    ok: `${n}\r\n${body}\r\n0\r\n\r\n`,
    'bad-size': `zz\r\n${body}\r\n0\r\n\r\n`,
    'no-end': `${n}\r\n${body}\r\n`,
    ext: `${n};x=y\r\n${body}\r\n0\r\n\r\n`,
  }[kind];
  return post(`chunked ${kind}`, [AUTH, JSON_TYPE, ['Transfer-Encoding', 'chunked']], Buffer.from(wire), {
    contentLength: null,
    ...(kind === 'ok' || kind === 'ext' ? { json: body } : {}),
    ...(kind === 'no-end' ? { end: true } : {}),
  });
});

export const createPetCases = fc.oneof({ weight: 5, arbitrary: bodies }, contentTypes, lengths, encodings, chunked);
export { text, valueText };
