import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { expectError, expectErrorNaming, post, postRaw } from '../support/error-check.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

const created: number[] = [];

describe('POST /v1/pets: accepted bodies', () => {
  it.each([
    ['minimal', { name: 'Rex', categoryId: 1 }],
    ['available', { name: 'Tom', categoryId: 2, status: 'available' }],
    ['pending', { name: 'Polly', categoryId: 3, status: 'pending' }],
    ['sold', { name: 'Felix', categoryId: 4, status: 'sold' }],
    ['empty name', { name: '', categoryId: 1 }],
    ['unicode name', { name: 'Ünïcødé 名前 🐶 \u0000\u202e', categoryId: 1 }],
    ['category 0', { name: 'Zero', categoryId: 0 }],
    ['negative category', { name: 'Neg', categoryId: -7 }],
    ['largest exact int64', { name: 'Max', categoryId: 9007199254740991 }],
    ['smallest exact int64', { name: 'Min', categoryId: -9007199254740991 }],
  ])('%s -> 201 with the created Pet, readable back', async (_label, input) => {
    const res = await sb.op('createPet', '/pets', post(input));
    expect(res.status, res.text).toBe(201);
    const { id, ...rest } = res.body as { id: number };
    expect(rest).toEqual(input);
    expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    expect(created).not.toContain(id);
    if (created.length > 0) expect(id).toBeGreaterThan(Math.max(...created));
    created.push(id);
    const back = await sb.op('getPet', `/pets/${id}`);
    expect(back.body).toEqual(res.body);
  });

  it('Content-Type with a UTF-8 charset parameter is accepted', async () => {
    const res = await sb.op('createPet', '/pets', postRaw('{"name":"Charset","categoryId":1}', 'application/json; charset=utf-8'));
    expect(res.status, res.text).toBe(201);
  });

  it('without status the Pet has no status key (not null), and no status filter returns it', async () => {
    const res = await sb.op('createPet', '/pets', post({ name: 'Bubbles', categoryId: 4 }));
    expect(res.status).toBe(201);
    expect('status' in res.body).toBe(false);
    expect(res.text).not.toContain('status');
    const back = await sb.op('getPet', `/pets/${res.body.id}`);
    expect(back.text).not.toContain('status');
    const all = await sb.op('listPets', '/pets?limit=100');
    expect(all.body).toContainEqual({ id: res.body.id, name: 'Bubbles', categoryId: 4 });
    for (const status of ['available', 'pending', 'sold']) {
      const filtered = await sb.op('listPets', `/pets?status=${status}&limit=100`);
      expect((filtered.body as { id: number }[]).map((p) => p.id)).not.toContain(res.body.id);
    }
  });
});

describe('POST /v1/pets: int64 categoryId past 2^53, digit for digit', () => {
  // JSON.stringify cannot write these: the raw text goes as is, and the answers are compared as text.
  it.each([
    ['2^53', '9007199254740992'],
    ['2^53 + 1', '9007199254740993'],
    ['-(2^53 + 1)', '-9007199254740993'],
    ['int64 max', '9223372036854775807'],
    ['int64 min', '-9223372036854775808'],
  ])('%s -> 201, created and read back with the same digits', async (_label, digits) => {
    const res = await sb.op('createPet', '/pets', postRaw(`{"name":"Big","categoryId":${digits}}`));
    expect(res.status, res.text).toBe(201);
    const id = Number(/"id":(\d+)/.exec(res.text)?.[1]);
    expect(res.text).toBe(`{"id":${id},"name":"Big","categoryId":${digits}}`);
    expect((await sb.op('getPet', `/pets/${id}`)).text).toBe(res.text);
  });
});

describe('POST /v1/pets: rejected bodies', () => {
  it.each([
    ['client id', { id: 999, name: 'Rex', categoryId: 1 }, 'id'],
    ['unknown field', { name: 'Rex', categoryId: 1, color: 'red' }, 'color'],
    ['missing name', { categoryId: 1 }, 'name'],
    ['missing categoryId', { name: 'Rex' }, 'categoryId'],
    ['name number', { name: 5, categoryId: 1 }, 'name'],
    ['name null', { name: null, categoryId: 1 }, 'name'],
    ['categoryId string', { name: 'Rex', categoryId: '1' }, 'categoryId'],
    ['categoryId fraction', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
    ['categoryId null', { name: 'Rex', categoryId: null }, 'categoryId'],
    ['categoryId boolean', { name: 'Rex', categoryId: true }, 'categoryId'],
    ['status unknown', { name: 'Rex', categoryId: 1, status: 'lost' }, 'status'],
    ['status null', { name: 'Rex', categoryId: 1, status: null }, 'status'],
    ['status number', { name: 'Rex', categoryId: 1, status: 1 }, 'status'],
  ])('%s -> 400 Error naming the field', async (_label, input, field) => {
    expectErrorNaming(await sb.op('createPet', '/pets', post(input)), 400, 'invalid_request', field);
  });

  // JSON.stringify cannot write these: the raw text must reach the server digit for digit.
  it.each([
    ['2^63', '9223372036854775808'],
    ['-(2^63) - 1', '-9223372036854775809'],
    ['2^64', '18446744073709551616'],
    ['past 2^53 with an exponent', '9.2e18'],
    ['1e400', '1e400'],
  ])('categoryId %s (outside int64, or not in plain digits) -> 400 naming categoryId, never rounded', async (_label, digits) => {
    const res = await sb.op('createPet', '/pets', postRaw(`{"name":"Big","categoryId":${digits}}`));
    expectErrorNaming(res, 400, 'invalid_request', 'categoryId');
  });

  it.each([
    ['not JSON', '{"name":'],
    ['single quotes', "{'name':'Rex','categoryId':1}"],
    ['trailing comma', '{"name":"Rex","categoryId":1,}'],
    ['JSON null', 'null'],
    ['JSON string', '"Rex"'],
    ['JSON number', '42'],
    ['JSON array', '[{"name":"Rex","categoryId":1}]'],
  ])('%s -> 400 Error', async (_label, body) => {
    expectError(await sb.op('createPet', '/pets', postRaw(body)), 400, 'invalid_request');
  });

  it.each([
    ['no body, no Content-Type', { method: 'POST' }],
    ['no body with application/json', { method: 'POST', headers: { 'content-type': 'application/json' } }],
    ['empty body', postRaw('')],
  ])('missing body (%s) -> 400 Error', async (_label, init) => {
    expectError(await sb.op('createPet', '/pets', init), 400, 'invalid_request');
  });

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'Content-Type %s -> 415 Error',
    async (contentType) => {
      expectError(await sb.op('createPet', '/pets', postRaw('{"name":"Rex","categoryId":1}', contentType)), 415, 'unsupported_media_type');
    },
  );
});

describe('POST /v1/pets: body size limit (102400 bytes by default)', () => {
  const sized = (bytes: number) => {
    const frame = '{"name":"","categoryId":1}';
    return `{"name":"${'x'.repeat(bytes - frame.length)}","categoryId":1}`;
  };

  it('a body of exactly 102400 bytes is accepted', async () => {
    const body = sized(102400);
    expect(Buffer.byteLength(body)).toBe(102400);
    expect((await sb.op('createPet', '/pets', postRaw(body))).status).toBe(201);
  });

  it.each([102401, 200_000, 1_000_000])('a body of %i bytes -> 413 Error', async (bytes) => {
    expectError(await sb.op('createPet', '/pets', postRaw(sized(bytes))), 413, 'payload_too_large');
  });

  it('--body-limit moves the limit', async () => {
    const small = await startTestSandbox(['--body-limit', '2048']);
    try {
      expect((await small.op('createPet', '/pets', postRaw(sized(2048)))).status).toBe(201);
      expectError(await small.op('createPet', '/pets', postRaw(sized(2049))), 413, 'payload_too_large');
    } finally {
      await small.stop();
    }
  });
});
