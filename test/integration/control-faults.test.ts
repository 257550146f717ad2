/**
 * Faults: latency and forced errors per operation and workspace. Timings are
 * never asserted: a fault's `applied` counter shows whether it acted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import { type CallResult, type TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox()));
afterAll(() => sb.stop());
beforeEach(async () => {
  await ctl('DELETE', '/faults', { key: 'key-a' });
  await ctl('DELETE', '/faults', { key: 'key-b' });
});

/** A valid request to each operation, checked against spec/openapi.yaml. */
const CALLS: Record<string, (key?: string) => Promise<CallResult>> = {
  listPets: (key = 'key-a') => sb.op('listPets', '/pets', { key }),
  createPet: (key = 'key-a') => sb.op('createPet', '/pets', { key, method: 'POST', json: { name: 'Rex', categoryId: 1 } }),
  getPet: (key = 'key-a') => sb.op('getPet', '/pets/1', { key }),
};
const call = (operationId: string, key?: string) => (CALLS[operationId] as (key?: string) => Promise<CallResult>)(key);
const addFault = async (fault: Record<string, unknown>, key = 'key-a') => {
  const res = await ctl('POST', '/faults', { key, json: fault });
  expect(res.status).toBe(201);
  return res.body as { id: number; applied: number };
};
const faultsOf = async (key = 'key-a') => (await ctl('GET', '/faults', { key })).body.faults as { id: number; operationId: string; applied: number }[];

/** Every status a fault may force: the operation's documented errors and the outage statuses. */
const FORCIBLE: [string, number][] = [
  ...[401, 500, 502, 503, 504].map((s): [string, number] => ['listPets', s]),
  ...[400, 401, 500, 502, 503, 504].map((s): [string, number] => ['createPet', s]),
  ...[401, 404, 500, 502, 503, 504].map((s): [string, number] => ['getPet', s]),
];

describe('latency', () => {
  it('a fixed latency applies to each matching request, and only those', async () => {
    const fault = await addFault({ operationId: 'listPets', latencyMs: 20 });
    expect(fault).toEqual({ id: fault.id, operationId: 'listPets', latencyMs: 20, applied: 0 });
    for (let i = 0; i < 3; i++) expect((await call('listPets')).status).toBe(200);
    expect((await call('getPet')).status).toBe(200);
    expect(await faultsOf()).toEqual([{ ...fault, applied: 3 }]);
  });

  it('a latency range applies too and leaves responses unchanged', async () => {
    const fault = await addFault({ operationId: 'getPet', latencyMs: { min: 1, max: 30 } });
    const res = await call('getPet');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(1);
    expect((await faultsOf())[0]).toMatchObject({ id: fault.id, latencyMs: { min: 1, max: 30 }, applied: 1 });
  });
});

describe('forced status', () => {
  it.each(FORCIBLE)('%s forced to %i answers a spec-valid Error', async (operationId, status) => {
    await addFault({ operationId, status, count: 1 });
    const res = await call(operationId);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status });
    expect(res.body.message).toMatch(/Fault injected/);
  });

  it('applies to the next N requests, then is removed and requests are normal again', async () => {
    await addFault({ operationId: 'getPet', status: 503, count: 2 });
    expect((await call('getPet')).status).toBe(503);
    expect((await call('getPet')).status).toBe(503);
    expect(await faultsOf()).toEqual([]);
    expect((await call('getPet')).status).toBe(200);
  });

  it('a forced error on createPet stores nothing', async () => {
    const before = (await ctl('GET', '/export', { key: 'key-a' })).text;
    await addFault({ operationId: 'createPet', status: 500 });
    expect((await call('createPet')).status).toBe(500);
    expect((await ctl('GET', '/export', { key: 'key-a' })).text).toBe(before);
  });

  it('latency and status together: delayed, then the error', async () => {
    await addFault({ operationId: 'listPets', latencyMs: 5, status: 502 });
    expect((await call('listPets')).status).toBe(502);
    expect((await faultsOf())[0]?.applied).toBe(1);
  });

  it('rate 1 applies to every request; a tiny rate to (practically) none', async () => {
    await addFault({ operationId: 'listPets', status: 503, rate: 1 });
    await addFault({ operationId: 'getPet', status: 503, rate: 1e-9 });
    for (let i = 0; i < 10; i++) {
      expect((await call('listPets')).status).toBe(503);
      expect((await call('getPet')).status).toBe(200);
    }
    expect((await faultsOf()).map((f) => [f.operationId, f.applied])).toEqual([
      ['listPets', 10],
      ['getPet', 0],
    ]);
  });

  it('acts only on its own workspace', async () => {
    await addFault({ operationId: 'listPets', status: 503 }, 'key-b');
    expect((await call('listPets', 'key-a')).status).toBe(200);
    expect((await call('listPets', 'key-b')).status).toBe(503);
    expect(await faultsOf('key-a')).toEqual([]);
  });
});

describe('listing and clearing', () => {
  it('lists faults in the order added, removes one by id, then all', async () => {
    const a = await addFault({ operationId: 'listPets', latencyMs: 1 });
    const b = await addFault({ operationId: 'createPet', status: 400, count: 3 });
    const c = await addFault({ operationId: 'getPet', status: 404, rate: 0.5 });
    expect((await faultsOf()).map((f) => f.id)).toEqual([a.id, b.id, c.id]);
    expect((await ctl('DELETE', `/faults/${b.id}`, { key: 'key-a' })).body).toMatchObject({ cleared: 1 });
    expect((await faultsOf()).map((f) => f.id)).toEqual([a.id, c.id]);
    expect((await ctl('DELETE', `/faults/${b.id}`, { key: 'key-a' })).status).toBe(404);
    expect((await ctl('DELETE', `/faults/${a.id}`, { key: 'key-b' })).status).toBe(404);
    expect((await ctl('DELETE', '/faults', { key: 'key-a' })).body).toMatchObject({ cleared: 2 });
    expect(await faultsOf()).toEqual([]);
  });

  it('refuses a fault id whose percent-encoding does not decode with a 400 Error, and clears nothing', async () => {
    const a = await addFault({ operationId: 'listPets', latencyMs: 1 });
    const res = await ctl('DELETE', '/faults/%E0%A4%A', { key: 'key-a' });
    expect([res.status, res.body]).toEqual([400, { code: 'invalid_request', status: 400, message: "Malformed request: Failed to decode param '%E0%A4%A'." }]);
    expect((await faultsOf()).map((f) => f.id)).toEqual([a.id]);
  });
});

describe('validation', () => {
  it.each([
    ['an unknown operation', { operationId: 'deletePet', status: 503 }],
    ['neither latency nor status', { operationId: 'listPets' }],
    ['a status the operation cannot answer', { operationId: 'listPets', status: 404 }],
    ['a non-error status', { operationId: 'getPet', status: 200 }],
    ['a latency over 60 s', { operationId: 'listPets', latencyMs: 60_001 }],
    ['a negative latency', { operationId: 'listPets', latencyMs: -1 }],
    ['a range with max below min', { operationId: 'listPets', latencyMs: { min: 10, max: 5 } }],
    ['a latency that is a string', { operationId: 'listPets', latencyMs: '5' }],
    ['a null latency', { operationId: 'listPets', latencyMs: null }],
    ['a range bound that is a string', { operationId: 'listPets', latencyMs: { min: '1', max: '5' } }],
    ['count 0', { operationId: 'listPets', status: 503, count: 0 }],
    ['rate 0', { operationId: 'listPets', status: 503, rate: 0 }],
    ['rate above 1', { operationId: 'listPets', status: 503, rate: 1.5 }],
    ['a rate that is a string', { operationId: 'listPets', status: 503, rate: '0.5' }],
    ['an unknown property', { operationId: 'listPets', status: 503, sttaus: 500 }],
  ])('refuses %s with 400 and adds nothing', async (_name, json) => {
    const res = await ctl('POST', '/faults', { key: 'key-a', json });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(await faultsOf()).toEqual([]);
  });
});

describe('the statuses a fault may force, as GET /operations lists them', () => {
  /** Every error status the spec's FaultInput enum names: the candidates POST /faults is asked about. */
  const CANDIDATES = [400, 401, 404, 500, 502, 503, 504];

  it('lists each operation of the interface with exactly the statuses POST /faults accepts for it (listPets: no 404)', async () => {
    const res = await ctl('GET', '/operations');
    expect(res.status).toBe(200);
    const operations = res.body.operations as { operationId: string; method: string; path: string; faultStatuses: number[] }[];
    expect(operations.map((o) => [o.operationId, o.method, o.path])).toEqual([
      ['listPets', 'GET', '/v1/pets'],
      ['createPet', 'POST', '/v1/pets'],
      ['getPet', 'GET', '/v1/pets/{petId}'],
    ]);
    expect(operations.find((o) => o.operationId === 'listPets')?.faultStatuses).toEqual([400, 401, 500, 502, 503, 504]);
    for (const { operationId, faultStatuses } of operations)
      for (const status of CANDIDATES) {
        const added = await ctl('POST', '/faults', { key: 'key-a', json: { operationId, status, count: 1 } });
        expect([operationId, status, added.status]).toEqual([operationId, status, faultStatuses.includes(status) ? 201 : 400]);
      }
  });
});
