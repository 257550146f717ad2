/**
 * Dynamic mode: bodies generated from the schemas, the same for the same
 * request and seed, different for another seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type CallInit, type TestSandbox } from '../support/harness.js';

const started: TestSandbox[] = [];
const start = async (seed: string) => {
  const sb = await startTestSandbox(['--mode', 'dynamic', '--seed', seed]);
  started.push(sb);
  return sb;
};
let sb: TestSandbox;
beforeAll(async () => {
  sb = await start('42');
}, 120_000);
afterAll(async () => {
  for (const s of started) await s.stop();
});

const REQUESTS: [string, string, CallInit][] = [
  ['listPets', '/pets', {}],
  ['listPets', '/pets?status=sold&limit=3', {}],
  ['createPet', '/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }],
  ['getPet', '/pets/7', {}],
];

const bodies = (s: TestSandbox, init: CallInit = {}) =>
  Promise.all(REQUESTS.map(async ([operationId, path, base]) => (await s.op(operationId, path, { ...base, ...init })).body as unknown));

describe('dynamic mode', { timeout: 60_000 }, () => {
  it('answers generated, spec-valid bodies, not the examples', async () => {
    const res = await sb.op('getPet', '/pets/1');
    expect(res.status).toBe(200);
    expect(res.body).not.toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
  });

  it('gives identical bodies for identical requests with a seed', async () => {
    expect(await bodies(sb)).toEqual(await bodies(sb));
  });

  it('gives the same bodies after a restart with the same seed, other bodies with another seed', async () => {
    const first = await bodies(sb);
    expect(await bodies(await start('42'))).toEqual(first);
    const other = await bodies(await start('43'));
    for (const [i, body] of other.entries()) expect(body, String(REQUESTS[i]?.[1])).not.toEqual(first[i]);
  });

  it('gives different requests different bodies', async () => {
    const [a, b] = await Promise.all([sb.op('getPet', '/pets/7'), sb.op('getPet', '/pets/8')]);
    expect(a.body).not.toEqual(b.body);
  });

  it('Prefer: seed=... chooses the seed, as in Prism', async () => {
    const seeded = async (seed: string) => (await sb.op('listPets', '/pets', { headers: { prefer: `seed=${seed}` } })).body as unknown;
    expect(await seeded('7')).toEqual(await seeded('7'));
    expect(await seeded('7')).not.toEqual(await seeded('8'));
  });

  it('Prefer: dynamic=false answers the examples', async () => {
    const res = await sb.op('getPet', '/pets/1', { headers: { prefer: 'dynamic=false' } });
    expect(res.body).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
  });

  it('forced errors keep the sandbox error codes', async () => {
    for (const [operationId, path, init, status, code] of [
      ['getPet', '/pets/1', {}, 404, 'not_found'],
      ['createPet', '/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }, 400, 'invalid_request'],
      ['listPets', '/pets', {}, 401, 'unauthorized'],
    ] as const) {
      const res = await sb.op(operationId, path, { ...init, headers: { prefer: `code=${status}` } });
      expect(res.body).toMatchObject({ code, status });
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'status']);
    }
  });
});
