/**
 * The Pet Store's rules as a layer over the conventions, over HTTP on the
 * run's store (file, memory or PostgreSQL): the Pet Store 1.1
 * (`--spec petstore-1.1.yaml`) serves /v1/pets exactly as a default
 * sandbox does, byte for byte on the same seed, over the workspace's pets
 * (fixture sets, export, the quota), and its orders, served by convention,
 * refer to those pets.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createSandbox } from '../../src/index.js';
import { controlOf, type Control } from '../support/control-client.js';
import { libraryStore, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { PETSTORE_11, servedApi, type ServedApi } from '../support/own-spec.js';

const ARGS = ['--count', '5', '--seed', '7', '--api-keys', 'sandbox-key,other-key,third-key', '--quota-pets', '9'];

/** Headers of the connection or of the moment, not of the answer. */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

interface Step {
  method?: string;
  path: string;
  body?: string;
  key?: string;
}

/** Reads, lists with limit and status, creates (valid, invalid, past the quota), 404s and refusals. */
const SEQUENCE: Step[] = [
  { path: '/pets' },
  { path: '/pets?limit=2' },
  { path: '/pets?status=available' },
  { path: '/pets/3' },
  { path: '/pets/999' },
  { path: '/pets?limit=0' },
  { method: 'POST', path: '/pets', body: '{"name":"Rex","categoryId":1,"status":"sold"}' },
  { method: 'POST', path: '/pets', body: '{"name":"Tom","categoryId":2}' },
  { method: 'POST', path: '/pets', body: '{"name":"Owned","categoryId":2,"id":4}' },
  { method: 'POST', path: '/pets', body: '{"categoryId":2}' },
  { path: '/pets?status=sold&limit=100' },
  { path: '/pets/7' },
  { method: 'POST', path: '/pets', body: '{"name":"Eight","categoryId":3}' },
  { method: 'POST', path: '/pets', body: '{"name":"Nine","categoryId":3}' },
  { method: 'POST', path: '/pets', body: '{"name":"Ten","categoryId":3}' },
  { path: '/pets', key: 'wrong-key' },
  { path: '/pets', key: 'other-key' },
];

async function answers(sb: TestSandbox, steps: readonly Step[]): Promise<string[]> {
  const out: string[] = [];
  for (const step of steps) {
    const headers: Record<string, string> = { authorization: `Bearer ${step.key ?? 'sandbox-key'}` };
    if (step.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${sb.origin}/v1${step.path}`, { method: step.method ?? 'GET', headers, ...(step.body === undefined ? {} : { body: step.body }) });
    const kept = [...res.headers].filter(([name]) => !VARYING.has(name)).map(([name, value]) => `${name}: ${value}`);
    out.push(`${step.method ?? 'GET'} ${step.path} -> ${res.status}\n${kept.sort().join('\n')}\n\n${await res.text()}`);
  }
  return out;
}

let petStore: TestSandbox;
let layered: TestSandbox;
let ctlPetStore: Control;
let ctlLayered: Control;
let v1: ServedApi;

beforeAll(async () => {
  [petStore, layered] = await Promise.all([startTestSandbox(ARGS), startTestSandbox(['--spec', PETSTORE_11, ...ARGS])]);
  ctlPetStore = controlOf(petStore);
  ctlLayered = controlOf(layered);
  v1 = servedApi(fetch, layered.origin, '/v1', PETSTORE_11);
}, 60_000);

afterAll(async () => {
  await petStore?.stop();
  await layered?.stop();
});

describe("the Pet Store 1.1 at /v1, its pets the Pet Store's", { timeout: 60_000 }, () => {
  it('answers /v1/pets byte for byte as a default sandbox, its quota included', async () => {
    const expected = await answers(petStore, SEQUENCE);
    expect(expected.some((one) => one.includes('quota_exceeded'))).toBe(true);
    expect(await answers(layered, SEQUENCE)).toEqual(expected);
  });

  it('loads a fixture set into its pets, and exports them as the default sandbox does', async () => {
    for (const ctl of [ctlPetStore, ctlLayered]) expect((await ctl('POST', '/load', { key: 'other-key', json: { fixture: 'every-status' } })).status).toBe(200);
    const steps = [
      { path: '/pets?limit=100', key: 'other-key' },
      { path: '/pets?status=pending', key: 'other-key' },
    ];
    expect(await answers(layered, steps)).toEqual(await answers(petStore, steps));
    const exported = await ctlLayered('GET', '/export', { key: 'other-key' });
    // The pets exactly as the default sandbox exports them, then the orders' items (the 1.1 spec serves them by convention).
    const pets = (await ctlPetStore('GET', '/export', { key: 'other-key' })).text;
    expect(exported.text.startsWith(`${pets.slice(0, -1)},"apis":{"/v1":{"/store/orders":`)).toBe(true);
    expect((exported.body as { pets: unknown[] }).pets).toHaveLength(8);
  });

  it("seeds its orders referring to the workspace's pets, whatever they are", async () => {
    const pets = [101, 102, 103].map((id) => ({ id, name: `Pet ${id}`, categoryId: 1 }));
    expect((await ctlLayered('POST', '/load', { key: 'third-key', json: { pets } })).status).toBe(200);
    const orders = await v1.send('/store/orders?limit=50', { bearer: 'third-key' });
    expect(orders.status).toBe(200);
    expect(orders.body).toHaveLength(5);
    for (const order of orders.body as { petId: number }[]) expect([101, 102, 103]).toContain(order.petId);
  });

  it('serves its orders by convention beside the pets', async () => {
    const placed = await v1.send('/store/orders', { json: { petId: 2, quantity: 3 } });
    expect(placed.status).toBe(201);
    expect(placed.body).toEqual({ id: 6, petId: 2, quantity: 3, complete: false });
    for (const order of (await v1.send('/store/orders?limit=50')).body as { petId: number }[]) expect(order.petId).toBeGreaterThanOrEqual(1);
  });
});

describe("two specs with the Pet Store's operations", { timeout: 60_000 }, () => {
  it("share each key's pets, as versions of one store", async () => {
    const embedded = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
    const v11 = parse(readFileSync(PETSTORE_11, 'utf8')) as { servers: { url: string }[] };
    v11.servers = [{ url: 'https://api.petstore.example.com/v1.1' }];
    const sandbox = await createSandbox({ spec: [embedded, v11], count: 2, store: await libraryStore() });
    try {
      const headers = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
      const created = await sandbox.fetch('/v1.1/pets', { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' });
      expect(created.status).toBe(201);
      const read = await sandbox.fetch('/v1/pets/3', { headers });
      expect(await read.text()).toBe('{"id":3,"name":"Rex","categoryId":1}');
    } finally {
      await sandbox.close();
    }
  });
});
