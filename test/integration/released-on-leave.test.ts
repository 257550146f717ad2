/**
 * A client that leaves while its request waits takes what the request held
 * with it, checked in process on the run's backend (the data file, or
 * PostgreSQL with `npm run test:postgres`): no heartbeat, journal follower,
 * LISTEN connection, injected delay or upstream socket outlives it, and once
 * the sandbox is stopped this process holds nothing more than before it
 * started (`process.getActiveResourcesInfo()`).
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { abandonRaw, activeResources, heldBeyond } from '../support/abandon.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';

/** A raw request's head (and whole body, if any), `Connection: close` so nothing is kept alive. */
function head(method: string, path: string, token: string, body?: unknown): string {
  const json = body === undefined ? '' : JSON.stringify(body);
  const type = body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n`;
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n${type}\r\n${json}`;
}

/** The live journal tails' LISTEN connections open on the sandbox's database (0 on the file backend). */
async function listening(sb: TestSandbox): Promise<number> {
  if (sb.config.postgresUrl === undefined) return 0;
  const client = new pg.Client({ connectionString: sb.config.postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Requests enough at once to open every connection of a PostgreSQL pool (each idle one has a timer),
 * so that the pool does not grow, nor its timers with it, while what the test drops is measured.
 */
async function warmUp(sb: TestSandbox): Promise<void> {
  const read = () => fetch(`${sb.origin}/__sandbox/journal?limit=5`, { headers: { authorization: `Bearer ${sb.config.adminToken}` } }).then((r) => r.text());
  await Promise.all(Array.from({ length: 40 }, read));
}

/** Waits until `check` holds or `ms` passes; whether it held. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

let sb: TestSandbox | undefined;
let upstream: Server | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  upstream = undefined;
});

describe('requests dropped while they wait', () => {
  it('journal streams dropped before and after their read: no heartbeat, follower or LISTEN connection stays', { timeout: 60_000 }, async () => {
    sb = await startTestSandbox(['--api-keys', KEY]);
    const port = Number(new URL(sb.origin).port);
    for (let i = 0; i < 6; i++) await sb.call('/pets?limit=1');
    await warmUp(sb);
    const before = activeResources();
    const stream = (limit: number) => head('GET', `/__sandbox/journal/stream?limit=${limit}`, sb?.config.adminToken ?? '');
    await Promise.all(Array.from({ length: 30 }, (_, i) => abandonRaw(port, stream(i % 2 === 0 ? 5 : 0), i % 16)));
    // A heartbeat is a timer of 15 s and a follower's LISTEN a socket: both would still be here.
    expect(await heldBeyond(before, 5_000, 'Timeout')).toEqual({});
    expect(await eventually(async () => (await listening(sb as TestSandbox)) === 0, 5_000)).toBe(true);
  });

  it('every waiting point on the run backend; once stopped, nothing is left', { timeout: 90_000 }, async () => {
    const baseline = activeResources();
    sb = await startTestSandbox(['--api-keys', KEY]);
    const port = Number(new URL(sb.origin).port);
    const admin = sb.config.adminToken;
    for (let i = 0; i < 6; i++) await sb.call('/pets?limit=1');
    for (const operationId of ['listPets', 'createPet', 'getPet']) {
      const added = await fetch(`${sb.origin}/__sandbox/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operationId, latencyMs: 45_000 }),
      });
      expect(added.status).toBe(201);
    }
    await warmUp(sb);
    const running = activeResources();
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => abandonRaw(port, head('GET', `/__sandbox/journal/stream?limit=${i % 3}`, admin), i * 3)),
      // Held by a 45 s injected delay: released only if the delay stops when the client leaves.
      ...Array.from({ length: 5 }, () => abandonRaw(port, head('GET', '/v1/pets', KEY), 100)),
      ...Array.from({ length: 5 }, () => abandonRaw(port, head('GET', '/v1/pets/1', KEY), 100)),
      ...Array.from({ length: 5 }, () => abandonRaw(port, head('POST', '/v1/pets', KEY, { name: 'Rex', categoryId: 1 }), 100)),
      // Bodies that never arrive whole.
      abandonRaw(port, head('POST', '/v1/pets', KEY).replace('\r\n\r\n', '\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n'), 100, '{"na'),
      abandonRaw(
        port,
        head('POST', '/__sandbox/reset', admin).replace('\r\n\r\n', '\r\nContent-Type: application/json\r\nContent-Length: 99\r\n\r\n'),
        100,
        '{',
      ),
      // Control operations that read or write the store, dropped under way.
      abandonRaw(port, head('GET', '/__sandbox/export', admin), 5),
      abandonRaw(port, head('POST', '/__sandbox/reset', admin, { count: 3000 }), 10),
      abandonRaw(port, head('POST', '/__sandbox/load', admin, { generate: { seed: 3, count: 3000 } }), 10),
      abandonRaw(port, head('POST', '/__sandbox/checkpoints', admin, { name: 'left' }), 5),
      abandonRaw(port, head('GET', '/__sandbox/journal', admin), 1),
    ]);
    // While it still runs: the delays' timers and the tails' heartbeats are gone with their clients.
    expect(await heldBeyond(running, 5_000, 'Timeout')).toEqual({});
    expect(await eventually(async () => (await listening(sb as TestSandbox)) === 0, 5_000)).toBe(true);
    await sb.stop();
    sb = undefined;
    expect(await heldBeyond(baseline, 8_000)).toEqual({});
  });

  it('proxy mode: the upstream exchange stops when its client leaves, not at the upstream deadline', { timeout: 60_000 }, async () => {
    const sockets = new Set<Socket>();
    upstream = createServer(() => undefined); // never answers
    upstream.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => upstream?.listen(0, '127.0.0.1', resolve));
    const { port: upstreamPort } = upstream.address() as { port: number };
    const baseline = activeResources();
    sb = await startTestSandbox(['--api-keys', KEY, '--mode', 'proxy', '--upstream', `http://127.0.0.1:${upstreamPort}/v1`, '--upstream-timeout', '60']);
    const port = Number(new URL(sb.origin).port);
    await Promise.all(Array.from({ length: 5 }, () => abandonRaw(port, head('GET', '/v1/pets', KEY), 200)));
    expect(await eventually(() => Promise.resolve(sockets.size === 0), 5_000)).toBe(true);
    await sb.stop();
    sb = undefined;
    expect(await heldBeyond(baseline, 8_000)).toEqual({});
  });
});
