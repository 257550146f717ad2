/**
 * The control checker can fail: each kind of defect it exists to catch is
 * reported. Without this, every control test could pass against a checker
 * that accepts anything.
 */
import { describe, expect, it } from 'vitest';
import { controlProblems, findControlOperation } from '../support/spec-check.js';

const json = new Headers({ 'content-type': 'application/json' });
const WS = '0123456789abcdef';
const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const entry = {
  time: '2026-01-05T10:00:00.000Z',
  method: 'GET',
  path: '/v1/pets',
  query: {},
  operationId: 'listPets',
  status: 200,
  durationMs: 1.5,
  requestBody: null,
  responseBody: [pet],
  specValid: true,
};
const memory = { bytes: 1000, budget: 4096, kept: 1, evicted: 0 };
const problems = (method: string, path: string, status: number, body: unknown, headers = json) =>
  controlProblems(method, `/__sandbox${path}`, { status, headers, body });

describe('control checker', () => {
  it('finds operations from method and URL path', async () => {
    expect((await findControlOperation('DELETE', '/__sandbox/faults/3'))?.operationId).toBe('deleteFault');
    expect((await findControlOperation('DELETE', '/__sandbox/faults'))?.operationId).toBe('clearFaults');
    expect(await findControlOperation('PATCH', '/__sandbox/mode')).toBeUndefined();
  });

  it('accepts valid responses', async () => {
    expect(await problems('GET', '/export', 200, { nextId: 2, pets: [pet] })).toEqual([]);
    expect(await problems('GET', '/journal', 200, { workspace: WS, size: 5, memory, entries: [entry] })).toEqual([]);
    expect(await problems('POST', '/faults', 201, { id: 1, operationId: 'listPets', rate: 1, applied: 0 })).toEqual([]);
    expect(
      await problems(
        'GET',
        '/mode',
        401,
        { code: 'unauthorized', message: 'x', status: 401 },
        new Headers({ 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="sandbox-control"' }),
      ),
    ).toEqual([]);
  });

  it.each([
    ['a pet outside the Pet schema of openapi.yaml', 'GET', '/export', 200, { nextId: 2, pets: [{ ...pet, id: 0 }] }],
    ['an extra property', 'GET', '/export', 200, { nextId: 2, pets: [], extra: true }],
    ['an undocumented status', 'GET', '/export', 201, { nextId: 2, pets: [] }],
    ['a time that is not a date-time', 'GET', '/journal', 200, { workspace: WS, size: 5, memory, entries: [{ ...entry, time: 'yesterday' }] }],
    ['a workspace that is not a hash', 'GET', '/journal', 200, { workspace: 'key-a', size: 5, memory, entries: [] }],
    ['a rate of 0 (exclusive minimum)', 'POST', '/faults', 201, { id: 1, operationId: 'listPets', rate: 0, applied: 0 }],
    ['a string latency', 'POST', '/faults', 201, { id: 1, operationId: 'listPets', latencyMs: '5', applied: 0 }],
    ['an Error status unlike the HTTP status', 'GET', '/export', 404, { code: 'not_found', message: 'x', status: 400 }],
    ['a 200 on an undescribed path', 'GET', '/nope', 200, { ok: true }],
    ['an unsafe int64', 'GET', '/export', 200, { nextId: 2 ** 60, pets: [] }],
  ])('reports %s', async (_name, method, path, status, body) => {
    expect(await problems(method, path, status, body)).not.toEqual([]);
  });

  it('reports a charset parameter and a missing or wrong WWW-Authenticate', async () => {
    const error = { code: 'unauthorized', message: 'x', status: 401 };
    expect(
      await problems('GET', '/mode', 200, { mode: 'stateful', modes: [] }, new Headers({ 'content-type': 'application/json; charset=utf-8' })),
    ).not.toEqual([]);
    expect(await problems('GET', '/mode', 401, error)).toEqual(['header WWW-Authenticate is missing']);
    expect(await problems('GET', '/mode', 401, error, new Headers({ 'content-type': 'application/json', 'www-authenticate': 'Bearer' }))).not.toEqual([]);
  });
});
