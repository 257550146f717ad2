/**
 * The typed control client against a real sandbox: it reaches every
 * operation of the route table the server is built from, answers with the
 * spec's types, and fails with one error type that carries the Error body.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlError, createControlClient, type CallOptions, type ControlClient, type JsonOperationId } from '../../src/control/client.js';
import { CONTROL_ROUTES, routeBase, routePath, type ControlInput, type ControlOperationId } from '../../src/control/routes.js';
import { clientOf } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { controlProblems } from '../support/spec-check.js';

let sb: TestSandbox;
let control: ControlClient;
beforeAll(async () => {
  sb = await startTestSandbox(['--api-keys', 'key-a,key-b', '--count', '3']);
  control = clientOf(sb, 'key-b');
});
afterAll(() => sb.stop());

/**
 * One valid call of each operation answering JSON, in an order where each
 * finds what it needs (fault 1 exists when it is deleted). Typed: an
 * operation added to the spec does not compile here until it has a call.
 * The live journal, a stream that never ends, has its own test below.
 */
const CALLS: { [K in JsonOperationId]: ControlInput<K> } = {
  getHealth: {},
  getLiveness: {},
  getReadiness: {},
  getMetrics: {},
  getMode: {},
  setMode: { body: { mode: 'stateful' } },
  listWorkspaces: {},
  listApis: {},
  getApiSpec: { path: { index: 0 } },
  listFixtures: {},
  resetWorkspace: { body: { seed: 2, count: 4 } },
  loadFixture: { body: { pets: [{ id: 7, name: 'Rex', categoryId: 1 }], mode: 'append' } },
  exportWorkspace: {},
  readJournal: { query: { limit: 1 } },
  clearJournal: {},
  readUnauthenticatedJournal: { query: { limit: 1 } },
  clearUnauthenticatedJournal: {},
  listOperations: {},
  addFault: { body: { operationId: 'getPet', status: 404, count: 1 } },
  listFaults: {},
  deleteFault: { path: { faultId: 1 } },
  clearFaults: {},
  changeProviderState: { body: { state: 'a pet with id 7 exists', params: { name: 'Rex' }, action: 'setup' } },
  exportPact: { query: { consumer: 'pet-store-web' } },
  readCoverage: { query: { 'fail-under': 50 } },
  saveCheckpoint: { body: { name: 'before' } },
  listCheckpoints: {},
  restoreCheckpoint: { path: { name: 'before' } },
  copyWorkspace: { body: { checkpoint: 'before' } },
  deleteCheckpoint: { path: { name: 'before' } },
};

/** Options a call needs besides its input: a copy names its target. */
const OPTIONS: Partial<Record<ControlOperationId, CallOptions>> = { copyWorkspace: { targetKey: 'key-a' } };

describe('the control client', () => {
  it.each(Object.keys(CALLS) as JsonOperationId[])('reaches %s where the server serves it, and gets its documented success', async (operationId) => {
    const input = CALLS[operationId] as ControlInput<typeof operationId>;
    const text = await (control.text as (id: ControlOperationId, input: unknown, options?: CallOptions) => Promise<string>)(
      operationId,
      input,
      OPTIONS[operationId],
    );
    const route = CONTROL_ROUTES[operationId];
    const path = `${routeBase(route)}${routePath(route, (input as { path?: Record<string, unknown> }).path)}`;
    // The client hands over the text only; the metrics are the one answer that is not JSON (their own test reads the header).
    const contentType = operationId === 'getMetrics' ? 'text/plain' : 'application/json';
    expect(await controlProblems(route.method, path, { status: route.status, headers: new Headers({ 'content-type': contentType }), text })).toEqual([]);
  });

  it('follows the live journal: the backlog asked for, then each new request of the workspace', async () => {
    await control.call('clearJournal');
    await sb.call('/pets?limit=1', { key: 'key-b' });
    const stop = new AbortController();
    const events = control.events('streamJournal', { query: { limit: 5 } }, { signal: stop.signal })[Symbol.asyncIterator]();
    try {
      const open = await events.next();
      expect(open.value).toEqual({ event: 'open', data: JSON.stringify({ workspace: sb.workspaces.idOf('key-b'), backlog: 1 }) });
      const first = await events.next();
      expect(first.value).toMatchObject({ event: 'entry' });
      expect(JSON.parse((first.value as { data: string }).data)).toMatchObject({ method: 'GET', path: '/v1/pets', query: { limit: '1' }, status: 200 });
      await sb.call('/pets/1', { key: 'key-a' }); // another workspace: not in this stream
      await sb.call('/pets?limit=2', { key: 'key-b' });
      const next = await events.next();
      expect(JSON.parse((next.value as { data: string }).data)).toMatchObject({ path: '/v1/pets', query: { limit: '2' }, specValid: true });
    } finally {
      stop.abort();
      await events.return?.();
    }
  });

  it('follows the requests without a valid key live, each with its credential masked, none of a workspace', async () => {
    await control.call('clearUnauthenticatedJournal');
    await sb.call('/pets?limit=1', { key: null });
    const stop = new AbortController();
    const events = control.events('streamUnauthenticatedJournal', { query: { limit: 5 } }, { signal: stop.signal })[Symbol.asyncIterator]();
    try {
      expect((await events.next()).value).toEqual({ event: 'open', data: '{"backlog":1}' });
      const first = JSON.parse(((await events.next()).value as { data: string }).data) as Record<string, unknown>;
      expect(first).toMatchObject({ path: '/v1/pets', query: { limit: '1' }, status: 401, credential: 'none' });
      await sb.call('/pets?limit=2', { key: 'key-b' }); // a valid key: a workspace's, not in this stream
      await sb.call('/pets?limit=3', { key: 'a-mistyped-key-b' });
      const next = (await events.next()).value as { data: string };
      expect(JSON.parse(next.data)).toMatchObject({ query: { limit: '3' }, status: 401, credential: 'Bearer a-mi…(16 characters)' });
      expect(next.data).not.toContain('a-mistyped-key-b');
    } finally {
      stop.abort();
      await events.return?.();
    }
  });

  it('keeps following past an entry whose bodies hold an int64 past 2^53, written digit for digit', async () => {
    const stop = new AbortController();
    const events = control.events('streamJournal', { query: { limit: 1 } }, { signal: stop.signal })[Symbol.asyncIterator]();
    try {
      expect((await events.next()).value).toMatchObject({ event: 'open' });
      const big = '9223372036854775807';
      const created = await sb.call('/pets', {
        key: 'key-b',
        method: 'POST',
        body: `{"name":"Huge","categoryId":${big}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(created.status).toBe(201);
      await sb.call('/pets?limit=3', { key: 'key-b' });
      const seen: string[] = [];
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const data = (next.value as { data: string }).data;
        seen.push(data);
        if (data.includes('"limit":"3"')) break;
      }
      const create = seen.find((d) => d.includes('"method":"POST"'));
      expect(create).toContain(`"categoryId":${big}`);
      expect(seen.at(-1)).toContain('"limit":"3"');
    } finally {
      stop.abort();
      await events.return?.();
    }
  });

  it('refuses the live journal without the admin token, with the Error body', async () => {
    const error = await (async () => {
      for await (const _ of createControlClient({ origin: sb.origin, adminToken: 'key-a' }).events('streamJournal')) return undefined;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ operationId: 'streamJournal', status: 403, body: { code: 'forbidden' } });
  });

  it("acts on its key's workspace, or on the one a call names", async () => {
    await control.call('resetWorkspace', { body: { empty: true } });
    await control.call('loadFixture', { body: { pets: [{ id: 1, name: 'A', categoryId: 1 }] } }, { key: 'key-a' });
    expect((await control.call('exportWorkspace')).pets).toEqual([]);
    expect((await control.call('exportWorkspace', {}, { key: 'key-a' })).pets).toEqual([{ id: 1, name: 'A', categoryId: 1 }]);
  });

  it("returns the export's text as the sandbox sent it", async () => {
    const text = await control.text('exportWorkspace', {}, { key: 'key-a' });
    expect(text).toBe(JSON.stringify({ nextId: 2, pets: [{ id: 1, name: 'A', categoryId: 1 }] }));
  });

  it('throws a ControlError carrying the Error body for any answer but the success', async () => {
    const error = await control.call('deleteFault', { path: { faultId: 999 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ operationId: 'deleteFault', status: 404, body: { code: 'not_found', status: 404 } });
    expect((error as ControlError).message).toContain('No fault 999');
    const refused = await createControlClient({ origin: sb.origin, adminToken: 'wrong' })
      .call('getMode')
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });

  it('throws a ControlError without a status when nothing answers', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const error = await createControlClient({ origin: `http://127.0.0.1:${port}` })
      .call('getHealth')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({ status: undefined, body: undefined });
    expect((error as Error).message).toContain('Cannot reach');
  });

  it('sends no admin token where the operation needs none, and the key only where it names a workspace', async () => {
    const health = await createControlClient({ origin: sb.origin }).call('getHealth');
    expect(health.status).toBe('ok');
    // A key this sandbox does not know would be a 404 where it applies; the mode has no workspace.
    expect((await clientOf(sb, 'key-c').call('getMode')).mode).toBe('stateful');
  });
});

/** Calls that must not compile: never run, checked by `tsc`. */
export function typeChecks(c: ControlClient): void {
  // @ts-expect-error an unknown operation
  void c.call('deletePet');
  // @ts-expect-error setMode needs its body
  void c.call('setMode');
  // @ts-expect-error a mode the spec does not list
  void c.call('setMode', { body: { mode: 'chaos' } });
  // @ts-expect-error deleteFault needs its path parameter
  void c.call('deleteFault', {});
  // @ts-expect-error getMode takes no body
  void c.call('getMode', { body: {} });
  // @ts-expect-error the live journal never ends: it is read with events()
  void c.call('streamJournal');
  // @ts-expect-error the answer of getMode has no pets
  void c.call('getMode').then((m) => m.pets);
}
