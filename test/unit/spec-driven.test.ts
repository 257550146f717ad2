import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMiddleware } from '../../src/adapters/node-middleware.js';
import { createStatefulMode } from '../../src/modes/stateful/index.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { Workspaces } from '../../src/store/file/workspaces.js';
import { KEY, tempDir, testConfig } from '../support/harness.js';
import { SPEC_PATH } from '../support/spec-check.js';
import { engineOf } from '../support/engine-of.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** Serves an engine built from an edited copy of the spec; nothing in src/ changes. */
async function serveEditedSpec(edit: (yaml: string) => string) {
  const dir = tempDir();
  const file = join(dir, 'openapi.yaml');
  writeFileSync(file, edit(readFileSync(SPEC_PATH, 'utf8')));
  const spec = loadSpec(file);
  const config = testConfig([], dir);
  const workspaces = await Workspaces.open({ dataFile: config.dataFile, defaultKey: KEY, store: { seed: { seed: 1, count: 50 } } });
  const middleware = createNodeMiddleware(engineOf({ config, spec, stateful: createStatefulMode(workspaces) }), { passOn: false });
  const server = createServer((req, res) => middleware(req, res, () => undefined)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  closers.push(async () => {
    await new Promise((resolve) => server.close(resolve));
    await workspaces.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...init.headers } });
}

describe('the spec is the single source of truth', () => {
  it('a lower limit maximum and default in the spec change listPets', async () => {
    const call = await serveEditedSpec((y) => y.replace('maximum: 100\n            default: 20', 'maximum: 30\n            default: 7'));
    expect((await call('/pets?limit=31')).status).toBe(400);
    expect(await (await call('/pets')).json()).toHaveLength(7);
  });

  it('a new constraint on NewPet.name is enforced on createPet', async () => {
    const call = await serveEditedSpec((y) =>
      y.replace(
        "          description: The animal's name.\n          example: Rex\n        categoryId:",
        "          description: The animal's name.\n          minLength: 2\n          example: Rex\n        categoryId:",
      ),
    );
    const res = await call('/pets', { method: 'POST', body: JSON.stringify({ name: 'X', categoryId: 1 }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain("'name'");
  });

  it('every operation of the spec has a handler in the stateful mode', async () => {
    const mode = createStatefulMode(await Workspaces.open({ dataFile: '/nonexistent/db.json', defaultKey: KEY, store: { seed: { seed: 1, count: 0 } } }));
    expect([...loadSpec().operations.keys()].filter((id) => !mode.operations.has(id))).toEqual([]);
  });
});
