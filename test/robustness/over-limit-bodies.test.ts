/**
 * A request refused before its body is read whole (413 for a body over the
 * limit, 401 or 415 before a byte of it is read) is answered while the
 * client is still sending, and every client reads that answer: the server
 * answers with `Connection: close`, then reads and drops the rest of the
 * body before it closes, so its kernel never resets the connection under an
 * answer not yet read. Counted over many requests for three kinds of client
 * (undici's fetch, curl, a bare socket that reads only once it has written
 * everything), on the server's /v1 and control plane and through the
 * Connect middleware in an Express app; after each batch no connection is
 * left open. A client that trickles its body reads its answer too, and its
 * connection is closed at the bound, not held.
 */
import express from 'express';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/adapters/node-server.js';
import { petstoreSandbox, type SandboxMiddleware } from '../../src/middleware.js';
import { CLIENTS, connectionsLeft, problemOf, tally } from '../support/body-senders.js';
import { KEY, startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { trickle } from '../support/trickle.js';

const MiB = 1024 * 1024;
/** How much later than the bound a connection may close on a loaded machine. */
const SLACK_MS = 15_000;

let sb: TestSandbox;
let mounted: { server: Server; origin: string; sandbox: SandboxMiddleware };
beforeAll(async () => {
  sb = await startTestSandbox();
  const app = express();
  const sandbox = petstoreSandbox();
  app.use('/api', sandbox);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  mounted = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sandbox };
});
afterAll(async () => {
  mounted.server.closeAllConnections();
  await new Promise((resolve) => mounted.server.close(resolve));
  await mounted.sandbox.close();
  await sb.stop();
});

/** Bodies of spaces (what they hold is never looked at), each made once, with a file of them for curl. */
const dir = tempDir('petstore-bodies-');
const bodies = new Map<number, { body: Buffer; file: string }>();
function bodyOf(size: number): { body: Buffer; file: string } {
  let made = bodies.get(size);
  if (!made) {
    made = { body: Buffer.alloc(size, ' '), file: join(dir, `${size}.json`) };
    writeFileSync(made.file, made.body);
    bodies.set(size, made);
  }
  return made;
}

const V1 = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const ADMIN = { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' };

interface Case {
  name: string;
  /** The server that answers, and the URL to send to. */
  at: () => { server: Server; url: string };
  headers: Record<string, string>;
  size: number;
  count: number;
  answer: [status: number, code: string];
}

const onSandbox = (path: string) => () => ({ server: sb.server, url: `${sb.origin}${path}` });
const TOO_LARGE: Case['answer'] = [413, 'payload_too_large'];

const cases: Case[] = [
  { name: 'POST /v1/pets, 6 MiB', at: onSandbox('/v1/pets'), headers: V1, size: 6 * MiB, count: 100, answer: TOO_LARGE },
  { name: 'POST /v1/pets, 64 MiB', at: onSandbox('/v1/pets'), headers: V1, size: 64 * MiB, count: 10, answer: TOO_LARGE },
  { name: 'POST /__sandbox/load, 65 MiB', at: onSandbox('/__sandbox/load'), headers: ADMIN, size: 65 * MiB, count: 10, answer: TOO_LARGE },
  {
    name: 'POST /api/v1/pets through the middleware in an Express app, 6 MiB',
    at: () => ({ server: mounted.server, url: `${mounted.origin}/api/v1/pets` }),
    headers: V1,
    size: 6 * MiB,
    count: 100,
    answer: TOO_LARGE,
  },
  {
    name: 'POST /v1/pets without a key, 6 MiB',
    at: onSandbox('/v1/pets'),
    headers: { 'content-type': 'application/json' },
    size: 6 * MiB,
    count: 10,
    answer: [401, 'unauthorized'],
  },
  {
    name: 'POST /v1/pets as text/plain, 6 MiB',
    at: onSandbox('/v1/pets'),
    headers: { ...V1, 'content-type': 'text/plain' },
    size: 6 * MiB,
    count: 10,
    answer: [415, 'unsupported_media_type'],
  },
  {
    name: 'POST /__sandbox/load without the admin token, 6 MiB',
    at: onSandbox('/__sandbox/load'),
    headers: { 'content-type': 'application/json' },
    size: 6 * MiB,
    count: 10,
    answer: [401, 'unauthorized'],
  },
];

const kinds = Object.keys(CLIENTS) as (keyof typeof CLIENTS)[];

describe.each(cases)('$name, refused before it is read whole', ({ at, headers, size, count, answer }) => {
  it.each(kinds)(`with %s: ${count} of ${count} read their answer, and no connection is left open`, { timeout: 240_000 }, async (kind) => {
    const { server, url } = at();
    const request = { url, headers, ...bodyOf(size) };
    // One at a time for the largest bodies: two fetches of 64 MiB in one process starve it on a loaded machine,
    // to the point of sending nothing on a new connection within the server's first-byte deadline (2 s).
    const concurrency = size > 8 * MiB ? 1 : 6;
    const reads = await CLIENTS[kind](request, count, concurrency);
    expect(tally(reads, ...answer)).toEqual({ ok: count, problems: {} });
    expect(await connectionsLeft(server, SERVER_LIMITS.lingerTimeMs + SLACK_MS)).toBe(0);
  });
});

describe('a client that trickles its body past the limit', () => {
  const client = () => connect(Number(new URL(sb.origin).port), '127.0.0.1');

  it('reads its 413 and goes on sending: the server reads on, and ends the connection at the time bound', { timeout: 120_000 }, async () => {
    const serverSide = new Promise<Socket>((resolve) => sb.server.once('connection', resolve));
    const run = await trickle(client(), { boundMs: SERVER_LIMITS.lingerTimeMs + SLACK_MS });
    const server = await serverSide;
    expect(problemOf(run.read, ...TOO_LARGE)).toBeUndefined();
    expect(run.closedAfterMs).toBeLessThan(SERVER_LIMITS.lingerTimeMs + SLACK_MS);
    // The connection stayed open under the client after its answer, and the server read most of what came later.
    const after = run.sent - run.sentBeforeAnswer;
    expect(after, 'bytes the client sent after its answer').toBeGreaterThan(64 * 1024);
    expect(server.bytesRead - run.sentBeforeAnswer, 'of them, bytes the server read').toBeGreaterThan(after / 2);
    expect(await connectionsLeft(sb.server, SLACK_MS)).toBe(0);
  });

  it('reads its 413 and falls silent without closing: the server ends the connection at the idle bound', { timeout: 60_000 }, async () => {
    const run = await trickle(client(), { boundMs: SERVER_LIMITS.lingerTimeMs + SLACK_MS, stopAtAnswer: true });
    expect(problemOf(run.read, ...TOO_LARGE)).toBeUndefined();
    // Well before the time bound, which would end it too: the idle bound did.
    expect(run.closedAfterMs).toBeLessThan(SERVER_LIMITS.lingerTimeMs);
    expect(await connectionsLeft(sb.server, SLACK_MS)).toBe(0);
  });
});
