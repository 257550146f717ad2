/**
 * Faults without HTTP: what `add` accepts and refuses, and what the
 * interceptor does to the requests of the fault's workspace and operation,
 * called directly as the pipeline calls it.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/kernel/errors.js';
import { applyFirst, Faults, type Fault, type FaultInput } from '../../../src/store/faults.js';
import { operationRequest, spec } from '../../support/operation-request.js';

const workspaceOf = (key: string) => `ws-of-${key}`;
const A = workspaceOf('key-a');
const createFaults = () => new Faults(spec.operations, workspaceOf);
const getPet = (key = 'key-a') => operationRequest('getPet', { key, path: { petId: 1 } });

/** What the interceptor does with one request: `passes` (the mode answers) or the error it throws. */
async function outcome(faults: Faults, request = getPet()): Promise<'passes' | ApiError> {
  try {
    const reply = await faults.interceptor(request, 'stateful');
    expect(reply).toBeUndefined();
    return 'passes';
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
}

/** The 400 message `add` refuses this input with. */
function refusal(input: Record<string, unknown>): string {
  try {
    createFaults().add(A, input as unknown as FaultInput);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toMatchObject({ code: 'invalid_request', status: 400 });
    return (error as ApiError).message;
  }
  throw new Error(`${JSON.stringify(input)} was accepted`);
}

describe('Faults.add', () => {
  it('keeps a valid fault, numbered, in its workspace only', () => {
    const faults = createFaults();
    const first = faults.add(A, { operationId: 'getPet', status: 503 });
    const second = faults.add(A, { operationId: 'listPets', latencyMs: { min: 0, max: 10 }, count: 2, rate: 0.5 });
    expect(first).toEqual({ id: 1, operationId: 'getPet', status: 503, applied: 0 });
    expect(second).toMatchObject({ id: 2, latencyMs: { min: 0, max: 10 }, count: 2, rate: 0.5, applied: 0 });
    expect(faults.list(A).map((f) => f.id)).toEqual([1, 2]);
    expect(faults.list(workspaceOf('key-b'))).toEqual([]);
  });

  it.each<[FaultInput, string]>([
    [{ operationId: 'getPet', status: 404 }, 'a status the operation documents'],
    [{ operationId: 'getPet', status: 401 }, 'the 401 of an authenticated operation'],
    [{ operationId: 'createPet', status: 400 }, 'a documented 400'],
    ...[500, 502, 503, 504].map((status): [FaultInput, string] => [{ operationId: 'listPets', status }, 'an outage status']),
    [{ operationId: 'getPet', latencyMs: 0 }, 'no delay at all'],
    [{ operationId: 'getPet', latencyMs: 60_000 }, 'the longest delay'],
    [{ operationId: 'getPet', latencyMs: { min: 5, max: 5 } }, 'a range of one value'],
    [{ operationId: 'getPet', status: 503, count: 1, rate: 1 }, 'a count of 1 and a rate of 1'],
  ])('accepts %j (%s)', (input) => {
    expect(() => createFaults().add(A, input)).not.toThrow();
  });

  it.each([
    [{ operationId: 'getPet', status: 503, extra: true }, "Unknown fault property 'extra'"],
    [{ operationId: 'deletePet', status: 503 }, "Unknown operationId 'deletePet'; one of: "],
    [{ operationId: 'getPet' }, 'A fault needs "latencyMs" and/or "status".'],
    [{ operationId: 'getPet', count: 1 }, 'A fault needs "latencyMs" and/or "status".'],
    [{ operationId: 'getPet', latencyMs: -1 }, '"latencyMs" must be a number or {min, max} with 0 <= min <= max <= 60000.'],
    [{ operationId: 'getPet', latencyMs: 60_001 }, '"latencyMs" must be'],
    [{ operationId: 'getPet', latencyMs: Number.NaN }, '"latencyMs" must be'],
    [{ operationId: 'getPet', latencyMs: '100' }, '"latencyMs" must be'],
    [{ operationId: 'getPet', latencyMs: null }, '"latencyMs" must be'],
    [{ operationId: 'getPet', latencyMs: { min: 10, max: 5 } }, '"latencyMs" must be'],
    [{ operationId: 'getPet', latencyMs: { min: 10 } }, '"latencyMs" must be'],
    [{ operationId: 'getPet', latencyMs: { min: 0, max: 10, step: 1 } }, '"latencyMs" must be'],
    [{ operationId: 'getPet', status: 200 }, 'Status 200 cannot be forced on getPet; allowed: 401, 404, 500, 502, 503, 504.'],
    [{ operationId: 'getPet', status: 418 }, 'Status 418 cannot be forced on getPet'],
    [{ operationId: 'getPet', status: 400 }, 'Status 400 cannot be forced on getPet'],
    [{ operationId: 'getPet', status: 503, count: 0 }, '"count" must be a positive integer.'],
    [{ operationId: 'getPet', status: 503, count: 1.5 }, '"count" must be a positive integer.'],
    [{ operationId: 'getPet', status: 503, rate: 0 }, '"rate" must be greater than 0 and at most 1.'],
    [{ operationId: 'getPet', status: 503, rate: 1.01 }, '"rate" must be'],
    [{ operationId: 'getPet', status: 503, rate: '0.5' }, '"rate" must be'],
  ])('refuses %j', (input, message) => {
    expect(refusal(input)).toContain(message);
  });

  it('keeps nothing it refused', () => {
    const faults = createFaults();
    expect(() => faults.add(A, { operationId: 'getPet', status: 418 })).toThrow(ApiError);
    expect(faults.list(A)).toEqual([]);
  });
});

describe('Faults.clear', () => {
  it('removes one fault by id, or all of a workspace, and says how many', () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status: 503 });
    faults.add(A, { operationId: 'getPet', status: 500 });
    const other = workspaceOf('key-b');
    faults.add(other, { operationId: 'getPet', status: 503 });
    expect(faults.clear(A, 99)).toBe(0);
    expect(faults.clear(A, 1)).toBe(1);
    expect(faults.list(A).map((f) => f.id)).toEqual([2]);
    expect(faults.clear(A)).toBe(1);
    expect(faults.list(A)).toEqual([]);
    expect(faults.list(other)).toHaveLength(1);
  });
});

describe('the faults interceptor', () => {
  it('lets every request through when its workspace has no fault', async () => {
    const faults = createFaults();
    faults.add(workspaceOf('key-b'), { operationId: 'getPet', status: 503 });
    expect(await outcome(faults)).toBe('passes');
  });

  it('answers a forced status with its catalogue code, naming the fault; other operations pass', async () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status: 503 });
    const error = await outcome(faults);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toEqual({
      code: 'service_unavailable',
      status: 503,
      message: 'Fault injected by the sandbox (fault 1): getPet answers 503.',
    });
    expect(await outcome(faults, operationRequest('listPets', { key: 'key-a' }))).toBe('passes');
  });

  it.each([
    [502, 'internal', {}],
    [404, 'not_found', {}],
    [401, 'unauthorized', { 'WWW-Authenticate': 'Bearer' }],
  ])('forces %i as %s with headers %j', async (status, code, headers) => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status });
    const error = (await outcome(faults)) as ApiError;
    expect([error.status, error.code, error.headers]).toEqual([status, code, headers]);
  });

  it('applies a counted fault that many times, then removes it', async () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status: 500, count: 2 });
    expect(await outcome(faults)).toBeInstanceOf(ApiError);
    expect(faults.list(A)[0]?.applied).toBe(1);
    expect(await outcome(faults)).toBeInstanceOf(ApiError);
    expect(faults.list(A)).toEqual([]);
    expect(await outcome(faults)).toBe('passes');
  });

  it('applies the first matching fault; the next one takes over when it is used up', async () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status: 503, count: 1 });
    faults.add(A, { operationId: 'getPet', status: 504 });
    expect(((await outcome(faults)) as ApiError).status).toBe(503);
    expect(((await outcome(faults)) as ApiError).status).toBe(504);
    expect(((await outcome(faults)) as ApiError).status).toBe(504);
  });

  it('lets a delay-only fault through to the mode, counting it', async () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', latencyMs: { min: 0, max: 2 }, count: 3 });
    expect(await outcome(faults)).toBe('passes');
    expect(faults.list(A)[0]?.applied).toBe(1);
  });

  it('applies a fault with a rate to about that fraction of requests, and to all with rate 1', async () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status: 503, rate: 0.25 });
    const runs = 2000;
    let failed = 0;
    for (let i = 0; i < runs; i++) if ((await outcome(faults)) !== 'passes') failed++;
    // 500 expected; the bounds are 10 standard deviations (about 19) away, so a correct
    // implementation never fails here, while rate ignored (2000) or inverted (1500) always does.
    expect(failed).toBeGreaterThan(300);
    expect(failed).toBeLessThan(700);
    expect(faults.list(A)[0]?.applied).toBe(failed);
    faults.clear(A);
    faults.add(A, { operationId: 'getPet', status: 503, rate: 1 });
    for (let i = 0; i < 50; i++) expect(await outcome(faults)).not.toBe('passes');
  });

  it('counts only the requests a rated fault applied to', async () => {
    const faults = createFaults();
    faults.add(A, { operationId: 'getPet', status: 503, rate: 0.5, count: 5 });
    let failed = 0;
    for (let i = 0; i < 400; i++) if ((await outcome(faults)) !== 'passes') failed++;
    expect(failed).toBe(5);
    expect(faults.list(A)).toEqual([]);
  });
});

describe('applyFirst, the apply loop every store shares', () => {
  const fault = (id: number, operationId: string, status: number): Fault => ({ id, operationId, status, applied: 0 });
  const listPetsFault = fault(1, 'listPets', 500);

  it("enacts the first fault of the request's operation that the store grants, skipping those it does not", async () => {
    const asked: number[] = [];
    const faults = [listPetsFault, fault(2, 'getPet', 503), fault(3, 'getPet', 500), fault(4, 'getPet', 502)];
    const error = await applyFirst(faults, getPet(), (f) => {
      asked.push(f.id);
      // Fault 2 was used up through another instance.
      return Promise.resolve(f.id === 2 ? undefined : { ...f, applied: 7 });
    }).catch((e: unknown) => e);
    expect(asked).toEqual([2, 3]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody()).toMatchObject({ status: 500, message: 'Fault injected by the sandbox (fault 3): getPet answers 500.' });
  });

  it('passes when no fault of the operation is granted, asking none of the other operations', async () => {
    const asked: number[] = [];
    await expect(
      applyFirst([listPetsFault, fault(2, 'getPet', 503)], getPet(), (f) => {
        asked.push(f.id);
        return undefined;
      }),
    ).resolves.toBeUndefined();
    expect(asked).toEqual([2]);
  });
});
