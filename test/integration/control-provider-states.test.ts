/**
 * `POST /__sandbox/provider-states` over real HTTP, in every form a Pact
 * verifier sends, with the credentials each can send; every state is checked
 * through `/v1`, as a verifier's next request would see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_STATES } from '../../src/control/provider-states.js';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a,key-b'])));
afterAll(() => sb.stop());

/** A state change sent with an API key, as a verifier sends its custom header. */
const change = (init: { json?: unknown; query?: string; token?: string | null; key?: string }) =>
  ctl('POST', `/provider-states${init.query ?? ''}`, {
    token: init.token === undefined ? 'key-a' : init.token,
    json: init.json,
    ...(init.key ? { key: init.key } : {}),
  });
const ids = async (path = '/pets?limit=100', key = 'key-a') => ((await sb.op('listPets', path, { key })).body as { id: number }[]).map((p) => p.id);

describe('the body and query forms of each verifier', () => {
  const pet7 = { id: 7, name: 'Rex', categoryId: 1, status: 'available' };
  it.each([
    ['Rust core, pact-js', { json: { state: 'a pet with id 7 exists', params: { id: 7 }, action: 'setup' } }],
    ['pact-jvm, no action, no params', { json: { state: 'a pet with id 7 exists' } }],
    ['Ruby', { json: { consumer: 'web', state: 'a pet with id 7 exists', states: ['a pet with id 7 exists'], params: {} } }],
    ['Ruby, the states list alone', { json: { consumer: 'web', states: ['a pet with id 7 exists'] } }],
    ['the query form', { query: '?state=a%20pet%20with%20id%207%20exists&action=setup&id=7' }],
  ])('%s sets up the pet and answers its values', async (_verifier, init) => {
    await change({ json: { state: 'no pets exist' } });
    const res = await change(init);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(pet7);
    expect((await sb.op('getPet', '/pets/7', { key: 'key-a' })).body).toEqual(pet7);
    expect(await ids()).toEqual([7]);
  });

  it("takes the pet's fields from the params, in the body and as query text", async () => {
    const body = await change({ json: { state: 'a pet with id 42 exists', params: { name: 'Kiwi', categoryId: 3, status: 'sold' } } });
    expect(body.body).toEqual({ id: 42, name: 'Kiwi', categoryId: 3, status: 'sold' });
    const query = await change({ query: '?state=a+pet+with+id+5+exists&name=Milo&categoryId=4&status=null' });
    expect(query.body).toEqual({ id: 5, name: 'Milo', categoryId: 4 });
    expect((await sb.op('getPet', '/pets/5', { key: 'key-a' })).body).toEqual({ id: 5, name: 'Milo', categoryId: 4 });
  });

  it('sets up every other state of the vocabulary as its name says', async () => {
    expect((await change({ json: { state: 'no pet with id 3 exists', params: { id: 3 } } })).body).toEqual({ id: 3 });
    expect((await sb.op('getPet', '/pets/3', { key: 'key-a' })).status).toBe(404);
    expect((await ids()).length).toBeGreaterThan(3);

    expect((await change({ query: '?state=pets+with+status+sold+exist' })).body).toEqual({ status: 'sold' });
    const sold = (await sb.op('listPets', '/pets?status=sold', { key: 'key-a' })).body as { status: string }[];
    expect(sold.length).toBeGreaterThan(0);
    expect(new Set(sold.map((p) => p.status))).toEqual(new Set(['sold']));
    expect(new Set(((await sb.op('listPets', '/pets', { key: 'key-a' })).body as { status?: string }[]).map((p) => p.status)).size).toBe(4);

    expect((await change({ json: { state: 'no pets exist', action: 'setup' } })).body).toEqual({});
    expect(await ids()).toEqual([]);
  });

  it('repeated, a setup gives the same state (verifiers retry)', async () => {
    const once = await change({ json: { state: 'no pet with id 2 exists' } });
    const exportOnce = (await ctl('GET', '/export', { key: 'key-a' })).text;
    const twice = await change({ json: { state: 'no pet with id 2 exists' } });
    expect(twice.body).toEqual(once.body);
    expect((await ctl('GET', '/export', { key: 'key-a' })).text).toBe(exportOnce);
  });

  it('an empty or null state name (an interaction without states) changes nothing and answers {}', async () => {
    await change({ json: { state: 'a pet with id 9 exists' } });
    for (const json of [{ state: '', params: {}, action: 'setup' }, { consumer: 'web', state: null, states: [null], params: {} }, {}]) {
      expect((await change({ json })).body).toEqual({});
    }
    expect((await change({ query: '?action=teardown' })).body).toEqual({});
    expect(await ids()).toEqual([9]);
  });

  it('teardown answers {} and leaves the data as set up', async () => {
    await change({ json: { state: 'a pet with id 9 exists' } });
    expect((await change({ json: { state: 'a pet with id 9 exists', params: {}, action: 'teardown' } })).body).toEqual({});
    expect((await change({ query: '?state=a+pet+with+id+9+exists&action=teardown' })).body).toEqual({});
    expect(await ids()).toEqual([9]);
  });
});

describe('the request has no valid API key', () => {
  const faults = async () => ((await ctl('GET', '/faults', { key: 'key-a' })).body as { faults: unknown[] }).faults;

  it('refuses the key once on each operation, until the next state change', async () => {
    await change({ json: { state: 'a pet with id 1 exists' } });
    expect((await change({ json: { state: 'the request has no valid API key', action: 'setup' } })).body).toEqual({});
    const refused = await sb.op('listPets', '/pets', { key: 'key-a' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await sb.op('listPets', '/pets', { key: 'key-a' })).status).toBe(200);
    expect(await faults()).toHaveLength(2);
    // The next interaction's setup (here one without states) takes the rest away.
    await change({ json: { state: '' } });
    expect(await faults()).toEqual([]);
    expect((await sb.op('getPet', '/pets/1', { key: 'key-a' })).status).toBe(200);
  });

  it('is taken away by teardown, and set up once however often it is repeated', async () => {
    await change({ json: { state: 'the request has no valid API key' } });
    await change({ json: { state: 'the request has no valid API key' } });
    expect(await faults()).toHaveLength(3);
    await change({ json: { state: 'the request has no valid API key', action: 'teardown' } });
    expect(await faults()).toEqual([]);
    expect((await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Rex', categoryId: 1 } })).status).toBe(201);
  });

  it('leaves faults a QA engineer added alone', async () => {
    const added = await ctl('POST', '/faults', { key: 'key-a', json: { operationId: 'getPet', latencyMs: 1 } });
    await change({ json: { state: 'the request has no valid API key' } });
    await change({ json: { state: 'no pets exist' } });
    expect(await faults()).toEqual([added.body]);
    await ctl('DELETE', '/faults', { key: 'key-a' });
  });
});

describe('credentials', () => {
  it('an API key acts on its own workspace only', async () => {
    await change({ json: { state: 'no pets exist' }, token: 'key-b' });
    await change({ json: { state: 'a pet with id 1 exists' }, token: 'key-a' });
    expect(await ids('/pets', 'key-b')).toEqual([]);
    expect(await ids('/pets', 'key-a')).toEqual([1]);
    const other = await change({ json: { state: 'no pets exist' }, token: 'key-a', key: 'key-b' });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain('own workspace only');
    expect(await ids('/pets', 'key-a')).toEqual([1]);
    expect((await change({ json: { state: 'no pets exist' }, token: 'key-a', key: 'key-a' })).status).toBe(200);
  });

  it('the admin token acts on the workspace X-Sandbox-Key names (default the first key)', async () => {
    await change({ json: { state: 'a pet with id 2 exists' }, token: sb.config.adminToken, key: 'key-b' });
    expect(await ids('/pets', 'key-b')).toEqual([2]);
    await change({ json: { state: 'a pet with id 3 exists' }, token: sb.config.adminToken });
    expect(await ids('/pets', 'key-a')).toEqual([3]);
  });

  it('refuses no credential (401), an unknown token (403), and an API key on other operations (403)', async () => {
    const none = await change({ json: { state: 'no pets exist' }, token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="sandbox-control"');
    expect((await change({ json: { state: 'no pets exist' }, token: 'nobody' })).status).toBe(403);
    expect((await ctl('POST', '/reset', { token: 'key-a', json: { empty: true } })).status).toBe(403);
    expect(await ids('/pets', 'key-a')).toEqual([3]);
  });
});

describe('refusals', () => {
  it('an unknown state is a 400 listing the known ones, and changes nothing', async () => {
    await change({ json: { state: 'a pet with id 4 exists' } });
    const res = await change({ json: { state: 'a unicorn with id 7 exists', action: 'setup' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.message).toContain("Unknown provider state 'a unicorn with id 7 exists'");
    for (const known of KNOWN_STATES) expect(res.body.message).toContain(known);
    expect(await ids()).toEqual([4]);
  });

  it.each([
    ['an unknown action', { state: 'no pets exist', action: 'reset' }, '"action"'],
    ['params that are no object', { state: 'no pets exist', params: [1] }, '"params"'],
    ['a state that is no string', { state: 7 }, '"state"'],
    ['params that make no valid pet', { state: 'a pet with id 7 exists', params: { categoryId: 'one' } }, 'categoryId'],
    ['a body that is no object', [1, 2], 'JSON object'],
  ])('%s is a 400 that changes nothing', async (_case, json, says) => {
    const res = await change({ json });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(says);
    expect(await ids()).toEqual([4]);
  });
});
