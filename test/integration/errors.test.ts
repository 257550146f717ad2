import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type CallInit, type TestSandbox } from '../support/harness.js';
import { expectError, post, postRaw } from '../support/error-check.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

// Paths outside the spec's operations are checked against the spec's Error
// schema: listPets documents neither 404, 405, 413 nor 431, so its check falls back to Error.
describe('unknown routes', () => {
  it.each(['/nope', '/pets/1/owner', '/PETS', '/Pets/1', '/v2/pets', '', '/'])('GET /v1%s -> 404 Error', async (path) => {
    expectError(await sb.op('listPets', path), 404, 'not_found');
  });

  // GET / points at the docs (test/integration/ui-pages.test.ts).
  it.each(['/nope', '/pets', '/v1pets', '/docs/nope'])('GET %s outside /v1 -> 404 Error, no key needed', async (path) => {
    const res = await fetch(`${sb.origin}${path}`);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(text)).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('wrong method -> 405 Error with Allow', () => {
  it.each([
    ['DELETE', '/pets', ['GET', 'POST']],
    ['PUT', '/pets', ['GET', 'POST']],
    ['PATCH', '/pets', ['GET', 'POST']],
    ['PROPFIND', '/pets', ['GET', 'POST']],
    ['DELETE', '/pets/1', ['GET']],
    ['POST', '/pets/1', ['GET']],
    ['PUT', '/pets/1', ['GET']],
  ])('%s /v1%s', async (method, path, allowed) => {
    const res = await sb.op('listPets', path, { method, ...(method === 'GET' ? {} : { body: '{}', headers: { 'content-type': 'application/json' } }) });
    expectError(res, 405, 'method_not_allowed');
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    expect(allow).toEqual(expect.arrayContaining(allowed));
    expect(allow).not.toContain(method);
  });

  it('a wrong method on a known path does not change the store', async () => {
    await sb.call('/pets', { method: 'DELETE' });
    await sb.call('/pets/1', { method: 'DELETE' });
    expect((await sb.op('getPet', '/pets/1')).status).toBe(200);
    expect((await sb.op('listPets', '/pets?limit=100')).body).toHaveLength(50);
  });
});

describe('every error is a JSON Error whose status equals the HTTP status', () => {
  const cases: [string, string, string, CallInit, number, string][] = [
    ['invalid query', 'listPets', '/pets?limit=0', {}, 400, 'invalid_request'],
    ['invalid body', 'createPet', '/pets', post({ name: 1 }), 400, 'invalid_request'],
    ['malformed JSON', 'createPet', '/pets', postRaw('{'), 400, 'invalid_request'],
    ['undecodable percent-encoding', 'getPet', '/pets/%E0%A4%A', {}, 404, 'not_found'],
    ['missing key', 'listPets', '/pets', { key: null }, 401, 'unauthorized'],
    ['unknown pet', 'getPet', '/pets/777777', {}, 404, 'not_found'],
    ['unknown route', 'listPets', '/unknown', {}, 404, 'not_found'],
    ['wrong method', 'listPets', '/pets', { method: 'DELETE' }, 405, 'method_not_allowed'],
    ['too large', 'createPet', '/pets', postRaw(`"${'x'.repeat(110_000)}"`), 413, 'payload_too_large'],
    ['wrong media type', 'createPet', '/pets', postRaw('<pet/>', 'application/xml'), 415, 'unsupported_media_type'],
    ['unsupported charset', 'createPet', '/pets', postRaw('{}', 'application/json; charset=latin1'), 415, 'unsupported_media_type'],
    ['undescribed store area', 'listPets', '/store/orders', {}, 501, 'not_implemented'],
  ];
  it.each(cases)('%s', async (_label, operationId, path, init, status, code) => {
    const res = await sb.op(operationId, path, init);
    expectError(res, status, code);
  });

  it('request headers too large -> 431 Error, not a bare status line', async () => {
    const res = await sb.op('listPets', '/pets', { headers: { 'x-filler': 'a'.repeat(20_000) } });
    expectError(res, 431, res.body?.code);
    expect(typeof res.body.code).toBe('string');
  });
});
