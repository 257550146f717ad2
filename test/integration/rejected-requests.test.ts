import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type CallInit, type TestSandbox } from '../support/harness.js';
import { post, postRaw } from '../support/error-check.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

/** Every file in the data folder, byte for byte. */
const snapshot = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f)).toString('base64')]),
  );

// [label, operation whose spec the answer is checked against, path, request, status]
const REJECTED: [string, string, string, CallInit, number][] = [
  ['body with id', 'createPet', '/pets', post({ id: 7, name: 'Rex', categoryId: 1 }), 400],
  ['unknown field', 'createPet', '/pets', post({ name: 'Rex', categoryId: 1, owner: 'me' }), 400],
  ['missing name', 'createPet', '/pets', post({ categoryId: 1 }), 400],
  ['categoryId past int64', 'createPet', '/pets', postRaw('{"name":"Big","categoryId":9223372036854775808}'), 400],
  ['malformed JSON', 'createPet', '/pets', postRaw('{"name":"Rex",'), 400],
  ['missing body', 'createPet', '/pets', { method: 'POST' }, 400],
  ['valid body, no key', 'createPet', '/pets', { ...post({ name: 'Rex', categoryId: 1 }), key: null }, 401],
  ['valid body, wrong key', 'createPet', '/pets', { ...post({ name: 'Rex', categoryId: 1 }), key: 'wrong-key' }, 401],
  ['too large', 'createPet', '/pets', postRaw(`{"name":"${'x'.repeat(120_000)}","categoryId":1}`), 413],
  ['text/plain', 'createPet', '/pets', postRaw('{"name":"Rex","categoryId":1}', 'text/plain'), 415],
  ['DELETE a pet', 'getPet', '/pets/1', { method: 'DELETE' }, 405],
  ['PUT a pet', 'getPet', '/pets/1', { method: 'PUT', json: { name: 'Changed', categoryId: 1 } }, 405],
  ['POST to the store area', 'listPets', '/store/orders', post({ petId: 1 }), 501],
];

describe('rejected requests change nothing stored', () => {
  it('the data folder, the listing and the next id are exactly as before', async () => {
    const filesBefore = snapshot(sb.dir);
    const listBefore = (await sb.op('listPets', '/pets?limit=100')).body;
    for (const [label, operationId, path, init, status] of REJECTED) {
      const res = await sb.op(operationId, path, init);
      expect(res.status, `${label}: ${res.text}`).toBe(status);
    }
    expect(snapshot(sb.dir)).toEqual(filesBefore);
    expect((await sb.op('listPets', '/pets?limit=100')).body).toEqual(listBefore);
    // No id was consumed by a refused create.
    const next = await sb.op('createPet', '/pets', post({ name: 'First accepted', categoryId: 1 }));
    expect(next.body.id).toBe(51);
  });
});
