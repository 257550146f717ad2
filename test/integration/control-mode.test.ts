/**
 * Switching the mode at run time: /v1 answers change, stored data does not.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

const PRISM_MS = 90_000;
/** The spec as YAML gives it: read by path, each read asserted by the test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
/** The spec's examples of a listPets 200 (response examples and the Pets schema's), read from the spec itself. */
const doc = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')) as Json;
const listExamples = [
  ...Object.values(doc.paths['/pets'].get.responses['200'].content['application/json'].examples).map((e) => (e as { value: unknown }).value),
  doc.components.schemas.Pets.example,
];

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--count', '5'])));
afterAll(() => sb.stop());

describe('mode', () => {
  it('reports the current mode and every mode', async () => {
    expect((await ctl('GET', '/mode')).body).toEqual({ mode: 'stateful', modes: ['stateful', 'example', 'dynamic'] });
  });

  it.each([
    ['an unknown mode', { json: { mode: 'chaos' } }, 400],
    ['no mode', { json: {} }, 400],
    ['no body', {}, 400],
    ['a mode that is not a string', { json: { mode: ['example'] } }, 400],
    ['a text body', { body: 'example', headers: { 'content-type': 'text/plain' } }, 415],
  ] as const)('refuses %s and stays stateful', async (_name, init, status) => {
    const res = await ctl('PUT', '/mode', init);
    expect(res.status).toBe(status);
    expect((await ctl('GET', '/mode')).body.mode).toBe('stateful');
  });

  it('switches to example and back: stored data is untouched', { timeout: PRISM_MS }, async () => {
    const stored = await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Stored-only', categoryId: 3 } });
    const before = (await ctl('GET', '/export')).text;

    expect((await ctl('PUT', '/mode', { json: { mode: 'example' } })).body).toEqual({ mode: 'example', modes: ['stateful', 'example', 'dynamic'] });
    expect((await ctl('GET', '/health', { token: null })).body.mode).toBe('example');
    const listed = await sb.op('listPets', '/pets');
    expect(listed.status).toBe(200);
    expect(listExamples).toContainEqual(listed.body);
    const created = await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Never stored', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect((await ctl('GET', '/export')).text).toBe(before);

    expect((await ctl('PUT', '/mode', { json: { mode: 'stateful' } })).body.mode).toBe('stateful');
    expect((await sb.op('getPet', `/pets/${stored.body.id}`)).body).toEqual(stored.body);
    expect((await ctl('GET', '/export')).text).toBe(before);
    expect((await sb.op('listPets', '/pets')).body.map((p: { name: string }) => p.name)).not.toContain('Never stored');
  });

  it('switches to dynamic and back, storing nothing', { timeout: PRISM_MS }, async () => {
    const before = (await ctl('GET', '/export')).text;
    await ctl('PUT', '/mode', { json: { mode: 'dynamic' } });
    expect((await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Dynamic', categoryId: 1 } })).status).toBe(201);
    await ctl('PUT', '/mode', { json: { mode: 'stateful' } });
    expect((await ctl('GET', '/export')).text).toBe(before);
  });
});
