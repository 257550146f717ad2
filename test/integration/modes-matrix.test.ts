/**
 * Every operation and every documented status, in every mode, over real
 * HTTP, each response checked against the spec by the independent checker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Proxy mode answers nothing itself: proxy.test.ts covers it.
import { ANSWERING_MODES as MODES, type Mode } from '../../src/config/load.js';
import { startTestSandbox, type CallInit, type CallResult, type TestSandbox } from '../support/harness.js';
import { documentedStatuses } from '../support/spec-check.js';

const STARTUP_MS = 120_000;
const sandboxes = new Map<Mode, TestSandbox>();
const sb = (mode: Mode) => sandboxes.get(mode) as TestSandbox;

beforeAll(async () => {
  for (const mode of MODES) sandboxes.set(mode, await startTestSandbox(['--mode', mode]));
}, STARTUP_MS);
afterAll(async () => {
  for (const s of sandboxes.values()) await s.stop();
});

/** A valid request to each operation; `init` adds headers or replaces the key. */
const CALLS: Record<string, (s: TestSandbox, init?: CallInit) => Promise<CallResult>> = {
  listPets: (s, init) => s.op('listPets', '/pets', init),
  createPet: (s, init) => s.op('createPet', '/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 }, ...init }),
  getPet: (s, init) => s.op('getPet', '/pets/1', init),
};

/** The sandbox's Error code for each status the spec documents. */
const ERROR_CODE: Record<number, string> = { 400: 'invalid_request', 401: 'unauthorized', 404: 'not_found' };

const statuses = await documentedStatuses();

describe.each(MODES)('%s mode', { timeout: 60_000 }, (mode) => {
  it('has a call for every operation of the spec', () => {
    expect(Object.keys(CALLS).sort()).toEqual([...statuses.keys()].sort());
  });

  for (const [operationId, codes] of statuses) {
    for (const code of codes) {
      it(`${operationId}: Prefer: code=${code} answers a spec-valid ${code}`, async () => {
        const res = await (CALLS[operationId] as (typeof CALLS)[string])(sb(mode), { headers: { prefer: `code=${code}` } });
        expect(res.status).toBe(code);
        if (code >= 400) expect(res.body).toMatchObject({ code: ERROR_CODE[code], status: code });
        if (code === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer');
      });
    }
  }

  it('answers each operation without Prefer with its success status', async () => {
    expect((await (CALLS.listPets as (typeof CALLS)[string])(sb(mode))).status).toBe(200);
    expect((await (CALLS.createPet as (typeof CALLS)[string])(sb(mode))).status).toBe(201);
    expect((await (CALLS.getPet as (typeof CALLS)[string])(sb(mode))).status).toBe(200);
  });

  it('answers the real error conditions as stateful mode does', async () => {
    const s = sb(mode);
    const cases: [string, string, CallInit, number, string][] = [
      ['listPets', '/pets?limit=0', {}, 400, 'invalid_request'],
      ['listPets', '/pets?status=lost', {}, 400, 'invalid_request'],
      ['createPet', '/pets', { method: 'POST', json: { name: 'Rex' } }, 400, 'invalid_request'],
      ['createPet', '/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1, id: 5 } }, 400, 'invalid_request'],
      ['createPet', '/pets', { method: 'POST' }, 400, 'invalid_request'],
      ['getPet', '/pets/abc', {}, 404, 'not_found'],
      ['getPet', '/pets/0', {}, 404, 'not_found'],
    ];
    for (const [operationId, path, init, status, code] of cases) {
      const res = await s.op(operationId, path, init);
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status, code });
    }
  });
});

describe('the same in every mode', { timeout: 60_000 }, () => {
  it('a missing or wrong key gets the identical 401 body and WWW-Authenticate', async () => {
    for (const [operationId, call] of Object.entries(CALLS)) {
      for (const key of [null, 'wrong-key']) {
        const answers = await Promise.all(MODES.map((mode) => call(sb(mode), { key })));
        for (const res of answers) {
          expect(res.status, operationId).toBe(401);
          expect(res.headers.get('www-authenticate')).toBe('Bearer');
          expect(res.body).toEqual(answers[0]?.body);
        }
      }
    }
  });

  it('getPet carries one Deprecation, Sunset and Link header, as the spec pins them', async () => {
    const pinned = { deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };
    for (const mode of MODES) {
      for (const init of [{}, { headers: { prefer: 'code=404' } }, { headers: { prefer: 'code=401' } }, { key: null }]) {
        const res = await (CALLS.getPet as (typeof CALLS)[string])(sb(mode), init);
        const seen = { deprecation: res.headers.get('deprecation'), sunset: res.headers.get('sunset'), link: res.headers.get('link') };
        expect({ mode, init, ...seen }).toEqual({ mode, init, ...pinned });
      }
    }
  });

  it('Prism modes pass through no header the spec does not document', async () => {
    for (const mode of ['example', 'dynamic'] as const) {
      const res = await (CALLS.getPet as (typeof CALLS)[string])(sb(mode));
      const names = [...res.headers.keys()].filter(
        (n) =>
          ![
            'content-type',
            'content-length',
            'date',
            'connection',
            'keep-alive',
            'access-control-allow-origin',
            'access-control-expose-headers',
            'vary',
            // The sandbox's own, in every mode (the request log's id).
            'x-request-id',
          ].includes(n),
      );
      expect(names.sort()).toEqual(['deprecation', 'link', 'sunset']);
    }
  });
});
