/**
 * `Prefer` parity: named examples, undocumented codes, forced answers in
 * stateful mode that leave the store alone, and switching modes at run time.
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// Proxy mode answers nothing itself: proxy.test.ts covers it.
import { ANSWERING_MODES as MODES } from '../../src/config/load.js';
import { startTestSandbox, type CallInit, type TestSandbox } from '../support/harness.js';
import { SPEC_PATH } from '../support/spec-check.js';

/** The spec as YAML gives it: read by path, each read asserted by the test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox(['--mode', 'stateful']);
}, 120_000);
afterAll(() => sb.stop());

/** Where each operation is called with a valid request. */
const CALLS: Record<string, [string, CallInit]> = {
  listPets: ['/pets', {}],
  createPet: ['/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }],
  getPet: ['/pets/1', {}],
};

/** Every named example of every response, read from the spec itself: [operationId, status, name, value]. */
const doc = (await $RefParser.dereference(parse(readFileSync(SPEC_PATH, 'utf8')))) as Json;
const EXAMPLES: [string, number, string, unknown][] = [];
for (const item of Object.values(doc.paths as Json)) {
  for (const op of Object.values(item as Json)) {
    for (const [status, response] of Object.entries((op as Json).responses as Json)) {
      for (const [name, example] of Object.entries(((response as Json).content?.['application/json']?.examples ?? {}) as Json)) {
        EXAMPLES.push([(op as Json).operationId, Number(status), name, (example as Json).value]);
      }
    }
  }
}

const call = (operationId: string, prefer: string) => {
  const [path, init] = CALLS[operationId] as [string, CallInit];
  return sb.op(operationId, path, { ...init, headers: { prefer } });
};

const listAll = async () => (await sb.op('listPets', '/pets?limit=100')).body as Json[];

// The first forced answer in stateful mode loads Prism (seconds on a busy machine).
const SLOW = { timeout: 60_000 };

describe.each(MODES)('Prefer in %s mode', SLOW, (mode) => {
  beforeAll(() => sb.runtime.set(mode));
  afterAll(() => sb.runtime.set('stateful'));

  it.each(EXAMPLES)('%s: Prefer: code=%i, example=%s answers that example', async (operationId, status, name, value) => {
    const res = await call(operationId, `code=${status}, example=${name}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(value);
  });

  it('Prefer: code=418 is a 400 naming the documented codes', async () => {
    for (const [operationId, codes] of [
      ['listPets', '200, 400, 401'],
      ['createPet', '201, 400, 401'],
      ['getPet', '200, 401, 404'],
    ] as const) {
      const res = await call(operationId, 'code=418');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.message).toContain('code=418');
      expect(res.body.message).toContain(`documented codes: ${codes}.`);
    }
  });

  it('malformed preferences and unknown example names are a 400 saying what is wrong', async () => {
    const cases: [string, string, string][] = [
      ['listPets', 'code=abc', 'documented codes: 200, 400, 401'],
      ['listPets', 'dynamic=maybe', 'true or false'],
      ['listPets', 'example=nope', 'its examples: default, mixed, sold, empty'],
      ['getPet', 'code=404, example=dog', 'its examples: notFound'],
    ];
    for (const [operationId, prefer, says] of cases) {
      const res = await call(operationId, prefer);
      expect({ prefer, status: res.status, code: res.body.code }).toEqual({ prefer, status: 400, code: 'invalid_request' });
      expect(res.body.message).toContain(says);
    }
  });

  it('ignores preferences it does not know (RFC 7240)', async () => {
    const res = await call('listPets', 'return=minimal, wait=5');
    expect(res.status).toBe(200);
  });
});

describe('Prism combinations in example mode', SLOW, () => {
  beforeAll(() => sb.runtime.set('example'));
  afterAll(() => sb.runtime.set('stateful'));

  it('Prefer: code=200, dynamic=true, seed=5 generates a body, the same one twice, not the example', async () => {
    const once = await call('getPet', 'code=200, dynamic=true, seed=5');
    const twice = await call('getPet', 'code=200, dynamic=true, seed=5');
    expect(once.status).toBe(200);
    expect(once.body).toEqual(twice.body);
    expect(once.body).not.toEqual((await call('getPet', 'code=200')).body);
  });

  it('Prefer: example=<name> alone picks from the success response', async () => {
    const res = await call('listPets', 'example=empty');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('Prefer in stateful mode leaves the store alone', SLOW, () => {
  it('Prefer: code=201 on createPet answers the example and adds no pet', async () => {
    const before = await listAll();
    const res = await call('createPet', 'code=201');
    expect(res.status).toBe(201);
    expect(res.body).toEqual(doc.paths['/pets'].post.responses['201'].content['application/json'].schema.example);
    expect(await listAll()).toEqual(before);
    // No id was used up either: the next real pet gets the next free one.
    const created = await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Real', categoryId: 2 } });
    expect(created.body.id).toBe(Math.max(0, ...before.map((p) => p.id as number)) + 1);
  });

  it('Prefer: code=404 on an existing pet answers 404 and the pet is still there', async () => {
    expect((await call('getPet', 'code=404')).status).toBe(404);
    expect((await sb.op('getPet', '/pets/1')).status).toBe(200);
  });

  it('Prefer: code=401 with a valid key forces the documented 401 and WWW-Authenticate', async () => {
    const res = await call('listPets', 'code=401');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body.code).toBe('unauthorized');
  });

  it('Prefer: dynamic=true alone does not replace stored data', async () => {
    const res = await call('getPet', 'dynamic=true');
    expect(res.body).toEqual((await sb.op('getPet', '/pets/1')).body);
  });

  it('switching to example mode and back keeps the stored data untouched', async () => {
    const before = await listAll();
    await sb.runtime.set('example');
    try {
      const listed = await listAll();
      expect(listed).not.toEqual(before);
      expect((await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Ghost', categoryId: 9 } })).status).toBe(201);
    } finally {
      await sb.runtime.set('stateful');
    }
    expect(await listAll()).toEqual(before);
  });
});

describe('CORS', () => {
  it('allows the Prefer header in a preflight', async () => {
    const res = await fetch(`${sb.baseUrl}/pets`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, prefer' },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('prefer');
  });
});
