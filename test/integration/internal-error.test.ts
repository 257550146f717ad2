import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMiddleware } from '../../src/adapters/node-middleware.js';
import { closeServer, listen } from '../../src/adapters/node-server.js';
import type { ModeHandler } from '../../src/kernel/operation.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { engineOf } from '../support/engine-of.js';
import { KEY, testConfig } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';

// The engine's one error exit, behind a real listener, with a mode whose
// handlers fail in the ways real code fails: a thrown Error, a rejected
// promise, a thrown non-Error.
const SECRET = 'secret-detail /srv/private/db.json password=hunter2';
const failures: Record<string, () => Promise<never>> = {
  listPets: () => Promise.reject(new Error(SECRET)),
  createPet: () => {
    throw new TypeError(SECRET);
  },
  getPet: () => {
    throw SECRET as unknown as Error;
  },
};

const reported: unknown[] = [];
let server: Server;
let base: string;
beforeAll(async () => {
  const spec = loadSpec();
  const broken: ModeHandler = {
    operations: new Set(spec.operations.keys()),
    handle: (request) => (failures[request.op.operationId] ?? (failures.listPets as () => Promise<never>))(),
  };
  const engine = engineOf({ config: testConfig(), spec, stateful: broken, onUnexpected: (error) => reported.push(error) });
  const middleware = createNodeMiddleware(engine, { passOn: false });
  ({ server, origin: base } = await listen((req, res) => middleware(req, res, () => undefined), 0, '127.0.0.1'));
});
afterAll(() => closeServer(server));

describe('an unexpected exception -> 500 Error with nothing leaked', () => {
  it.each([
    ['listPets', 'GET', '/v1/pets', undefined],
    ['createPet', 'POST', '/v1/pets', '{"name":"Rex","categoryId":1}'],
    ['getPet', 'GET', '/v1/pets/1', undefined],
  ])('%s', async (operationId, method, path, body) => {
    const before = reported.length;
    const res = await fetch(`${base}${path}`, {
      method,
      body,
      headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/json');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(['code', 'message', 'status']);
    expect(parsed).toMatchObject({ code: 'internal', status: 500 });
    await expectSpecValid(operationId, { status: res.status, headers: res.headers, body: parsed });
    for (const leak of ['secret', '/srv', 'hunter2', 'TypeError', 'at ', '<html']) expect(text).not.toContain(leak);
    // The details go to the operator instead.
    expect(reported.length).toBe(before + 1);
    expect(String(reported.at(-1) instanceof Error ? (reported.at(-1) as Error).message : reported.at(-1))).toBe(SECRET);
  });

  it('the server keeps serving after a failure', async () => {
    const statuses = await Promise.all([1, 2, 3].map(() => fetch(`${base}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.status)));
    expect(statuses).toEqual([500, 500, 500]);
  });
});
