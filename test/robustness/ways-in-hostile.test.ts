/**
 * Hostile input on the ways in that take requests beside the server: fuzzed
 * control-plane bodies through the middleware (in a team's Express app,
 * over real HTTP) and through the library's fetch handler, and fuzzed
 * `Host` headers through the server and the middleware (from a simulated
 * peer, test/support/remote-peer.ts). Every answer is a success or the
 * Error body `{code, message, status}` as `application/json`, never a 5xx
 * or a stack trace, and the sandbox still answers afterwards.
 *
 * FUZZ_RUNS and FUZZ_SEED reproduce or widen a run.
 */
import { createServer, type Server } from 'node:http';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { petstoreSandbox, type SandboxMiddleware } from '../../src/middleware.js';
import { loadConfig } from '../../src/config/load.js';
import { startSandbox, type Sandbox } from '../../src/server/sandbox.js';
import { requestFromPeer } from '../support/remote-peer.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const ADMIN = { authorization: 'Bearer sandbox-admin' };

/** The control plane's operations that take a body (src/control/routes.ts). */
const TARGETS: [string, string][] = [
  ['PUT', '/__sandbox/mode'],
  ['POST', '/__sandbox/reset'],
  ['POST', '/__sandbox/load'],
  ['POST', '/__sandbox/faults'],
  ['POST', '/__sandbox/provider-states'],
  ['POST', '/__sandbox/checkpoints'],
  ['POST', '/__sandbox/checkpoints/a/restore'],
  ['POST', '/__sandbox/copy'],
];

/** Field names the control plane reads, so that the fuzz reaches past the JSON parser into the checks of each body. */
const FIELDS = [
  'mode',
  'seed',
  'count',
  'pets',
  'operationId',
  'status',
  'delayMs',
  'probability',
  'times',
  'state',
  'states',
  'params',
  'name',
  'to',
  'from',
  'id',
  'categoryId',
  'nextId',
  'body',
  'headers',
  'key',
  '__proto__',
  'constructor',
];

/** Values: small numbers (a count is seeded), odd ones as text, strings with control characters, nesting. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -5, max: 40 }),
    fc.constantFrom(1.5, -0, 2 ** 53 + 2, Number.MAX_VALUE, null, true, false),
    fc.string({ maxLength: 40, unit: 'binary' }),
    fc.constantFrom('stateful', 'example', 'proxy', 'createPet', 'listPets', 'a pet exists', ''),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('v'), { maxKeys: 5 }),
  ),
})).v;

const body: fc.Arbitrary<string> = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map((v) => JSON.stringify(v)),
  value.map((v) => JSON.stringify(v) ?? 'undefined'),
  fc.string({ maxLength: 200, unit: 'binary' }),
  fc.integer({ min: 1, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
);

const request = fc.record({
  target: fc.constantFrom(...TARGETS),
  body,
  type: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/json; charset=latin1'),
});

/** An answer as the checks read it. */
interface Answer {
  status: number;
  type: string | null;
  text: string;
}

function checkAnswer(answer: Answer, what: string): void {
  expect(answer.status, `${what} -> ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  expect(answer.text).not.toMatch(/<html|<!DOCTYPE|\n\s+at /i);
  if (answer.status < 400) return;
  expect(answer.type, what).toBe('application/json');
  const error = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(error).sort(), what).toEqual(['code', 'message', 'status']);
  expect(error.status, what).toBe(answer.status);
}

/** Each way's `send`: a request to the sandbox, its answer read whole. */
interface Way {
  name: string;
  send(method: string, path: string, init: { body?: string; type?: string }): Promise<Answer>;
  close(): Promise<void>;
}

async function middlewareWay(): Promise<Way> {
  const middleware: SandboxMiddleware = petstoreSandbox({ count: 5 });
  await middleware.sandbox;
  const app = express();
  app.use('/api', middleware);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
  return {
    name: 'the middleware',
    async send(method, path, init) {
      const headers = { ...ADMIN, ...(init.type ? { 'content-type': init.type } : {}) };
      const res = await fetch(origin + path, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await middleware.close();
    },
  };
}

async function handlerWay(): Promise<Way> {
  const sandbox: PetstoreSandbox = await createSandbox({ count: 5 });
  return {
    name: 'the fetch handler',
    async send(method, path, init) {
      const headers = { ...ADMIN, ...(init.type ? { 'content-type': init.type } : {}) };
      const req = new Request(`http://localhost${path}`, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
      const res = await sandbox.handler(req, { remoteAddress: '127.0.0.1' });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    },
    close: () => sandbox.close(),
  };
}

describe.each([
  ['the middleware', middlewareWay],
  ['the fetch handler', handlerWay],
])('fuzzed control bodies through %s', (_name, open) => {
  let way: Way;
  beforeAll(async () => void (way = await open()));
  afterAll(() => way.close());

  it('answers each with a success or an Error, never a 5xx, and still serves afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ target: [method, path], body: text, type }) => {
        checkAnswer(await way.send(method, path, { body: text, type }), `${method} ${path} ${text.slice(0, 80)}`);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    await way.send('PUT', '/__sandbox/mode', { body: '{"mode":"stateful"}', type: 'application/json' });
    expect((await way.send('GET', '/readyz', {})).status).toBe(200);
    const pets = await way.send('GET', '/v1/pets?limit=1', {});
    expect([200, 401]).toContain(pets.status);
  }, 120_000);
});

describe('fuzzed Host headers', () => {
  let sandbox: Sandbox;
  let middleware: SandboxMiddleware;
  let appServer: Server;
  beforeAll(async () => {
    sandbox = await startSandbox(loadConfig(['--store', 'memory', '--port', '0', '--log-level', 'silent', '--count', '5'], {}).config);
    middleware = petstoreSandbox({ count: 5 });
    const app = express();
    app.use(middleware);
    appServer = createServer(app);
  });
  afterAll(async () => {
    await sandbox.close();
    await middleware.close();
  });

  const servers = () => [sandbox.server, appServer];
  const ask = (server: Server, host: string) =>
    requestFromPeer(server, { target: '/v1/pets?limit=1', host, headers: { authorization: 'Bearer sandbox-key' } }, '127.0.0.1');

  it('refuses every name that is not loopback or allowed, with the Error body, on the server and the middleware', async () => {
    const names = fc.domain().filter((d) => !/(^|\.)localhost$/i.test(d));
    await fc.assert(
      fc.asyncProperty(names, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), async (name, port) => {
        const host = port === undefined ? name : `${name}:${port}`;
        for (const server of servers()) {
          const res = await ask(server, host);
          checkAnswer({ status: res.status, type: res.headers['content-type'] ?? null, text: res.body }, host);
          expect(res.status, host).toBe(403);
        }
      }),
      { numRuns: Math.ceil(RUNS / 3), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  }, 120_000);

  it('answers every IP address, and any other Host bytes only with a success, a 400 or a 403', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.ipV4(),
          fc.ipV6().map((a) => `[${a}]`),
        ),
        async (host) => {
          for (const server of servers()) expect((await ask(server, host)).status, host).toBe(200);
        },
      ),
      { numRuns: Math.ceil(RUNS / 3), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    const visible = fc.string({ minLength: 1, maxLength: 300, unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) });
    await fc.assert(
      fc.asyncProperty(visible, async (host) => {
        for (const server of servers()) {
          const res = await ask(server, host);
          expect([200, 400, 403], host).toContain(res.status);
          checkAnswer({ status: res.status, type: res.headers['content-type'] ?? null, text: res.body }, host);
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  }, 120_000);
});
