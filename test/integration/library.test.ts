/**
 * The library: `createSandbox()` in this process, on the run's store (memory
 * by default; a data file or PostgreSQL in those runs). Its `fetch` answers
 * /v1 as the interface says (checked by the spec checker, not the server's
 * code), its workspaces' typed controls act in process, `listen()` opens a
 * real port that answers the same, and `close()` lets go of everything.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, ControlError, createSandbox, type CreateSandboxOptions, type PetstoreSandbox } from '../../src/index.js';
import { LockedError } from '../../src/store/file/lock.js';
import { KEY, libraryStore, onMemory, onPostgres, tempDir } from '../support/harness.js';
import { expectSpecValid } from '../support/spec-check.js';
import { startUpstream } from '../support/differential/upstream.js';

const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

/** A response as the spec checker takes it. */
async function checked(operationId: string, response: Response) {
  const text = await response.text();
  const res = { status: response.status, headers: response.headers, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  await expectSpecValid(operationId, res);
  return res;
}

describe('createSandbox', () => {
  let sandbox: PetstoreSandbox;
  beforeAll(async () => void (sandbox = await createSandbox({ seed: 3, count: 12, store: await libraryStore() })));
  afterAll(() => sandbox.close());

  it('answers /v1 in process with seeded pets, as the interface says', async () => {
    const list = await checked('listPets', await sandbox.fetch('/v1/pets?limit=100', { headers: AUTH }));
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(12);
    const one = await checked('getPet', await sandbox.fetch('/v1/pets/3', { headers: AUTH }));
    expect(one.body).toMatchObject({ id: 3 });
    expect(sandbox.url).toBeUndefined();
  });

  it('stores a create, and refuses what the interface refuses with an Error body', async () => {
    const created = await checked('createPet', await sandbox.fetch('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":2}' }));
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    expect((await checked('getPet', await sandbox.fetch(`/v1/pets/${id}`, { headers: AUTH }))).body).toEqual(created.body);
    const refused = await checked('createPet', await sandbox.fetch('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":""}' }));
    expect(refused.body).toMatchObject({ code: 'invalid_request', status: 400 });
    const noKey = await checked('listPets', await sandbox.fetch('/v1/pets'));
    expect(noKey.body).toMatchObject({ code: 'unauthorized', status: 401 });
    const notJson = await checked(
      'createPet',
      await sandbox.fetch('/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'x' }),
    );
    expect(notJson.status).toBe(415);
  });

  it('takes a Request, a URL or a path alike, and its engine takes plain values', async () => {
    const viaRequest = await sandbox.fetch(new Request('http://any.host/v1/pets/2', { headers: AUTH }));
    const viaUrl = await sandbox.fetch(new URL('http://other.host/v1/pets/2'), { headers: AUTH });
    expect(await viaRequest.text()).toBe(await viaUrl.text());
    const plain = await sandbox.handle({ method: 'GET', url: '/v1/pets/2', headers: { ...AUTH } });
    expect(plain.status).toBe(200);
    expect(typeof plain.body).toBe('string');
    // A path the engine serves nothing at is its 404, as on the server: the Error body, /v1's CORS.
    const elsewhere = await sandbox.handle({ method: 'GET', url: '/elsewhere', headers: {} });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers['Access-Control-Allow-Origin']).toBe('*');
    expect(JSON.parse(elsewhere.body as string)).toEqual({
      code: 'not_found',
      message: 'No route GET /elsewhere. The Pet Store interface is served under /v1.',
      status: 404,
    });
  });

  it('controls a workspace in code: reset, load, export, faults, journal, checkpoints, copy, pact, coverage', async () => {
    const ws = sandbox.workspace();
    expect(ws.key).toBe(KEY);
    await ws.load({ pets: [{ id: 1, name: 'Only', categoryId: 1, status: 'available' }] });
    expect((await ws.export()).pets).toHaveLength(1);
    await ws.checkpoint('one');
    await ws.reset({ count: 4 });
    expect((await ws.export()).pets).toHaveLength(4);
    await ws.restore('one');
    expect((await ws.export()).pets.map((p) => p.name)).toEqual(['Only']);
    expect((await ws.checkpoints.list()).checkpoints.map((c) => c.name)).toEqual(['one']);
    await ws.checkpoints.delete('one');

    const fault = await ws.faults.add({ operationId: 'listPets', status: 503, count: 1 });
    expect((await sandbox.fetch('/v1/pets', { headers: AUTH })).status).toBe(503);
    expect((await sandbox.fetch('/v1/pets', { headers: AUTH })).status).toBe(200);
    expect((await ws.faults.list()).faults.find((f) => f.id === fault.id)).toBeUndefined();

    await ws.journal.clear();
    await sandbox.fetch('/v1/pets/1', { headers: AUTH });
    const { entries } = await ws.journal.read();
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([['GET', '/v1/pets/1', 200]]);
    const pact = await ws.pact({ consumer: 'web' });
    expect(pact.interactions.length).toBeGreaterThan(0);
    const coverage = await ws.coverage({ 'fail-under': 50 });
    expect([coverage.requests, coverage.operations.find((o) => o.operationId === 'getPet')?.statuses[0]]).toEqual([1, { status: 200, count: 1 }]);
    expect(coverage.threshold).toEqual({ failUnder: 50, met: false });

    const other = sandbox.workspace('other-key');
    await expect(other.export()).rejects.toBeInstanceOf(ControlError);
  });

  it('follows the journal live until the loop stops', { timeout: 20_000 }, async () => {
    const ws = sandbox.workspace();
    const controller = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of ws.journal.follow({ signal: controller.signal })) {
        seen.push(event.event);
        if (event.event === 'entry') break;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sandbox.fetch('/v1/pets/2', { headers: AUTH });
    await following;
    controller.abort();
    expect(seen).toContain('entry');
  });

  it('listens on a real port when asked, answering as in process', async () => {
    const url = await sandbox.listen();
    expect(sandbox.url).toBe(url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const [overHttp, inProcess] = await Promise.all([fetch(`${url}/v1/pets/2`, { headers: AUTH }), sandbox.fetch('/v1/pets/2', { headers: AUTH })]);
    expect(await overHttp.text()).toBe(await inProcess.text());
    expect(await sandbox.listen()).toBe(url);
  });
});

describe('createSandbox with a port', () => {
  it('listens before it resolves, and lets go of everything when it cannot', async () => {
    const listening = await createSandbox({ port: 0 });
    try {
      expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${listening.url}/livez`)).status).toBe(200);
      const store = join(tempDir(), 'db.json');
      await expect(createSandbox({ port: Number(new URL(listening.url as string).port), store })).rejects.toThrow();
      // The data file's lock went with it: another sandbox opens the file.
      await (await createSandbox({ store })).close();
    } finally {
      await listening.close();
    }
  });
});

describe('createSandbox options', () => {
  it("takes a switch of the command line as true: with 'open-keys', any well-formed token gets a seeded workspace", async () => {
    const open = await createSandbox({ count: 2, options: { 'open-keys': true } });
    try {
      const listed = await open.fetch('/v1/pets', { headers: { authorization: 'Bearer a-key-nobody-configured' } });
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as unknown[]).length).toBe(2);
    } finally {
      await open.close();
    }
  });
});

describe('createSandbox in proxy mode', () => {
  it('forwards in process to its upstream, reports what broke the spec, and switches back to its own store', async () => {
    const upstream = await startUpstream();
    const proxy = await createSandbox({ mode: 'proxy', count: 5, options: { upstream: upstream.url } });
    try {
      const listed = await proxy.fetch('/v1/pets', { headers: AUTH });
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { name: string }[]).map((pet) => pet.name)).toEqual(['Staging Rex', 'Staging Luna']);
      const refused = await proxy.fetch('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":"Rex","categoryId":1,"colour":"red"}' });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('sandbox-violations')).toContain('"name":"colour"');
      const switched = await proxy.fetch('/__sandbox/mode', {
        method: 'PUT',
        headers: { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' },
        body: '{"mode":"stateful"}',
      });
      expect(switched.status).toBe(200);
      expect(((await (await proxy.fetch('/v1/pets', { headers: AUTH })).json()) as unknown[]).length).toBe(5);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('createSandbox refuses', () => {
  it('an option the command line refuses, naming it', async () => {
    await expect(createSandbox({ count: -1 })).rejects.toThrow(ConfigError);
    await expect(createSandbox({ options: { 'no-such-flag': 1 } })).rejects.toThrow(/no-such-flag/);
  });

  it.each([
    // The library's words: its option, not the command line's flag nor a variable it never reads.
    [{ seed: 'abc' }, "seed must be a whole number, got 'abc'"],
    [{ prot: 4011 }, "unknown option 'prot' (did you mean port?)"],
    [{ options: { 'journl-size': 5 } }, "unknown option options['journl-size'] (did you mean options['journal-size']?)"],
    // Nothing silently replaced or ignored: no default key in place of none, no port that listen() would not open.
    [{ apiKeys: [] }, "apiKeys is empty: no client could be answered. Give at least one key, or leave apiKeys out for the default 'sandbox-key'"],
    [{ options: { port: 4013 } }, 'options.port is an option of its own: give it as port'],
  ])('%o, before anything starts: %s', async (options, message) => {
    const made = createSandbox(options as CreateSandboxOptions);
    await expect(made).rejects.toBeInstanceOf(ConfigError);
    await expect(made).rejects.toThrow(message);
  });

  it.skipIf(onMemory || onPostgres)('a data file another sandbox holds, and keeps a closed one’s data', async () => {
    const store = join(tempDir(), 'db.json');
    const first = await createSandbox({ store, count: 2 });
    await expect(createSandbox({ store })).rejects.toBeInstanceOf(LockedError);
    await first.fetch('/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name":"Kept","categoryId":1}' });
    await first.close();
    const again = await createSandbox({ store });
    const names = ((await (await again.fetch('/v1/pets?limit=100', { headers: AUTH })).json()) as { name: string }[]).map((p) => p.name);
    expect(names).toContain('Kept');
    await again.close();
  });
});
