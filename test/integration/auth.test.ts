import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startSandbox } from '../../src/server/sandbox.js';
import { startTestSandbox, tempDir, type CallInit, type CallResult, type TestSandbox } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';
import { expectError, post } from '../support/error-check.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

const OPERATIONS: [string, string, CallInit][] = [
  ['listPets', '/pets', {}],
  ['createPet', '/pets', post({ name: 'Rex', categoryId: 1 })],
  ['getPet', '/pets/1', {}],
];

const REFUSED: [string, CallInit][] = [
  ['missing', { key: null }],
  ['wrong key', { key: 'not-the-key' }],
  ['key with other case', { key: 'SANDBOX-KEY' }],
  ['key prefix', { key: 'sandbox-ke' }],
  ['key with suffix', { key: 'sandbox-key1' }],
  ['Basic scheme', { key: null, headers: { authorization: `Basic ${Buffer.from('sandbox-key:').toString('base64')}` } }],
  ['no scheme', { key: null, headers: { authorization: 'sandbox-key' } }],
  ['Bearer without token', { key: null, headers: { authorization: 'Bearer' } }],
  ['Bearer with blank token', { key: null, headers: { authorization: 'Bearer    ' } }],
  ['two tokens', { key: null, headers: { authorization: 'Bearer sandbox-key other' } }],
  ['token with a comma', { key: null, headers: { authorization: 'Bearer sandbox-key,' } }],
  ['empty header', { key: null, headers: { authorization: '' } }],
];

function expectUnauthorized(res: CallResult): void {
  expectError(res, 401, 'unauthorized');
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
}

describe('every operation refuses a missing, wrong or malformed key', () => {
  for (const [operationId, path, init] of OPERATIONS) {
    it.each(REFUSED)(`${operationId}: %s -> 401 Error + WWW-Authenticate: Bearer`, async (_label, auth) => {
      const res = await sb.op(operationId, path, { ...init, ...auth, headers: { ...(init.headers as object), ...(auth.headers as object) } });
      expectUnauthorized(res);
    });
  }

  it.each(OPERATIONS)('%s accepts the key with a lower-case scheme', async (operationId, path, init) => {
    const res = await sb.op(operationId, path, { ...init, key: null, headers: { ...(init.headers as object), authorization: 'bearer sandbox-key' } });
    expect(res.status).toBeLessThan(300);
  });
});

describe('authentication comes before anything else is looked at', () => {
  it.each([
    ['an invalid body', 'createPet', '/pets', post({ id: 1 })],
    ['a wrong Content-Type', 'createPet', '/pets', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }],
    ['an oversized body', 'createPet', '/pets', { method: 'POST', body: `"${'x'.repeat(200_000)}"`, headers: { 'content-type': 'application/json' } }],
    ['an invalid query', 'listPets', '/pets?limit=0', {}],
    ['a malformed id', 'getPet', '/pets/abc', {}],
  ])('%s without a key -> 401', async (_label, operationId, path, init) => {
    expectUnauthorized(await sb.op(operationId, path, { ...init, key: null }));
  });

  it('a refused POST creates nothing', async () => {
    await sb.op('createPet', '/pets', { ...post({ name: 'Ghost', categoryId: 1 }), key: 'not-the-key' });
    const next = await sb.op('createPet', '/pets', post({ name: 'Real', categoryId: 1 }));
    const list = await sb.op('listPets', '/pets?limit=100');
    expect((list.body as { name: string }[]).map((p) => p.name)).not.toContain('Ghost');
    expect(list.body).toContainEqual(next.body);
  });
});

describe('GET /v1/store/orders', () => {
  it('without a key -> 401 Error', async () => {
    // Outside the documented operations: checked against the Error schema through listPets' 401.
    expectUnauthorized(await sb.op('listPets', '/store/orders', { key: null }));
  });

  it.each([
    ['GET', '/store/orders'],
    ['POST', '/store/orders'],
    ['GET', '/store/orders/1'],
  ])('%s %s with a key -> 501 not_implemented', async (method, path) => {
    expectError(await sb.op('listPets', path, { method }), 501, 'not_implemented');
  });
});

describe('accepted keys come from the configuration', () => {
  it('--api-keys a,b: both keys work on every operation, the default key no longer does', async () => {
    const keyed = await startTestSandbox(['--api-keys', 'alpha-key,beta-key']);
    try {
      for (const key of ['alpha-key', 'beta-key']) {
        for (const [operationId, path, init] of OPERATIONS) expect((await keyed.op(operationId, path, { ...init, key })).status).toBeLessThan(300);
      }
      for (const [operationId, path, init] of OPERATIONS) expectUnauthorized(await keyed.op(operationId, path, { ...init, key: 'sandbox-key' }));
    } finally {
      await keyed.stop();
    }
  });

  async function statusesWith(argv: string[], env: Record<string, string>, keys: string[]): Promise<number[]> {
    const config = loadConfig(['--port', '0', '--data', join(tempDir(), 'db.json'), ...argv], env).config;
    const sandbox = await startSandbox(config);
    try {
      const statuses: number[] = [];
      for (const key of keys) {
        const res = await fetch(`${sandbox.baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        const checked = { status: res.status, headers: res.headers, body: await res.json() };
        await expectSpecValid('listPets', checked);
        statuses.push(res.status);
      }
      return statuses;
    } finally {
      await sandbox.close();
    }
  }

  it('PETSTORE_API_KEYS sets the keys', async () => {
    expect(await statusesWith([], { PETSTORE_API_KEYS: 'env-one,env-two' }, ['env-one', 'env-two', 'sandbox-key'])).toEqual([200, 200, 401]);
  });

  it('--api-keys wins over PETSTORE_API_KEYS', async () => {
    expect(await statusesWith(['--api-keys', 'flag-key'], { PETSTORE_API_KEYS: 'env-one' }, ['flag-key', 'env-one'])).toEqual([200, 401]);
  });
});
