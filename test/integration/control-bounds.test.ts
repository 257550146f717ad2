/**
 * Work per request is bounded: `POST /__sandbox/provider-states` takes at
 * most MAX_STATES states and sets up any number of them with one write of
 * the pets, and an error quotes a client's value up to ECHO_LIMIT
 * characters, on the control plane and on /v1 (docs/limits.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STATES } from '../../src/control/provider-state-request.js';
import { ECHO_LIMIT } from '../../src/kernel/echo.js';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a,key-b'])));
afterAll(() => sb.stop());

/** Store writes of `kind` so far, as `/metrics` counts them (every backend times its own). */
async function writes(kind: 'replace' | 'append' | 'create'): Promise<number> {
  const text = await (await fetch(`${sb.origin}/metrics`)).text();
  const line = new RegExp(`^petstore_store_write_duration_seconds_count\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text);
  return Number(line?.[1] ?? 0);
}
const change = (json: unknown) => ctl('POST', '/provider-states', { token: 'key-a', json });
const ids = async () => ((await sb.op('listPets', '/pets?limit=100', { key: 'key-a' })).body as { id: number }[]).map((p) => p.id);
/** What a refusal's message must look like when it quotes a value of `length` characters starting with `start`. */
const cut = (start: string, length: number) => `${start.slice(0, ECHO_LIMIT)}…' (${length} characters)`;

describe('provider states in one request', () => {
  it(`takes ${MAX_STATES} states, sets them up as one after another would, in one write of the pets`, async () => {
    await change({ state: 'no pets exist' });
    const before = await writes('replace');
    const states = Array.from({ length: MAX_STATES }, (_, i) => `a pet with id ${i + 1} exists`);
    const res = await change({ consumer: 'web', states });
    expect(res.status).toBe(200);
    // The last state that names pets decides them; the values are every state's, the later over the earlier.
    expect(res.body).toEqual({ id: MAX_STATES, name: 'Rex', categoryId: 1, status: 'available' });
    expect(await ids()).toEqual([MAX_STATES]);
    expect((await writes('replace')) - before).toBe(1);
  });

  it('refuses the key once per operation however many states ask for it', async () => {
    const refusal = 'the request has no valid API key';
    const res = await change({ states: [refusal, 'pets with status sold exist', refusal, refusal] });
    expect(res.body).toEqual({ status: 'sold' });
    const { faults } = (await ctl('GET', '/faults', { key: 'key-a' })).body as { faults: unknown[] };
    expect(faults).toHaveLength(3);
    await change({ state: '' });
    expect(((await ctl('GET', '/faults', { key: 'key-a' })).body as { faults: unknown[] }).faults).toEqual([]);
  });

  it(`refuses ${MAX_STATES + 1} states with a 400 that says the limit, and writes nothing`, async () => {
    await change({ state: 'a pet with id 5 exists' });
    const before = await writes('replace');
    const res = await change({ states: Array.from({ length: MAX_STATES + 1 }, () => 'no pets exist') });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(res.body.message).toContain(String(MAX_STATES));
    expect(await writes('replace')).toBe(before);
    expect(await ids()).toEqual([5]);
  });

  it('checks every state before it writes: an unknown one last changes nothing', async () => {
    const before = await writes('replace');
    const res = await change({ states: ['no pets exist', 'a unicorn exists'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("Unknown provider state 'a unicorn exists'");
    expect(await writes('replace')).toBe(before);
    expect(await ids()).toEqual([5]);
  });
});

describe('values quoted in errors', () => {
  it(`an unknown state of 5 MB comes back as its first ${ECHO_LIMIT} characters and its length`, async () => {
    const name = `a unicorn ${'u'.repeat(5_000_000)}`;
    const res = await change({ state: name });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`Unknown provider state '${cut(name, name.length)}`);
    expect(res.text.length).toBeLessThan(2_000);
  });

  it('a property of a fixture record the Pet schema does not allow is quoted cut', async () => {
    const key = 'k'.repeat(1_000_000);
    const res = await ctl('POST', '/load', { key: 'key-b', json: { pets: [{ id: 1, name: 'Rex', categoryId: 1, [key]: true }] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(cut(key, key.length));
    expect(res.text.length).toBeLessThan(2_000);
  });

  it('a checkpoint name, a control path and a /v1 path are quoted cut', async () => {
    const long = 'n'.repeat(10_000);
    const checkpoint = await ctl('POST', `/checkpoints/${long}/restore`, { key: 'key-b' });
    expect(checkpoint.text).not.toContain(long);
    const path = await ctl('GET', `/${long}`);
    expect(path.status).toBe(404);
    expect(path.body.message).toContain(`n… (${`/__sandbox/${long}`.length} characters)`);
    expect(path.text.length).toBeLessThan(1_000);
    const v1 = await sb.call(`/pets/${long}`, { key: 'key-a' });
    expect(v1.status).toBe(404);
    expect(v1.text).not.toContain(long);
    expect(v1.body.message).toContain(`${'n'.repeat(ECHO_LIMIT)}…' (${long.length} characters)`);
  });

  it('a /v1 body field the schema does not allow is quoted cut', async () => {
    const key = 'f'.repeat(50_000);
    const res = await sb.call('/pets', { key: 'key-a', method: 'POST', json: { name: 'Rex', categoryId: 1, [key]: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(cut(key, key.length));
    expect(res.text.length).toBeLessThan(1_000);
  });
});
